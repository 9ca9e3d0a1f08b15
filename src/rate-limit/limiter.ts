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
  /** The policy's name in the headers: `default` for tenants, `anonymous` for client addresses. */
  name: 'default' | 'anonymous';
  perSecond: number;
  burst: number;
}

/** One bucket per key (a tenant, or the address of a caller without a token). */
export interface RateLimiter {
  readonly policy: RateLimitPolicy;
  /** Synchronous when the process can decide alone, which is the hot path. */
  take(key: string): Decision | Promise<Decision>;
  /**
   * Gives back one request taken by `take` that turned out not to count (a valid token, for an address);
   * settled when it returns, or when the promise it returns does.
   */
  refund(key: string): void | Promise<void>;
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

/**
 * The IETF draft's policy (draft-ietf-httpapi-ratelimit-headers): `q` quota units per window of `w` whole
 * seconds. A bucket refilled at `perSecond` admits `perSecond * w` over any long run of such windows, and
 * the window is the bucket's refill time rounded up to a whole second, so the burst fits in one window:
 * `w = max(1, ceil(burst / perSecond))`, `q = perSecond * w`.
 */
export function policyHeader(policy: RateLimitPolicy): string {
  const window = Math.max(1, Math.ceil(policy.burst / policy.perSecond));
  return `"${policy.name}";q=${policy.perSecond * window};w=${window}`;
}

/** The IETF draft's headers (draft-ietf-httpapi-ratelimit-headers, the structured-field form). */
export function rateLimitHeaders(policy: RateLimitPolicy, decision: Decision): Record<string, string> {
  return {
    'RateLimit-Policy': policyHeader(policy),
    RateLimit: `"${policy.name}";r=${decision.remaining};t=${decision.resetSeconds}`,
  };
}
