import type { RateBucketRepo } from '../store/types.js';
import { decide, type Decision, type RateLimiter, type RateLimitPolicy } from './limiter.js';

/** Share of the burst a process takes from the shared bucket at once. */
const LEASE_SHARE = 0.05;
/** Tokens a process took but did not spend within this long are dropped: they would be a second burst. */
const LEASE_LIFETIME_MS = 1000;

interface Lease {
  tokens: number;
  takenAt: number;
  /** The shared bucket's level after the last take: what the client may send beyond this lease. */
  sharedLeft: number;
  pending?: Promise<void>;
  waiting: number;
}

/**
 * One bucket per key shared by every process on the database, without a database write per request: a
 * process takes tokens from the shared bucket a few at a time (5% of the burst, or as many as requests are
 * waiting) and spends them locally. Once half a lease is left and the shared bucket had more, the next
 * lease is taken while the rest is spent, so that a busy key's requests do not all wait for the database
 * every lease. Tokens are never created, so processes together admit no more than the shared bucket gives;
 * a lease not spent within a second is dropped, which bounds what a process can hold back to a lease and a
 * half.
 */
export class SharedRateLimiter implements RateLimiter {
  private readonly leases = new Map<string, Lease>();
  private readonly leaseSize: number;

  constructor(
    readonly policy: RateLimitPolicy,
    private readonly buckets: RateBucketRepo,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.leaseSize = Math.max(1, Math.floor(policy.burst * LEASE_SHARE));
  }

  /**
   * Back into the shared bucket: a token put into this process's lease would be dropped with the lease a
   * second later unless another request of the key spent it, and the key's bucket would have paid for a
   * request that does not count (a valid token's first requests from an address, every time this process
   * forgets the token).
   */
  refund(key: string): Promise<void> {
    return this.buckets.giveBack(key, 1, this.policy.burst);
  }

  take(key: string): Decision | Promise<Decision> {
    const lease = this.leases.get(key);
    if (lease && lease.tokens >= 1 && this.now() - lease.takenAt < LEASE_LIFETIME_MS) {
      lease.tokens -= 1;
      if (!lease.pending && lease.tokens < this.leaseSize / 2 && lease.sharedLeft >= 1) {
        // a failed take ahead costs nothing: the request that finds the lease empty takes again, and fails
        this.refill(key, lease).catch(() => undefined);
      }
      return decide(this.policy, lease.tokens + lease.sharedLeft, true);
    }
    return this.takeLeased(key);
  }

  private async takeLeased(key: string): Promise<Decision> {
    let lease = this.leases.get(key);
    if (!lease) {
      lease = { tokens: 0, takenAt: 0, sharedLeft: this.policy.burst, waiting: 0 };
      this.leases.set(key, lease);
    }
    lease.waiting += 1;
    try {
      for (;;) {
        if (lease.pending) {
          await lease.pending;
          continue;
        }
        if (this.now() - lease.takenAt >= LEASE_LIFETIME_MS) lease.tokens = 0;
        if (lease.tokens >= 1) {
          lease.tokens -= 1;
          return decide(this.policy, lease.tokens + lease.sharedLeft, true);
        }
        const granted = await this.refill(key, lease);
        if (granted === 0) return decide(this.policy, lease.sharedLeft, false);
      }
    } finally {
      lease.waiting -= 1;
    }
  }

  /** Takes a lease from the shared bucket and adds it to what is left of this one, if that is still alive. */
  private async refill(key: string, lease: Lease): Promise<number> {
    let granted = 0;
    const want = Math.min(this.policy.burst, Math.max(this.leaseSize, lease.waiting));
    lease.pending = this.buckets
      .take(key, want, this.policy.perSecond, this.policy.burst)
      .then((taken) => {
        granted = taken.granted;
        const now = this.now();
        const alive = now - lease.takenAt < LEASE_LIFETIME_MS ? lease.tokens : 0;
        lease.tokens = alive + granted;
        lease.takenAt = now;
        lease.sharedLeft = taken.left;
      })
      .finally(() => {
        lease.pending = undefined;
      });
    await lease.pending;
    return granted;
  }
}
