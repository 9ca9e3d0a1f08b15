import type { JsonText } from '../records/json-text.js';
import { RUN_VIEW_VERSION, runJson, type RunRow } from '../records/run.js';
import { type LedgerEntry, TRANSACTION_VIEW_VERSION, transactionJson } from '../records/transaction.js';
import { RUN_COLUMNS } from './sql/run-rules.js';

/**
 * The tables that keep each row's contract JSON beside its columns (`record`), with the version of the view
 * that wrote it (`record_view`). Each engine rewrites, at start, the copies an older view wrote: a view's
 * change raises its version and needs no migration.
 */
export interface StoredView<Row> {
  /** Its row in `stored_views`, which holds the version every copy is written by. */
  name: string;
  table: 'runs' | 'ledger';
  columns: readonly string[];
  version: number;
  render: (row: Row) => JsonText;
}

const LEDGER_COLUMNS = [
  'id',
  'tenant_id',
  'type',
  'amount',
  'currency',
  'description',
  'source',
  'run_id',
  'external_id',
  'occurred_at',
  'created_at',
] as const satisfies readonly (keyof LedgerEntry)[];

export const RUN_VIEW: StoredView<RunRow> = {
  name: 'run',
  table: 'runs',
  columns: RUN_COLUMNS,
  version: RUN_VIEW_VERSION,
  render: runJson,
};

export const TRANSACTION_VIEW: StoredView<LedgerEntry> = {
  name: 'transaction',
  table: 'ledger',
  columns: LEDGER_COLUMNS,
  version: TRANSACTION_VIEW_VERSION,
  render: transactionJson,
};

/** Copies rewritten per transaction: short enough not to hold the writer long. */
export const REFRESH_BATCH = 500;
