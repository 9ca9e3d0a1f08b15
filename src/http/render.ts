import type { Context } from 'koa';
import { AppError, envelopeOf, ERRORS } from '../errors.js';
import { StoreUnavailableError } from '../store/types.js';
import { BlobUnavailableError } from '../blobs/blob-store.js';

export interface ListMeta {
  total: number;
  page: number;
  page_size: number;
}

export function sendOk(ctx: Context, data: unknown, status = 200): void {
  ctx.status = status;
  ctx.body = { code: 0, message: 'OK', data, timestamp: Date.now() };
}

/**
 * A list whose items are already JSON text (see JsonText): the envelope is written around them. `extra`
 * adds top-level fields of the envelope (the run list's `next_cursor`).
 */
export function sendJsonList(
  ctx: Context,
  items: string[],
  meta: ListMeta,
  extra?: Record<string, unknown>,
): void {
  ctx.status = 200;
  ctx.type = 'application/json';
  const more = extra
    ? Object.entries(extra)
        .map(([key, value]) => `,${JSON.stringify(key)}:${JSON.stringify(value)}`)
        .join('')
    : '';
  ctx.body = `{"code":0,"message":"OK","data":[${items.join(',')}],"total":${meta.total},"page":${meta.page},"page_size":${meta.page_size},"total_pages":${Math.ceil(meta.total / meta.page_size)}${more},"timestamp":${Date.now()}}`;
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
