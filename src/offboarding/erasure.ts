import type { BlobStore } from '../blobs/blob-store.js';
import { auditRow, OPERATOR } from '../platform/audit.js';
import type { AuditRow, Store } from '../store/types.js';
import type { Clock } from '../kernel/time.js';

/**
 * The blob prefixes (folders, as the blob store names them: no trailing slash) a tenant's bytes live under:
 * its files and their multipart uploads, run outputs and exports.
 */
export const tenantBlobPrefixes = (tenantId: string) => [
  `files/${tenantId}`,
  `runs/${tenantId}`,
  `exports/${tenantId}`,
];

/**
 * Erases the tenants whose grace period after a deletion is over: first every blob they own (a crash
 * between the two leaves rows that the next pass erases again, never rows naming no blob the API would
 * serve), then every row in one transaction with the audit trail's `tenant.erased`.
 */
export async function eraseDueTenants(
  store: Store,
  blobs: BlobStore,
  clock: Clock,
  onAudit: ((row: AuditRow) => void) | undefined,
  limit = 10,
): Promise<number> {
  let erased = 0;
  for (const tenantId of await store.offboarding.dueErasures(clock.now().toISOString(), limit)) {
    let blobCount = 0;
    for (const prefix of tenantBlobPrefixes(tenantId)) {
      for await (const open of blobs.multipart.listOpen(prefix)) {
        await blobs.multipart.abort(open);
        blobCount += 1;
      }
      for await (const _key of blobs.keys(prefix)) blobCount += 1;
      await blobs.deletePrefix(prefix);
    }
    const at = clock.now().toISOString();
    let row: AuditRow | undefined;
    const done = await store.platform.eraseTenant(tenantId, at, (rows) => {
      row = auditRow(OPERATOR, 'tenant.erased', at, tenantId, tenantId, { rows, blobs: blobCount });
      return row;
    });
    if (done && row) {
      onAudit?.(row);
      erased += 1;
    }
  }
  return erased;
}
