import type { RunStatus } from '../../records/run.js';
import type { LedgerEntry } from '../../records/transaction.js';
import type { HeldKey } from '../held-key.js';
import type { TenantExportRow } from './offboarding.js';
import type { TenantRow, TokenRow, UserRow } from './tenants.js';

/** The platform's side of the store: its admin tokens, and the audit trail of every change it makes. */

export interface AdminTokenRow {
  id: string;
  name: string;
  prefix: string;
  /** The admin scopes as stored (space separated); null: every scope. */
  scopes: string | null;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  revoked_at: string | null;
}

/** Who made a change to tenants or tokens: an admin token over the admin API, or an operator (the admin command line, the server's first start). */
export type Actor = { kind: 'admin_token'; tokenId: string; requestId: string } | { kind: 'operator' };

export type AuditAction =
  | 'tenant.created'
  | 'tenant.updated'
  | 'tenant.suspended'
  | 'tenant.resumed'
  | 'token.issued'
  | 'token.revoked'
  | 'ledger.appended'
  | 'ledger.reversed'
  | 'admin_token.issued'
  | 'admin_token.revoked'
  | 'tenant.deletion_scheduled'
  | 'tenant.erased'
  | 'tenant.exported';

export interface AuditRow {
  id: string;
  at: string;
  /** `admin_token` or `operator` */
  actor: Actor['kind'];
  admin_token_id: string | null;
  action: AuditAction;
  /** the tenant the change is about; null for the platform's own admin tokens */
  tenant_id: string | null;
  /** what the action was on: the tenant, a token, or an admin token */
  target_id: string;
  request_id: string | null;
  /** what changed, as JSON text (never a secret) */
  detail: string | null;
}

export interface AuditPage {
  items: AuditRow[];
  /** The events of the filter, whatever the cursor. */
  total: number;
  /** More events follow the page's last, in its order. */
  more: boolean;
}

/** Which audit events a list keeps: `since` inclusive, `until` exclusive, on `at`. */
export interface AuditFilter {
  tenantId?: string | undefined;
  action?: AuditAction | undefined;
  since?: string | undefined;
  until?: string | undefined;
}

/** A page of the trail in commit order, `desc` newest first; `startingAfter`: an event id the page follows. */
export interface AuditPaging {
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
  startingAfter?: string | undefined;
}

/** The writes of one platform change, in one transaction with its audit row and its idempotency record. */
export interface TenantChanges {
  /** The tenant as it is, its row held by this change until it commits; undefined when there is none. */
  lock(tenantId: string): Promise<TenantRow | undefined>;
  create(tenant: TenantRow, user: UserRow, token: TokenRow, tokenHash: string): Promise<void>;
  /** Renames and reprices; the tenant as it is now, undefined when there is none. */
  update(
    tenantId: string,
    changes: {
      name?: string;
      price_per_point?: number;
      api_version?: string;
      external_id?: string | null;
      /** the whole metadata, as JSON text */
      metadata?: string;
    },
  ): Promise<TenantRow | undefined>;
  /** Suspends (a time) or resumes (null); the tenant as it is now, undefined when there is none. */
  setSuspended(tenantId: string, at: string | null): Promise<TenantRow | undefined>;
  /**
   * Marks the tenant for deletion at `at`, to be erased from `eraseAt`, and suspends it (a suspension before
   * keeps its time); a marked tenant keeps its first marks. The tenant as it is now, undefined when none.
   */
  markForDeletion(tenantId: string, at: string, eraseAt: string): Promise<TenantRow | undefined>;
  /** Takes the marks off while `erase_at` is after `now`: false when its grace period is over. */
  unmarkDeletion(tenantId: string, now: string): Promise<boolean>;
  issueToken(token: TokenRow, tokenHash: string): Promise<void>;
  /**
   * Revokes once (a second revocation keeps the first time): the token as it is now, and whether this call
   * revoked it; undefined when the tenant has no such token.
   */
  revokeToken(
    tenantId: string,
    tokenId: string,
    at: string,
  ): Promise<{ token: TokenRow; revoked: boolean } | undefined>;
}

export interface PlatformUnit {
  readonly tenants: TenantChanges;
  audit(row: AuditRow): Promise<void>;
  /**
   * Books entries in the ledger, each once per (tenant, external_id): per entry, in order, the ledger's entry
   * of its external_id, `entry` itself when this call booked it. LedgerRangeError when the tenant's sum of
   * |amount| would pass 2^53 - 1 (the unit rolls back).
   */
  appendLedger(entries: readonly LedgerEntry[]): Promise<{ entry: LedgerEntry; booked: LedgerEntry }[]>;
  /** One of the tenant's ledger entries by its id. */
  findLedgerEntry(tenantId: string, id: string): Promise<LedgerEntry | undefined>;
  issueAdminToken(row: AdminTokenRow, tokenHash: string): Promise<void>;
  /** Revokes once: the admin token as it is now and whether this call revoked it; undefined when unknown. */
  revokeAdminToken(
    tokenId: string,
    at: string,
  ): Promise<{ token: AdminTokenRow; revoked: boolean } | undefined>;
  /** Queues an export of a tenant's data. */
  createExport(row: TenantExportRow): Promise<void>;
  /** The tenant's export that is queued or running, if any. */
  openExport(tenantId: string): Promise<TenantExportRow | undefined>;
  /** As a tenant's unit's: the effect on the request's idempotency key, committed with the change. */
  recordEffect(resourceId: string): Promise<void>;
  /** Runs `hook` once the change has committed (never when it rolled back). */
  afterCommit(hook: () => void): void;
}

export interface PlatformRepo {
  /**
   * One platform change: its writes, its audit row and its idempotency record commit together. A change to
   * what a token lookup finds (revocation, suspension) empties every process's token cache once committed.
   */
  change<T>(work: (tx: PlatformUnit) => Promise<T>, heldKey?: HeldKey): Promise<T>;
  listAdminTokens(): Promise<AdminTokenRow[]>;
  lookupAdminToken(tokenHash: string): Promise<AdminTokenRow | undefined>;
  touchAdminToken(tokenId: string, at: string): Promise<void>;
  /** Undefined when `startingAfter` is no audit event. */
  listAudit(filter: AuditFilter, paging: AuditPaging): Promise<AuditPage | undefined>;
  /**
   * A tenant's runs created in [from, to) by status and target, the pages of the files its succeeded runs
   * of that period analysed and the points its runs consumed; its files and their bytes as of now.
   */
  usage(tenantId: string, from: string, to: string): Promise<UsageFigures>;
  /**
   * The same by UTC day of [from, to): the runs created each day that has some, and the files created each
   * day before `to`, whenever (a file is never deleted: those created by a day's end are stored at it).
   */
  usageByDay(tenantId: string, from: string, to: string): Promise<UsageDays>;
  /** Up to `limit` tenants by creation after the tenant `startingAfter`; undefined when it is no tenant. */
  tenantsAfter(limit: number, startingAfter?: string): Promise<TenantRow[] | undefined>;
  /** Tenants by creation, a page of them, and how many there are. */
  listTenants(
    limit: number,
    offset: number,
    filter?: { state?: 'active' | 'suspended' | undefined; externalId?: string | undefined },
  ): Promise<{ items: TenantRow[]; total: number }>;
  /** A token by its id, whichever tenant's. */
  getToken(tokenId: string): Promise<TokenRow | undefined>;
  /**
   * Erases every row of the tenant, if its grace period ended by `now`, in one transaction: its audit rows
   * keep their action and lose their detail, and `auditRow` (built from what went) is written. Undefined
   * when the tenant is not due (or is gone: another process erased it).
   */
  eraseTenant(
    tenantId: string,
    now: string,
    auditRow: (rows: number) => AuditRow,
  ): Promise<{ rows: number } | undefined>;
}

export interface UsageFigures {
  runs: { status: RunStatus; target: string; runs: number; points: number; pages: number }[];
  /** The files created before the period's end, and their bytes. */
  files: number;
  bytes: number;
}

export interface UsageDays {
  runs: { day: string; runs: number; points: number; pages: number }[];
  files: { day: string; files: number; bytes: number }[];
}
