import type { BlobStore } from '../blobs/blob-store.js';
import type { Store, UploadRow } from '../store/types.js';
import type { Clock } from '../kernel/time.js';
import { fileKey, multipartOf, ownerOfKey } from './keys.js';
import type { UploadLock } from './upload-lock.js';

/** The bytes of an upload that will never complete (and a file a failed completion may have left). */
export async function discardBytes(blobs: BlobStore, upload: UploadRow): Promise<void> {
  await blobs.multipart.abort(multipartOf(upload));
  await blobs.delete(fileKey(upload));
}

/** What expiry and crashes leave of uploads, removed in the background (the runtime's sweep job). */
export class UploadSweep {
  constructor(
    private readonly store: Store,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
    private readonly locks: UploadLock,
  ) {}

  /** Deletes pending uploads past their expiry, bytes first; returns how many went. */
  async expired(batch = 100): Promise<number> {
    const expired = await this.store.uploads.expired(this.clock.now().toISOString(), batch);
    for (const upload of expired) {
      await this.locks.run(upload.id, async () => {
        if (await this.store.uploads.deletePending(upload.tenant_id, upload.id))
          await discardBytes(this.blobs, upload);
      });
    }
    return expired.length;
  }

  /**
   * Removes what a crash (kill -9, power loss) left behind and no row refers to: temporary files, an
   * assembled file whose row was never committed, the parts of an upload whose row is gone. Only things
   * older than `minAgeMs` go, so a write in progress in another process is never touched.
   */
  async leftovers(minAgeMs: number): Promise<number> {
    const before = this.clock.now().getTime() - minAgeMs;
    let removed = await this.blobs.sweepLeftovers(before, (key) => this.stillReferenced(key));
    // multipart uploads that were started but whose row never committed, or that a crash left behind
    for await (const open of this.blobs.multipart.listOpen('files')) {
      if (open.startedAt > before) continue;
      const owner = ownerOfKey(open.key);
      const upload = owner && (await this.store.uploads.get(owner.tenantId, owner.uploadId));
      if (!upload || upload.status !== 'pending' || upload.multipart_id !== open.id) {
        await this.blobs.multipart.abort(open);
        removed++;
      }
    }
    return removed;
  }

  /**
   * Whether a record still names the blob: a file, or the upload it is becoming. Keys not of uploads (run
   * outputs) are always kept; so are keys under `uploads/`, where the local engine kept a pending upload's
   * parts before 2026-11-27, while that upload is pending.
   */
  private async stillReferenced(key: string): Promise<boolean> {
    const owner = ownerOfKey(key);
    if (!owner || (owner.kind !== 'files' && owner.kind !== 'uploads')) return true;
    if (owner.kind === 'files') {
      if (await this.store.uploads.getFile(owner.tenantId, owner.uploadId)) return true;
      return (await this.store.uploads.get(owner.tenantId, owner.uploadId)) !== undefined;
    }
    const upload = await this.store.uploads.get(owner.tenantId, owner.uploadId);
    return upload?.status === 'pending';
  }
}
