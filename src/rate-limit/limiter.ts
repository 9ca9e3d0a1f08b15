/** What one request's take from its bucket decided, and what the answer tells the client. */
export interface Decision {
  allowed: boolean;
  /** Whole requests the client may still send at once. */
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  /** When refused: whole seconds until one request is allowed again (at least 1). */
  retryAfterSeconds: number;
}

export interface RateLimitPolicy {
  perSecond: number;
  burst: number;
}

/** One bucket per key (a tenant, or the address of a caller without a token). */
export interface RateLimiter {
  readonly policy: RateLimitPolicy;
  /** Synchronous when the process can decide alone, which is the hot path. */
  take(key: string): Decision | Promise<Decision>;
}

/** The refill arithmetic every engine shares. */
export function decide(policy: RateLimitPolicy, tokensLeft: number, allowed: boolean): Decision {
  const tokens = Math.max(0, tokensLeft);
  return {
    allowed,
    remaining: Math.floor(tokens),
    resetSeconds: Math.ceil((policy.burst - tokens) / policy.perSecond),
    retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / policy.perSecond)),
  };
}

/** The IETF draft's headers (draft-ietf-httpapi-ratelimit-headers, the structured-field form). */
export function rateLimitHeaders(policy: RateLimitPolicy, decision: Decision): Record<string, string> {
  const window = Math.ceil(policy.burst / policy.perSecond);
  return {
    'RateLimit-Policy': `"default";q=${policy.burst};w=${window}`,
    RateLimit: `"default";r=${decision.remaining};t=${decision.resetSeconds}`,
  };
}
