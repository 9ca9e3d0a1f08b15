/**
 * The storage layer's contract. Handlers and domain code only see these interfaces; the repositories in
 * src/store/sql implement them once over a dialect, with what differs in src/store/sqlite (the embedded
 * default) and src/store/postgres, and the store contract tests (test/store) hold both engines to every
 * guarantee written here. Every tenant-owned read takes the tenant id and filters by it. A method that
 * writes more than one row does it in one transaction: all or nothing. A method that reads more than one
 * figure (the dashboard's sums) reads them from one snapshot; a list page and its total may be read apart.
 */

/**
 * The engine could not do the work for a reason that says nothing about the request: unreachable, going
 * away, a statement past its time limit, or a conflict that retrying did not resolve. Callers answer 503.
 */
export class StoreUnavailableError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
    this.name = 'StoreUnavailableError';
  }
}

// the rows the contract shows, and their views, live in src/records: the store writes their stored copies
export type { RunErrorCode, RunJson, RunOptions, RunRow, RunStatus, RunTarget } from '../records/run.js';
export type {
  LedgerEntry,
  TransactionJson,
  TransactionSource,
  TransactionType,
} from '../records/transaction.js';
export type { EventDataJson, EventJson, EventType } from '../records/event.js';
export type { JsonText } from '../records/json-text.js';

// each domain's rows, repository and errors
export * from './repos/tenants.js';
export * from './repos/uploads.js';
export * from './repos/runs.js';
export * from './repos/ledger.js';
export * from './repos/idempotency.js';
export * from './repos/rate-buckets.js';
export * from './repos/events.js';
export * from './repos/webhooks.js';
export * from './repos/unit-of-work.js';
export * from './repos/platform.js';
export * from './repos/offboarding.js';
import type { TenantRepo } from './repos/tenants.js';
import type { UploadRepo } from './repos/uploads.js';
import type { RunRepo } from './repos/runs.js';
import type { LedgerRepo } from './repos/ledger.js';
import type { IdempotencyRepo } from './repos/idempotency.js';
import type { RateBucketRepo } from './repos/rate-buckets.js';
import type { EventRepo } from './repos/events.js';
import type { WebhookRepo } from './repos/webhooks.js';
import type { UnitsOfWork } from './repos/unit-of-work.js';
import type { PlatformRepo } from './repos/platform.js';
import type { OffboardingRepo } from './repos/offboarding.js';

/** The repositories for reads and for the queues' own steps; a tenant's changes go through `transaction`. */
export interface Store extends UnitsOfWork {
  tenants: TenantRepo;
  platform: PlatformRepo;
  offboarding: OffboardingRepo;
  events: EventRepo;
  webhooks: WebhookRepo;
  uploads: UploadRepo;
  runs: RunRepo;
  ledger: LedgerRepo;
  idempotency: IdempotencyRepo;
  /** Shared rate limit buckets; null for an engine that one process serves (its limiter is in memory). */
  rateBuckets: RateBucketRepo | null;
  ping(): Promise<void>;
  /**
   * Housekeeping that keeps reads fast; changes no figure any read returns. Safe to call from many processes
   * at once; servers call it every few seconds.
   */
  maintain(): Promise<void>;
  close(): Promise<void>;
}
