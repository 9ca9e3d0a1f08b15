import type { Config } from '../config.js';
import type { Store } from '../store/types.js';
import type { RateLimiter, RateLimitPolicy } from './limiter.js';
import { SharedRateLimiter } from './shared.js';
import { LocalRateLimiter } from './token-bucket.js';

export type { Decision, RateLimiter } from './limiter.js';
export { policyHeader, rateLimitHeaders } from './limiter.js';

export interface RateLimiters {
  /** one bucket per tenant */
  tenants?: RateLimiter;
  /** one bucket per client address, for answers no valid token explained */
  addresses?: RateLimiter;
}

function limiterOf(policy: RateLimitPolicy, store: Store): RateLimiter | undefined {
  if (policy.perSecond === 0) return undefined;
  return store.rateBuckets ? new SharedRateLimiter(policy, store.rateBuckets) : new LocalRateLimiter(policy);
}

/** The limiters of the deployment: shared through the database when it has shared buckets; none when off. */
export function createRateLimiters(config: Config, store: Store): RateLimiters {
  return {
    tenants: limiterOf({ name: 'default', ...config.rateLimit }, store),
    addresses: limiterOf({ name: 'anonymous', ...config.anonymousRateLimit }, store),
  };
}
