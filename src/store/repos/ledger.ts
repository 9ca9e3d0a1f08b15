import type { Schemas } from '../../contract/schemas.js';
import type { JsonText } from '../../records/json-text.js';
import type { LedgerEntry, TransactionType } from '../../records/transaction.js';
import type { Page } from './runs.js';

/** The revenue ledger and its sums. Part of the storage layer's contract (../types.ts). */

export interface LedgerFilter {
  type?: TransactionType;
  /** Inclusive UTC days, YYYY-MM-DD. */
  startDate?: string;
  endDate?: string;
}

export interface PeriodSums {
  tech: number;
  ecosystem: number;
}

export interface DailySums extends PeriodSums {
  day: string;
}

/** Appending would carry a tenant's ledger past the range in which every total stays exact (2^53 - 1). */
export class LedgerRangeError extends Error {
  constructor(readonly tenantId: string) {
    super(`the ledger of tenant ${tenantId} would pass ${Number.MAX_SAFE_INTEGER} minor units in all`);
  }
}

export interface LedgerRepo {
  /**
   * Appends entries all-or-nothing; entries whose external_id the tenant already has are skipped. Throws
   * LedgerRangeError, writing nothing, when the sum of |amount| over the tenant's ledger would pass 2^53 - 1.
   */
  append(entries: LedgerEntry[]): Promise<{ inserted: number; skipped: number }>;
  /** One of the tenant's entries by its id. */
  get(tenantId: string, id: string): Promise<LedgerEntry | undefined>;
  /** A page of the contract's Transaction records, newest first. */
  list(
    tenantId: string,
    filter: LedgerFilter,
    limit: number,
    offset: number,
  ): Promise<Page<JsonText<Schemas['Transaction']>>>;
  /** Everything the dashboard shows, read from one snapshot. */
  overview(tenantId: string, fromDay: string, toDay: string): Promise<LedgerOverview>;
}

export interface LedgerOverview {
  /** The tenant's currency, every entry's; null when there is no such tenant. */
  currency: string | null;
  /** Sums per type over the tenant's whole ledger. */
  allTime: PeriodSums;
  /** Sums per type of each UTC day from `fromDay` to `toDay` inclusive that has entries, oldest first. */
  daily: DailySums[];
  count: number;
  latestOccurredAt: string | null;
}
