import type { Context } from 'koa';
import type { AnyAnswer } from './handler.js';
import type { AppContext } from './state.js';
import { AppError, envelopeOf, ERRORS } from '../kernel/errors.js';
import { StoreUnavailableError } from '../store/types.js';
import { BlobUnavailableError } from '../blobs/blob-store.js';

/** A handler's answer, in the success envelope unless it writes itself (a file, a stream). */
export function sendAnswer(ctx: AppContext, answer: AnyAnswer): void {
  ctx.status = answer.status;
  if (answer.kind === 'raw') return answer.write(ctx);
  if (answer.kind === 'data') {
    ctx.body = { code: 0, message: 'OK', data: answer.data, timestamp: Date.now() };
    return;
  }
  // the items are JSON already (stored copies): the envelope is written around them
  ctx.type = 'application/json';
  const { meta } = answer;
  const page = meta
    ? `,"total":${meta.total},"page":${meta.page},"page_size":${meta.page_size},"total_pages":${Math.ceil(meta.total / meta.page_size)}`
    : '';
  const extra = Object.entries(answer.extra as Record<string, unknown>)
    .map(([key, value]) => `,${JSON.stringify(key)}:${JSON.stringify(value)}`)
    .join('');
  ctx.body = `{"code":0,"message":"OK","data":[${answer.items.join(',')}]${page}${extra},"timestamp":${Date.now()}}`;
}

/** The only place a failing envelope is built. */
export function sendError(ctx: Context, error: unknown): void {
  const appError =
    error instanceof AppError
      ? error
      : error instanceof StoreUnavailableError
        ? ERRORS.storeUnavailable().because(error)
        : error instanceof BlobUnavailableError
          ? ERRORS.blobsUnavailable().because(error)
          : ERRORS.internal().because(error);
  ctx.status = appError.status;
  if (appError.headers) ctx.set(appError.headers);
  ctx.body = envelopeOf(appError, ctx.state.requestId as string);
}
