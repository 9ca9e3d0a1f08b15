import type { Config } from '../config.js';
import type { Store } from '../store/types.js';
import type { RateLimiter } from './limiter.js';
import { SharedRateLimiter } from './shared.js';
import { LocalRateLimiter } from './token-bucket.js';

export type { Decision, RateLimiter } from './limiter.js';
export { rateLimitHeaders } from './limiter.js';

/** The limiter of the deployment: shared through the database when it has shared buckets; none when off. */
export function createRateLimiter(config: Config, store: Store): RateLimiter | undefined {
  if (config.rateLimit.perSecond === 0) return undefined;
  return store.rateBuckets
    ? new SharedRateLimiter(config.rateLimit, store.rateBuckets)
    : new LocalRateLimiter(config.rateLimit);
}
