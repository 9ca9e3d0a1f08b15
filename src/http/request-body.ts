import { bodyParser } from '@koa/bodyparser';
import type { Context } from 'koa';
import { ERRORS } from '../kernel/errors.js';
import { askForBody } from './continue.js';

/** JSON bodies of this API are tiny; anything larger is refused before it is buffered. */
export const JSON_BODY_LIMIT = 64 * 1024;

export function mediaType(ctx: Context): string {
  return (ctx.get('content-type').split(';')[0] ?? '').trim().toLowerCase();
}

/**
 * JSON only, at most 64 KiB. Not `jsonStrict`: a body of `"x"` or `null` is JSON that is not an object,
 * which validation names (`model_attributes_type`, as FastAPI does), not a decode error.
 */
const parseJson = bodyParser({
  enableTypes: ['json'],
  // the media type is checked before (415); `extendTypes` would not do: its lists merge by index
  detectJSON: () => true,
  jsonLimit: JSON_BODY_LIMIT,
  jsonStrict: false,
  encoding: 'utf-8',
  parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'],
});

/**
 * Reads a JSON request body after authentication; undefined when there is none. What is not JSON comes
 * back as its text, so that validation reports it as `json_invalid` like any other bad body.
 */
export async function readJsonBody(ctx: Context): Promise<unknown> {
  const type = mediaType(ctx);
  const length = ctx.request.length;
  const hasBody = (length !== undefined && length > 0) || ctx.get('transfer-encoding') !== '';
  if (!hasBody) return undefined;
  if (type !== 'application/json' && !type.endsWith('+json')) {
    ctx.req.resume();
    throw ERRORS.unsupportedMediaType(['application/json']);
  }
  askForBody(ctx);
  try {
    await parseJson(ctx, async () => undefined);
  } catch (error) {
    const failure = error as { type?: string; status?: number; body?: unknown };
    if (failure.type === 'entity.too.large') throw ERRORS.jsonBodyTooLarge(JSON_BODY_LIMIT);
    // co-body keeps the text of a body that is not JSON: validation turns it into `json_invalid`
    if (typeof failure.body === 'string') return failure.body.trim() === '' ? undefined : failure.body;
    throw ERRORS.bodyUnreadable().because(error);
  }
  const raw = (ctx.request as { rawBody?: string }).rawBody ?? '';
  if (raw.trim() === '') return undefined;
  const body = (ctx.request as { body?: unknown }).body;
  // openapi-backend takes a string for text still to parse: JSON that is a string or null goes as its text
  return typeof body === 'object' && body !== null ? body : raw;
}
