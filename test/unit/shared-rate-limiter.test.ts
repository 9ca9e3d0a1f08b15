import { describe, expect, it } from 'vitest';
import { SharedRateLimiter } from '../../src/rate-limit/shared.js';
import type { RateBucketRepo } from '../../src/store/types.js';

/** A shared bucket as PostgreSQL keeps it, without the refill (the test's clock stands still for it). */
function bucketOf(level: number): RateBucketRepo & { level: () => number } {
  let tokens = level;
  return {
    level: () => tokens,
    async take(_key, want) {
      const granted = Math.min(want, Math.floor(tokens));
      tokens -= granted;
      return { granted, left: tokens };
    },
    async giveBack(_key, given, burst) {
      tokens = Math.min(burst, tokens + given);
    },
    async prune() {
      return 0;
    },
  };
}

describe('the rate limiter shared through the database', () => {
  it('puts a refunded request back into the shared bucket, not into a lease that lapses unspent', async () => {
    let now = 0;
    const bucket = bucketOf(20);
    const limiter = new SharedRateLimiter({ name: 'anonymous', perSecond: 1, burst: 20 }, bucket, () => now);
    const taken = await limiter.take('address:a');
    expect(taken.allowed).toBe(true);
    expect(bucket.level()).toBe(19);
    await limiter.refund('address:a');
    // the process's lease lapses a second later; what the request cost is back where every process takes
    now += 2000;
    expect(bucket.level()).toBe(20);
    await limiter.refund('address:a');
    expect(bucket.level(), 'never past the burst').toBe(20);
  });
});
