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

/** A shared bucket whose takes wait until the test lets them answer, or fail. */
function heldBucketOf(level: number) {
  const bucket = bucketOf(level);
  const held: { answer: () => void; fail: (error: Error) => void }[] = [];
  const repo: RateBucketRepo = {
    ...bucket,
    take: (key, want, perSecond, burst) =>
      new Promise((resolve, reject) => {
        held.push({
          answer: () => resolve(bucket.take(key, want, perSecond, burst)),
          fail: reject,
        });
      }),
  };
  return { repo, held, level: bucket.level };
}

const busyPolicy = { name: 'default', perSecond: 1_000_000, burst: 200 } as const;

describe('the shared rate limiter takes the next lease before this one is spent', () => {
  it('answers every request from the lease while the next lease is being taken, and admits no token twice', async () => {
    const bucket = heldBucketOf(200);
    const limiter = new SharedRateLimiter(busyPolicy, bucket.repo, () => 0);
    // the first request waits for the first lease: 5% of the burst
    const first = limiter.take('tenant:t');
    expect(first).toBeInstanceOf(Promise);
    bucket.held.shift()!.answer();
    expect((await first).allowed).toBe(true);
    // 9 left: the sixth request leaves 4, under half a lease, and the next lease is asked for then
    const answers = Array.from({ length: 9 }, () => limiter.take('tenant:t'));
    expect(answers.every((answer) => !(answer instanceof Promise))).toBe(true);
    expect(bucket.held).toHaveLength(1);
    expect(bucket.level(), 'not taken until the database answers').toBe(190);
    bucket.held.shift()!.answer();
    await new Promise((resolve) => setImmediate(resolve));
    expect(bucket.level()).toBe(180);
    // the new lease adds to what was left (nothing): ten more requests, without waiting
    const more = Array.from({ length: 10 }, () => limiter.take('tenant:t'));
    expect(more.every((answer) => !(answer instanceof Promise) && answer.allowed)).toBe(true);
  });

  it('admits no more than the shared bucket holds', async () => {
    const bucket = bucketOf(25);
    const limiter = new SharedRateLimiter(busyPolicy, bucket, () => 0);
    let allowed = 0;
    for (let i = 0; i < 60; i++) if ((await limiter.take('tenant:t')).allowed) allowed += 1;
    expect(allowed).toBe(25);
    expect(bucket.level()).toBe(0);
  });

  it('a take ahead that fails costs the requests nothing until the lease is spent; then they see the failure', async () => {
    const bucket = heldBucketOf(200);
    const limiter = new SharedRateLimiter(busyPolicy, bucket.repo, () => 0);
    const first = limiter.take('tenant:t');
    bucket.held.shift()!.answer();
    await first;
    for (let i = 0; i < 6; i++) limiter.take('tenant:t');
    bucket.held.shift()!.fail(new Error('database down'));
    await new Promise((resolve) => setImmediate(resolve));
    const rest = Array.from({ length: 3 }, () => limiter.take('tenant:t'));
    expect(rest.every((answer) => !(answer instanceof Promise) && answer.allowed)).toBe(true);
    const empty = limiter.take('tenant:t');
    expect(empty).toBeInstanceOf(Promise);
    bucket.held.shift()!.fail(new Error('database down'));
    await expect(empty).rejects.toThrow('database down');
  });

  it('drops what is left of a lease older than a second when the next one arrives', async () => {
    let now = 0;
    const bucket = heldBucketOf(200);
    const limiter = new SharedRateLimiter(busyPolicy, bucket.repo, () => now);
    const first = limiter.take('tenant:t');
    bucket.held.shift()!.answer();
    await first;
    for (let i = 0; i < 6; i++) limiter.take('tenant:t');
    // 3 tokens left when the take ahead is asked for; it answers after the lease's second
    now = 1500;
    bucket.held.shift()!.answer();
    await new Promise((resolve) => setImmediate(resolve));
    const answers = Array.from({ length: 10 }, () => limiter.take('tenant:t'));
    expect(answers.every((answer) => !(answer instanceof Promise))).toBe(true);
    // the eleventh finds the lease spent: the 3 old tokens were not added to it
    expect(limiter.take('tenant:t')).toBeInstanceOf(Promise);
  });
});
