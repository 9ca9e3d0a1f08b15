import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Schemas } from '../contract/schemas.js';
import { type BlobStore, BlobUnavailableError } from '../blobs/blob-store.js';
import { DiskFullError } from '../kernel/errors.js';
import type { Logger } from '../kernel/logger.js';
import { auditRow, type ChangeOrigin, OPERATOR } from '../platform/audit.js';
import { type AuditRow, type Store, StoreUnavailableError, type TenantExportRow } from '../store/types.js';
import { type Tenants, TenantNotFound } from '../tenants/service.js';
import type { Clock } from '../kernel/time.js';
import { writeArchive } from './archive.js';

/** How long a claim on an export holds without a word from its process; renewed as entries are written. */
export const EXPORT_LEASE_MS = 60_000;
/** Progress is written at most this often (and renews the lease). */
const PROGRESS_EVERY_MS = 1_000;

export class ExportNotFound extends Error {}

export class ExportInProgress extends Error {
  constructor(readonly exportId: string) {
    super(`export ${exportId} is queued or running`);
  }
}

export class ExportNotReady extends Error {
  constructor(readonly status: string) {
    super(`the export is ${status}`);
  }
}

/** The process no longer holds the export (its lease ran out and another took it), or is stopping. */
class LeaseLost extends Error {}

/**
 * Where one build of an export writes its archive: a build of its own key, so a process that lost its lease
 * and writes on never replaces the archive another build recorded.
 */
export const exportKey = (tenantId: string, exportId: string, build: string) =>
  `exports/${tenantId}/${exportId}/${build}.tar`;

/** An export as the admin API shows it (AdminTenantExport in openapi.yaml). */
export function exportView(row: TenantExportRow): Schemas['AdminTenantExport'] {
  const total = row.entries_total;
  const progress =
    row.status === 'succeeded'
      ? 100
      : total === null || total === 0
        ? 0
        : Math.min(99, Math.floor((row.entries_done * 100) / total));
  return {
    export_id: row.id,
    tenant_id: row.tenant_id,
    status: row.status,
    progress,
    entries_done: row.entries_done,
    entries_total: total,
    size_bytes: row.size_bytes,
    sha256: row.sha256,
    error:
      row.error_code === null
        ? null
        : {
            code: row.error_code as NonNullable<Schemas['AdminTenantExport']['error']>['code'],
            message: row.error_message ?? '',
          },
    created_at: row.created_at,
    started_at: row.started_at,
    completed_at: row.completed_at,
  };
}

/** Why an export failed, as its `error.code` says it. */
function failureOf(error: unknown): { code: string; message: string } {
  if (error instanceof DiskFullError) return { code: 'storage_full', message: 'The storage is full' };
  if (error instanceof BlobUnavailableError || error instanceof StoreUnavailableError)
    return { code: 'unavailable', message: 'The database or the object store could not answer' };
  return { code: 'internal_error', message: 'The export failed; the server logged why' };
}

/**
 * A tenant's exports: queued by the admin API, built in the background by whichever API process claims
 * one (a lease, so a process that dies hands it on), downloaded once they have succeeded.
 */
export class TenantExports {
  /** Wakes this process's builder when it queued an export itself. */
  private wake: (() => void) | undefined;

  constructor(
    private readonly store: Store,
    private readonly blobs: BlobStore,
    private readonly tenants: Tenants,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly onAudit?: (row: AuditRow) => void,
  ) {}

  onQueued(wake: () => void): void {
    this.wake = wake;
  }

  async create(tenantId: string, origin: ChangeOrigin = { actor: OPERATOR }): Promise<TenantExportRow> {
    const now = this.clock.now().toISOString();
    const id = randomUUID();
    const row: TenantExportRow = {
      id,
      tenant_id: tenantId,
      status: 'queued',
      entries_done: 0,
      entries_total: null,
      size_bytes: null,
      sha256: null,
      storage_key: exportKey(tenantId, id, 'pending'),
      error_code: null,
      error_message: null,
      lease_owner: null,
      lease_until: null,
      created_at: now,
      started_at: null,
      completed_at: null,
    };
    await this.store.platform.change(async (tx) => {
      // the tenant's row held: two creations at once cannot both find no open export
      if (!(await tx.tenants.lock(tenantId))) throw new TenantNotFound(tenantId);
      const open = await tx.openExport(tenantId);
      if (open) throw new ExportInProgress(open.id);
      await tx.createExport(row);
      const audit = auditRow(origin.actor, 'tenant.exported', now, tenantId, id);
      await tx.audit(audit);
      tx.afterCommit(() => this.onAudit?.(audit));
      await tx.recordEffect(id);
    }, origin.effect);
    this.wake?.();
    return row;
  }

  async get(tenantId: string, exportId: string): Promise<TenantExportRow> {
    const row = await this.store.offboarding.getExport(tenantId, exportId);
    if (!row) throw new ExportNotFound(`no export ${exportId}`);
    return row;
  }

  /** The archive of a succeeded export, opened before anything is answered. */
  async openArchive(
    tenantId: string,
    exportId: string,
  ): Promise<{ stream: Readable; size: number; sha256: string }> {
    const row = await this.get(tenantId, exportId);
    if (row.status !== 'succeeded' || row.sha256 === null) throw new ExportNotReady(row.status);
    const opened = await this.blobs.open(row.storage_key);
    return { ...opened, sha256: row.sha256 };
  }

  /**
   * Builds the oldest export waiting, if any, as `owner`: true when there was one (the caller looks for the
   * next at once). Once `stopping` says so, the build stops at its next entry and leaves the export to its
   * lease: another process (or this one, started again) takes it up once the lease has run out.
   */
  async buildNext(owner: string, stopping: () => boolean = () => false): Promise<boolean> {
    const now = () => this.clock.now();
    const leaseUntil = () => new Date(now().getTime() + EXPORT_LEASE_MS).toISOString();
    const claimed = await this.store.offboarding.claimExport(owner, now().toISOString(), leaseUntil());
    if (!claimed) return false;
    const tenant = await this.store.tenants.get(claimed.tenant_id);
    let lastWritten = 0;
    const key = exportKey(claimed.tenant_id, claimed.id, randomUUID());
    try {
      if (!tenant) throw new TenantNotFound(claimed.tenant_id);
      const written = await writeArchive(
        {
          store: this.store,
          blobs: this.blobs,
          listTokens: (tenantId) => this.tenants.listTokens(tenantId),
          now: () => now().toISOString(),
        },
        tenant,
        claimed.id,
        key,
        async (progress) => {
          if (stopping()) throw new LeaseLost();
          const at = now().getTime();
          if (at - lastWritten < PROGRESS_EVERY_MS && progress.done < progress.total) return;
          lastWritten = at;
          if (!(await this.store.offboarding.exportProgress(claimed.id, owner, progress, leaseUntil())))
            throw new LeaseLost();
        },
      );
      const finished = await this.store.offboarding.finishExport(claimed.id, owner, {
        status: 'succeeded',
        size_bytes: written.size,
        sha256: written.sha256,
        entries: written.entries,
        storage_key: key,
        at: now().toISOString(),
      });
      if (!finished) await this.blobs.delete(key).catch(() => undefined);
    } catch (error) {
      await this.blobs.delete(key).catch(() => undefined);
      if (error instanceof LeaseLost) return true;
      const failure = failureOf(error);
      this.logger.error({ err: error, export_id: claimed.id, tenant_id: claimed.tenant_id }, 'export failed');
      await this.store.offboarding
        .finishExport(claimed.id, owner, {
          status: 'failed',
          error_code: failure.code,
          error_message: failure.message,
          at: now().toISOString(),
        })
        .catch(() => undefined);
    }
    return true;
  }
}
