import { randomUUID } from 'node:crypto';
import type { Config } from '../kernel/config.js';
import type { HeldKey } from '../store/held-key.js';
import { type SweepPass, sweepInBatches } from '../store/sweep.js';
import type { KeyClaim, Store, StoredAnswer } from '../store/types.js';
import type { Clock } from '../kernel/time.js';

/**
 * A key claimed by the request that executes under it, from claim to `keep()` or `release()`. The lock is
 * renewed every third of `IDEMPOTENCY_LOCK_SECONDS`; a renewal that finds the key taken over (or fails past
 * the lock's end) marks the lease lost. The work is not interrupted: the effect it may still commit is fenced by the
 * key's token and rolls back (HeldKeyLostError), and the request then answers 409 instead of an answer
 * that is no longer its own. Stopping earlier would only save the work of one transaction.
 */
export class KeyLease {
  readonly held: HeldKey;
  private lost = false;
  private readonly renewal: NodeJS.Timeout;
  private renewedUntil: number;

  constructor(
    private readonly keys: IdempotencyKeys,
    held: HeldKey,
  ) {
    this.held = held;
    this.renewedUntil = keys.lockEnd();
    this.renewal = setInterval(() => void this.renew(), keys.lockMs / 3);
    this.renewal.unref();
  }

  /** The key is no longer this request's. */
  get isLost(): boolean {
    return this.lost;
  }

  private async renew(): Promise<void> {
    const until = this.keys.lockEnd();
    try {
      if (await this.keys.store.idempotency.renew(this.held, new Date(until).toISOString()))
        this.renewedUntil = until;
      else this.lose();
    } catch {
      // a database hiccup: the lock still holds until renewedUntil, and the next renewal may succeed
      if (this.keys.clock.now().getTime() >= this.renewedUntil) this.lose();
    }
  }

  private lose(): void {
    clearInterval(this.renewal);
    this.lost = true;
  }

  /** Keeps the answer for retries. */
  async keep(answer: StoredAnswer): Promise<void> {
    this.stop();
    await this.keys.store.idempotency.saveAnswer(this.held, answer);
  }

  /** Gives the key up without an answer: a retry executes again (or answers from a recorded effect). */
  async release(): Promise<void> {
    this.stop();
    await this.keys.store.idempotency.release(this.held, this.keys.clock.now().toISOString());
  }

  stop(): void {
    clearInterval(this.renewal);
  }
}

export type KeyOutcome =
  | Exclude<KeyClaim, { outcome: 'claimed' }>
  | { outcome: 'claimed'; resourceId: string | null; lease: KeyLease };

/** Idempotency keys as a capability: claim, lock, keep or release, sweep. */
export class IdempotencyKeys {
  readonly lockMs: number;

  constructor(
    readonly store: Store,
    readonly clock: Clock,
    private readonly config: Pick<Config, 'idempotencyLockMs' | 'idempotencyKeyTtlMs'>,
  ) {
    this.lockMs = config.idempotencyLockMs;
  }

  lockEnd(): number {
    return this.clock.now().getTime() + this.lockMs;
  }

  /** Claims the tenant's key for a request with this fingerprint; the caller must end a claimed lease. */
  async claim(tenantId: string, key: string, fingerprint: string): Promise<KeyOutcome> {
    const held: HeldKey = { tenantId, key, token: randomUUID() };
    const now = this.clock.now().getTime();
    const iso = (ms: number) => new Date(ms).toISOString();
    const claim = await this.store.idempotency.claim(
      held,
      fingerprint,
      iso(now),
      iso(now + this.lockMs),
      iso(now + this.config.idempotencyKeyTtlMs),
    );
    if (claim.outcome !== 'claimed') return claim;
    return { outcome: 'claimed', resourceId: claim.resourceId, lease: new KeyLease(this, held) };
  }

  /** Deletes keys past IDEMPOTENCY_KEY_TTL_SECONDS, batch after batch within the pass's budget. */
  sweepExpired(pass: SweepPass): Promise<number> {
    const now = this.clock.now().toISOString();
    return sweepInBatches((limit) => this.store.idempotency.sweep(now, limit), pass);
  }
}
