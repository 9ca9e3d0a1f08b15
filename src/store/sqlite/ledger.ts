import { type LedgerEntry, LedgerRangeError } from '../types.js';
import { TRANSACTION_VIEW_VERSION, transactionJson } from '../../records/transaction.js';
import type { Db } from './database.js';

/**
 * Inserts one ledger row and adds it to the daily sums; must run inside the caller's synchronous
 * transaction (a LedgerRangeError rolls it back). The SQLite run repository's, until it is written over the
 * dialect: everything else writes the ledger through ../sql/ledger.ts.
 */
export type LedgerWriter = (entry: LedgerEntry, queueMessageId?: string | null) => boolean;

export function ledgerWriter(db: Db): LedgerWriter {
  const insert = db.prepare(
    `INSERT INTO ledger (id, tenant_id, type, amount, currency, description, source, run_id, queue_message_id,
       external_id, occurred_at, created_at, record, record_view)
     VALUES (@id, @tenant_id, @type, @amount, @currency, @description, @source, @run_id, @queue_message_id,
       @external_id, @occurred_at, @created_at, @record, ${TRANSACTION_VIEW_VERSION})
     ON CONFLICT DO NOTHING`,
  );
  const addDaily = db.prepare(
    `INSERT INTO ledger_daily (tenant_id, day, type, amount, tx_count) VALUES (?, ?, ?, ?, 1)
     ON CONFLICT (tenant_id, day, type) DO UPDATE SET amount = amount + excluded.amount, tx_count = tx_count + 1`,
  );
  const addTotal = db.prepare(
    `INSERT INTO ledger_totals (tenant_id, type, amount, abs_amount, tx_count) VALUES (?, ?, ?, ABS(?), 1)
     ON CONFLICT (tenant_id, type) DO UPDATE SET amount = amount + excluded.amount,
       abs_amount = abs_amount + excluded.abs_amount, tx_count = tx_count + 1`,
  );
  const pastSafeRange = db
    .prepare(
      `SELECT COALESCE(SUM(abs_amount), 0) > ${Number.MAX_SAFE_INTEGER} FROM ledger_totals WHERE tenant_id = ?`,
    )
    .pluck();
  return (entry, queueMessageId = null) => {
    const inserted =
      insert.run({ ...entry, queue_message_id: queueMessageId, record: transactionJson(entry) }).changes ===
      1;
    if (inserted) {
      addDaily.run(entry.tenant_id, entry.occurred_at.slice(0, 10), entry.type, entry.amount);
      addTotal.run(entry.tenant_id, entry.type, entry.amount, entry.amount);
      // every sum the API shows is at most the sum of |amount|: past 2^53 - 1 a total would lose precision
      if (pastSafeRange.get(entry.tenant_id) === 1) throw new LedgerRangeError(entry.tenant_id);
    }
    return inserted;
  };
}
