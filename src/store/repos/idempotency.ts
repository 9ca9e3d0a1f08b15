import type { HeldKey } from '../held-key.js';

/** Idempotency keys: the answer kept for retries, and the effect recorded with it. Part of the storage layer's contract (../types.ts). */

/** The answer given to the first request with an idempotency key, replayed to its retries. */
export interface StoredAnswer {
  status: number;
  /** The headers that matter to a client (Location, Retry-After, Content-Type). */
  headers: Record<string, string>;
  body: string;
}

/** What a request with an idempotency key finds when it claims the key. */
export type KeyClaim =
  /**
   * The key is now this request's to execute under. `resourceId` is set when an earlier holder died after
   * committing its effect (the resource it made or changed) but before storing its answer.
   */
  | { outcome: 'claimed'; resourceId: string | null }
  | { outcome: 'replay'; answer: StoredAnswer }
  /** The key was used with a different request (method, route or body). */
  | { outcome: 'mismatch' }
  /** Another request holds the key until `lockedUntil`. */
  | { outcome: 'in_use'; lockedUntil: string };

/**
 * Idempotency keys, per tenant. A key is claimed under a lock that its holder renews while it executes; the
 * effect is recorded on the key in the effect's own transaction (see held-key.ts), and the answer after.
 */
export interface IdempotencyRepo {
  /**
   * Claims `held.key` for a request whose fingerprint is `fingerprint`: a new key (or one past its expiry)
   * is inserted; a key whose holder's lock ran out is taken over with `held.token`.
   */
  claim(
    held: HeldKey,
    fingerprint: string,
    now: string,
    lockedUntil: string,
    expiresAt: string,
  ): Promise<KeyClaim>;
  /** Extends the holder's lock; false when the key is no longer `held.token`'s. */
  renew(held: HeldKey, lockedUntil: string): Promise<boolean>;
  /** Stores the answer to replay, if `held.token` still holds the key. */
  saveAnswer(held: HeldKey, answer: StoredAnswer): Promise<boolean>;
  /**
   * Gives the key up without an answer: deleted when no effect was recorded on it (a retry executes
   * again), else unlocked at `now` (a retry answers from the effect).
   */
  release(held: HeldKey, now: string): Promise<void>;
  /** Deletes up to `limit` keys whose expiry is before `now`; returns how many. */
  sweep(now: string, limit: number): Promise<number>;
}
