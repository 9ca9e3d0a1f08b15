import type { AppContext } from './state.js';

const BEARER = /^Bearer +(\S+) *$/i;

/** The bearer token of the request's `Authorization` header, when it has one. */
export const bearerToken = (ctx: AppContext): string | undefined =>
  BEARER.exec(ctx.get('authorization'))?.[1];
