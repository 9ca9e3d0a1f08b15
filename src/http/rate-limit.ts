import proxyaddr from 'proxy-addr';
import { ERRORS } from '../errors.js';
import { type Decision, type RateLimiter, rateLimitHeaders } from '../rate-limit/index.js';
import type { AppContext, Step } from './state.js';

const LIMITED_PATHS = '/api/open/';

function apply(ctx: AppContext, limiter: RateLimiter, decision: Decision): void {
  ctx.set(rateLimitHeaders(limiter.policy, decision));
  ctx.state.rateLimited = true;
  if (!decision.allowed) throw ERRORS.rateLimited(decision.retryAfterSeconds);
}

/**
 * The client's address: the peer's, or, when the peer is one of `TRUST_PROXY`, the nearest address in its
 * `X-Forwarded-For` that is not a trusted proxy (proxy-addr reads the header right to left, as Express does).
 */
export function clientAddress(trustProxy: string[]): Step {
  const trusted = proxyaddr.compile(trustProxy);
  return (ctx, next) => {
    ctx.state.clientAddress =
      trustProxy.length > 0 ? proxyaddr(ctx.req, trusted) : (ctx.req.socket.remoteAddress ?? '');
    return next();
  };
}

/**
 * The rate limit step of an authenticated request: one bucket per tenant, taken before the body is read,
 * so that a refused request costs no more than its headers.
 */
export function limitTenant(limiter: RateLimiter | undefined): Step {
  return async (ctx, next) => {
    const tenantId = ctx.state.principal?.tenantId;
    if (limiter && tenantId !== undefined) {
      const taken = limiter.take(`tenant:${tenantId}`);
      apply(ctx, limiter, taken instanceof Promise ? await taken : taken);
    }
    return next();
  };
}

const addressKey = (ctx: AppContext) => `address:${ctx.state.clientAddress}`;

/**
 * Before the token is looked up: an address whose bucket is spent (by answers no valid token explained) is
 * refused with 429, so that guessing tokens costs the guesser, not the database. Routing ran first, so an
 * unknown method is 405 and an unknown path 404 whatever the bucket holds.
 */
export function refuseSpentAddress(limiter: RateLimiter | undefined): Step {
  return (ctx, next) => {
    const refusal =
      limiter && ctx.state.operation?.authenticated ? limiter.refusal(addressKey(ctx)) : undefined;
    if (refusal && limiter) apply(ctx, limiter, refusal);
    return next();
  };
}

/**
 * Answers on `/api/open/*` that no tenant's bucket explained (no token, a bad one, an unknown path) are
 * counted against the client's address, so that every answer there carries the rate limit headers and a
 * caller without a valid token is paced (refuseSpentAddress refuses it once its bucket is spent).
 */
export function limitAnonymous(limiter: RateLimiter | undefined): Step {
  return async (ctx, next) => {
    if (!limiter || !ctx.path.startsWith(LIMITED_PATHS)) return next();
    try {
      await next();
    } finally {
      if (!ctx.state.rateLimited) {
        const taken = limiter.take(addressKey(ctx));
        const decision = taken instanceof Promise ? await taken.catch(() => undefined) : taken;
        if (decision) ctx.set(rateLimitHeaders(limiter.policy, decision));
      }
    }
  };
}
