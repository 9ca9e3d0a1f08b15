import proxyaddr from 'proxy-addr';
import { ERRORS } from '../kernel/errors.js';
import { type Decision, type RateLimiter, rateLimitHeaders } from '../rate-limit/index.js';
import { hashToken } from '../tenants/tokens.js';
import { bearerToken } from './bearer.js';
import {
  type AddressPaced,
  advance,
  type AppContext,
  type Authenticated,
  type Routed,
  type Stage,
  type Step,
} from './state.js';

const LIMITED_PATHS = '/api/open/';
const REMEMBERED_TOKENS = 10_000;
const REMEMBER_MS = 60_000;

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
 * Tokens this process recently found valid (by their hash; at most 10,000, for a minute). They only spare a
 * tenant's requests the address bucket: every request is still authenticated by the token lookup.
 */
export class RecentlyValidTokens {
  private readonly until = new Map<string, number>();

  has(token: string): boolean {
    const key = hashToken(token);
    const until = this.until.get(key);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    this.until.delete(key);
    return false;
  }

  remember(token: string): void {
    const key = hashToken(token);
    this.until.delete(key);
    if (this.until.size >= REMEMBERED_TOKENS) this.until.delete(this.until.keys().next().value!);
    this.until.set(key, Date.now() + REMEMBER_MS);
  }
}

const addressKey = (state: { clientAddress: string }) => `address:${state.clientAddress}`;

/**
 * Before the token is looked up: a request whose token this process has not recently found valid takes one
 * request from its address's bucket, and an empty bucket answers 429 there, so that guessing tokens costs
 * the guesser, not the database (every lookup was paid for). Routing ran first, so an unknown method is 405
 * and an unknown path 404 whatever the bucket holds. A token that turns out valid gets its request back
 * (limitTenant) and is remembered: its tenant's next requests pass without touching the address bucket.
 */
export function paceAddress(
  limiter: RateLimiter | undefined,
  known: RecentlyValidTokens,
): Stage<Routed, AddressPaced> {
  return async (ctx, state, next) => {
    const token = bearerToken(ctx);
    if (!limiter || !state.operation.authenticated || (token !== undefined && known.has(token)))
      return next(advance(state, { addressCharged: false }));
    const taken = limiter.take(addressKey(state));
    apply(ctx, limiter, taken instanceof Promise ? await taken : taken);
    return next(advance(state, { addressCharged: true }));
  };
}

/**
 * The rate limit step of an authenticated request: one bucket per tenant, taken before the body is read,
 * so that a refused request costs no more than its headers. A valid token first gives back what its
 * address paid for the lookup.
 */
export function limitTenant(
  limiter: RateLimiter | undefined,
  addresses: RateLimiter | undefined,
  known: RecentlyValidTokens,
): Stage<Authenticated, Authenticated> {
  return async (ctx, state, next) => {
    const tenantId = state.principal?.tenantId;
    if (tenantId !== undefined && state.addressCharged) {
      // settled before the answer: the address's next request sees the bucket as if this one was not taken
      await addresses?.refund(addressKey(state))?.catch(() => undefined);
      const token = bearerToken(ctx);
      if (token !== undefined) known.remember(token);
    }
    if (limiter && tenantId !== undefined) {
      const taken = limiter.take(`tenant:${tenantId}`);
      apply(ctx, limiter, taken instanceof Promise ? await taken : taken);
    }
    return next(state);
  };
}

/**
 * Answers on `/api/open/*` that no bucket explained yet (an unknown path, an unsupported method) are counted
 * against the client's address, so that every answer there carries the rate limit headers. An answer to a
 * valid token is never one of them, whatever the limits are set to: with the tenant limiter off, charging it
 * here drained the address bucket until the remembered token lapsed and its tenant met `"anonymous";r=0`.
 */
export function limitAnonymous(limiter: RateLimiter | undefined): Step {
  return async (ctx, next) => {
    if (!limiter || !ctx.path.startsWith(LIMITED_PATHS)) return next();
    try {
      await next();
    } finally {
      if (!ctx.state.rateLimited && ctx.state.principal === undefined) {
        const taken = limiter.take(addressKey(ctx.state));
        const decision = taken instanceof Promise ? await taken.catch(() => undefined) : taken;
        if (decision) ctx.set(rateLimitHeaders(limiter.policy, decision));
      }
    }
  };
}
