import type { PendingLimits, UploadRow } from './types.js';

/**
 * The rules of the upload store that do not depend on the engine: both engines build their SQL from these,
 * so that only the atomic statements themselves differ between them. Placeholders are the engine's own.
 */

/** What a tenant's unexpired pending uploads count and reserve: the figures `judgePendingLimits` reads. */
export function pendingTotalsQuery(tenantId: string, now: string): string {
  return `SELECT COUNT(*) AS count, COALESCE(SUM(size_bytes), 0) AS bytes FROM uploads
    WHERE tenant_id = ${tenantId} AND status = 'pending' AND expires_at >= ${now}`;
}

/** Whether one more pending upload would pass the tenant's limits, and which. */
export function judgePendingLimits(
  totals: { count: number; bytes: number },
  upload: Pick<UploadRow, 'size_bytes'>,
  limits: PendingLimits,
): 'too_many' | 'too_many_bytes' | undefined {
  if (totals.count + 1 > limits.count) return 'too_many';
  if (Number(totals.bytes) + upload.size_bytes > limits.bytes) return 'too_many_bytes';
  return undefined;
}

/** An upload's lease is free to `holder` when nobody holds it, `holder` does, or it ran out by `now`. */
export function leaseIsFree(holder: string, now: string): string {
  return `(lease_holder IS NULL OR lease_holder = ${holder} OR leased_until <= ${now})`;
}
