import {
  type DailySums,
  type TransactionJson,
  type LedgerEntry,
  type LedgerFilter,
  type LedgerOverview,
  LedgerRangeError,
  type LedgerRepo,
  type PeriodSums,
} from '../types.js';
import { dayStart, nextDayStart } from '../ledger-days.js';
import { TRANSACTION_VIEW_VERSION, transactionJson } from '../../records/transaction.js';
import type { Db } from './database.js';

/**
 * Inserts one ledger row and adds it to the daily sums; must run inside the caller's transaction (a
 * LedgerRangeError rolls it back).
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

export function sqliteLedger(db: Db): LedgerRepo {
  const write = ledgerWriter(db);

  // One statement per filter shape, prepared once: the planner then picks the matching index for each.
  const listStatements = new Map<string, ReturnType<Db['prepare']>>();
  const countStatements = new Map<string, ReturnType<Db['prepare']>>();
  for (const typed of [false, true]) {
    for (const from of [false, true]) {
      for (const to of [false, true]) {
        const key = `${typed}${from}${to}`;
        const where = ['tenant_id = @tenant'];
        // the count comes from the daily sums, or without a date bound from the all-time totals
        const dayWhere = ['tenant_id = @tenant'];
        if (typed) {
          where.push('type = @type');
          dayWhere.push('type = @type');
        }
        if (from) {
          where.push('occurred_at >= @from');
          dayWhere.push('day >= @fromDay');
        }
        if (to) {
          where.push('occurred_at < @to');
          dayWhere.push('day <= @toDay');
        }
        listStatements.set(
          key,
          db
            .prepare(
              `SELECT record FROM ledger WHERE ${where.join(' AND ')}
             ORDER BY occurred_at DESC, id DESC LIMIT @limit OFFSET @offset`,
            )
            .pluck(),
        );
        const counted = from || to ? 'ledger_daily' : 'ledger_totals';
        countStatements.set(
          key,
          db.prepare(
            `SELECT COALESCE(SUM(tx_count), 0) AS n FROM ${counted} WHERE ${dayWhere.join(' AND ')}`,
          ),
        );
      }
    }
  }
  // one row per day, both types summed by SQLite: the dashboard reads ~62 days per request
  const daily = db
    .prepare(
      `SELECT day, COALESCE(SUM(amount) FILTER (WHERE type = 'tech'), 0),
         COALESCE(SUM(amount) FILTER (WHERE type = 'ecosystem'), 0)
       FROM ledger_daily WHERE tenant_id = ? AND day >= ? AND day <= ? GROUP BY day ORDER BY day`,
    )
    .raw();
  const allTime = db.prepare('SELECT type, amount FROM ledger_totals WHERE tenant_id = @tenant');
  const stats = db.prepare(
    `SELECT (SELECT COALESCE(SUM(tx_count), 0) FROM ledger_totals WHERE tenant_id = @tenant) AS count,
            (SELECT occurred_at FROM ledger WHERE tenant_id = @tenant ORDER BY occurred_at DESC, id DESC LIMIT 1) AS latest`,
  );
  // a read transaction: another process's commit cannot fall between the three reads
  const overview = db.transaction((tenantId: string, fromDay: string, toDay: string): LedgerOverview => {
    const result: PeriodSums = { tech: 0, ecosystem: 0 };
    for (const row of allTime.all({ tenant: tenantId }) as { type: 'tech' | 'ecosystem'; amount: number }[]) {
      result[row.type] = row.amount;
    }
    const days = (daily.all(tenantId, fromDay, toDay) as [string, number, number][]).map(
      ([day, tech, ecosystem]): DailySums => ({ day, tech, ecosystem }),
    );
    const row = stats.get({ tenant: tenantId }) as { count: number; latest: string | null };
    return { allTime: result, daily: days, count: row.count, latestOccurredAt: row.latest };
  });
  const append = db.transaction((entries: LedgerEntry[]) => {
    let inserted = 0;
    for (const entry of entries) if (write(entry)) inserted++;
    return { inserted, skipped: entries.length - inserted };
  });

  return {
    async append(entries) {
      return append.immediate(entries);
    },
    async list(tenantId, filter: LedgerFilter, limit, offset) {
      const key = `${filter.type !== undefined}${filter.startDate !== undefined}${filter.endDate !== undefined}`;
      const params = {
        tenant: tenantId,
        type: filter.type,
        from: filter.startDate && dayStart(filter.startDate),
        to: filter.endDate && nextDayStart(filter.endDate),
        fromDay: filter.startDate,
        toDay: filter.endDate,
      };
      const defined = Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined));
      const items = listStatements.get(key)!.all({ ...defined, limit, offset }) as TransactionJson[];
      const { n } = countStatements.get(key)!.get(defined) as { n: number };
      return { items, total: n };
    },
    async overview(tenantId, fromDay, toDay) {
      return overview(tenantId, fromDay, toDay);
    },
  };
}
