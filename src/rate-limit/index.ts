import type { Config } from '../kernel/config.js';
import { type SweepPass, sweepInBatches } from '../store/sweep.js';
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

/**
 * Deletes the shared buckets that are full again (untouched for longer than the slower policy takes to
 * refill one from empty), within the sweep pass: one row per client address would otherwise stay for ever.
 */
export function pruneSharedBuckets(config: Config, store: Store, pass: SweepPass): Promise<number> {
  const buckets = store.rateBuckets;
  const refills = [config.rateLimit, config.anonymousRateLimit]
    .filter((policy) => policy.perSecond > 0)
    .map((policy) => Math.ceil(policy.burst / policy.perSecond));
  if (!buckets || refills.length === 0) return Promise.resolve(0);
  const fullAfterSeconds = Math.max(...refills) + 1;
  return sweepInBatches((limit) => buckets.prune(fullAfterSeconds, limit), pass);
}

/** The limiters of the deployment: shared through the database when it has shared buckets; none when off. */
export function createRateLimiters(config: Config, store: Store): RateLimiters {
  return {
    tenants: limiterOf({ name: 'default', ...config.rateLimit }, store),
    addresses: limiterOf({ name: 'anonymous', ...config.anonymousRateLimit }, store),
  };
}
