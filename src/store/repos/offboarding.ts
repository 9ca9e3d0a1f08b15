/**
 * A tenant's way out: the exports of everything it owns, and its erasure once its grace period after a
 * deletion is over. Part of the storage layer's contract (../types.ts).
 */

export type ExportStatus = 'queued' | 'running' | 'succeeded' | 'failed';

export interface TenantExportRow {
  id: string;
  tenant_id: string;
  status: ExportStatus;
  entries_done: number;
  /** null until the export has counted what it will write */
  entries_total: number | null;
  size_bytes: number | null;
  sha256: string | null;
  /** where the archive is in the blob store, once the export has succeeded */
  storage_key: string;
  error_code: string | null;
  error_message: string | null;
  /** the process building it, and until when its claim holds without a word from it */
  lease_owner: string | null;
  lease_until: string | null;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
}

/** How an export ended, written once by the process that holds it. */
export type ExportOutcome =
  | {
      status: 'succeeded';
      size_bytes: number;
      sha256: string;
      entries: number;
      /** where this build wrote the archive */
      storage_key: string;
      at: string;
    }
  | { status: 'failed'; error_code: string; error_message: string; at: string };

/** The kinds of records an export reads page by page (a tenant's tokens and endpoints are few: listed whole). */
export type RecordKind = 'uploads' | 'files' | 'runs' | 'transactions' | 'events' | 'webhook_attempts';

/**
 * A page of one kind of a tenant's records: rows as the tables hold them, or the stored JSON text of the
 * kinds the store keeps as the API shows them (`record`: runs, transactions, events); `next`: the cursor
 * after the page's last row, null when the kind has no more.
 */
export interface RecordPage {
  rows: Record<string, unknown>[];
  next: string | null;
}

export interface OffboardingRepo {
  getExport(tenantId: string, exportId: string): Promise<TenantExportRow | undefined>;
  /**
   * Takes the oldest export that is queued, or running under a lease that ran out by `now`, for `owner`
   * until `leaseUntil`; undefined when there is none.
   */
  claimExport(owner: string, now: string, leaseUntil: string): Promise<TenantExportRow | undefined>;
  /** Notes the progress and extends the lease; false when `owner` no longer holds the export. */
  exportProgress(
    exportId: string,
    owner: string,
    progress: { done: number; total: number },
    leaseUntil: string,
  ): Promise<boolean>;
  /** Ends the export as `outcome` says; false when `owner` no longer holds it. */
  finishExport(exportId: string, owner: string, outcome: ExportOutcome): Promise<boolean>;
  /** How many records of `kind` the tenant has. */
  countRecords(tenantId: string, kind: RecordKind): Promise<number>;
  /** Up to `limit` records of `kind` after `cursor` (null: from the first). */
  recordPage(tenantId: string, kind: RecordKind, cursor: string | null, limit: number): Promise<RecordPage>;
  /**
   * Tenants whose grace period ended by `now`, up to `limit`; not one with a run still running (its worker
   * would write outputs and a booking after the erasure): it is due once the run has ended.
   */
  dueErasures(now: string, limit: number): Promise<string[]>;
  /** The tenant's rows per table that has a tenant_id column (a table of none: 0), the catalog's list. */
  footprint(tenantId: string): Promise<Record<string, number>>;
}
