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

/**
 * Answers on `/api/open/*` that no tenant's bucket explained (no token, a bad one, an unknown path) are
 * counted against the caller's address, so that every answer there carries the rate limit headers.
 */
export function limitAnonymous(limiter: RateLimiter | undefined): Step {
  return async (ctx, next) => {
    if (!limiter || !ctx.path.startsWith(LIMITED_PATHS)) return next();
    try {
      await next();
    } finally {
      if (!ctx.state.rateLimited) {
        const taken = limiter.take(`address:${ctx.ip}`);
        const decision = taken instanceof Promise ? await taken.catch(() => undefined) : taken;
        if (decision) ctx.set(rateLimitHeaders(limiter.policy, decision));
      }
    }
  };
}
