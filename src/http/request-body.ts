import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { ERRORS } from '../errors.js';

/** JSON bodies of this API are tiny; anything larger is refused before it is buffered. */
export const JSON_BODY_LIMIT = 64 * 1024;

export function mediaType(ctx: Context): string {
  return (ctx.get('content-type').split(';')[0] ?? '').trim().toLowerCase();
}

/**
 * Reads a JSON request body as text, or undefined when there is none. openapi-backend parses the text and
 * reports text that is not JSON as a parse error (rendered as `json_invalid`).
 */
export async function readJsonBody(ctx: Context): Promise<string | undefined> {
  const type = mediaType(ctx);
  const length = ctx.request.length;
  const hasBody = (length !== undefined && length > 0) || ctx.get('transfer-encoding') !== '';
  if (!hasBody) return undefined;
  if (type !== 'application/json' && !type.endsWith('+json')) {
    ctx.req.resume();
    throw ERRORS.unsupportedMediaType(['application/json']);
  }
  let text: string;
  try {
    text = await getRawBody(ctx.req, { limit: JSON_BODY_LIMIT, encoding: 'utf8', length });
  } catch (error) {
    const type = (error as { type?: string }).type;
    if (type === 'entity.too.large') throw ERRORS.payloadTooLarge(`JSON body over ${JSON_BODY_LIMIT} bytes`);
    throw ERRORS.unprocessable('body_unreadable', 'The request body could not be read');
  }
  return text.trim() === '' ? undefined : text;
}
