/** Rate limit buckets shared by every process on the database. Part of the storage layer's contract (../types.ts). */

/** Token buckets every process on the database shares (the rate limiter's; see src/rate-limit/shared.ts). */
export interface RateBucketRepo {
  /**
   * Refills the bucket by the database's clock, then takes up to `want` whole tokens from it: `granted`
   * tokens were taken, `left` stay in it (a fraction included). A new bucket starts full.
   */
  take(
    key: string,
    want: number,
    perSecond: number,
    burst: number,
  ): Promise<{ granted: number; left: number }>;
  /**
   * Puts `tokens` taken by `take` back into the bucket (never past `burst`): a request they were taken for
   * turned out not to count. A bucket pruned meanwhile is full already.
   */
  giveBack(key: string, tokens: number, burst: number): Promise<void>;
  /**
   * Deletes up to `limit` buckets untouched for `fullAfterSeconds` (by then any bucket has refilled, and a
   * full bucket is the same as none); returns how many.
   */
  prune(fullAfterSeconds: number, limit: number): Promise<number>;
}
