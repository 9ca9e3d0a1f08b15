import { decide, type Decision, type RateLimiter, type RateLimitPolicy } from './limiter.js';

interface Bucket {
  tokens: number;
  at: number;
}

/** Buckets kept past this many are pruned of the full ones (a full bucket is the same as no bucket). */
const PRUNE_ABOVE = 10_000;

/** Token buckets in this process's memory: the whole limit when one process serves the database. */
export class LocalRateLimiter implements RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    readonly policy: RateLimitPolicy,
    private readonly now: () => number = () => performance.now(),
  ) {}

  private tokensAt(bucket: Bucket | undefined, at: number): number {
    return bucket
      ? Math.min(this.policy.burst, bucket.tokens + ((at - bucket.at) / 1000) * this.policy.perSecond)
      : this.policy.burst;
  }

  refund(key: string): void {
    const bucket = this.buckets.get(key);
    if (bucket) bucket.tokens = Math.min(this.policy.burst, bucket.tokens + 1);
  }

  take(key: string): Decision {
    const at = this.now();
    const bucket = this.buckets.get(key);
    const tokens = this.tokensAt(bucket, at);
    const allowed = tokens >= 1;
    const left = allowed ? tokens - 1 : tokens;
    if (bucket) {
      bucket.tokens = left;
      bucket.at = at;
    } else {
      if (this.buckets.size >= PRUNE_ABOVE) this.prune(at);
      this.buckets.set(key, { tokens: left, at });
    }
    return decide(this.policy, left, allowed);
  }

  private prune(at: number): void {
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + ((at - bucket.at) / 1000) * this.policy.perSecond >= this.policy.burst) {
        this.buckets.delete(key);
      }
    }
  }
}
