import {
  type DailySums,
  type TransactionJson,
  type LedgerEntry,
  type LedgerFilter,
  LedgerRangeError,
  type LedgerRepo,
  type PeriodSums,
} from '../types.js';
import { dayStart, nextDayStart } from '../ledger-days.js';
import { TRANSACTION_VIEW_VERSION, transactionJson } from '../../records/transaction.js';
import type { Postgres, Queryable } from './database.js';

/**
 * Inserts one ledger row and adds it to the daily and all-time sums, inside the caller's transaction
 * (a LedgerRangeError rolls it back); false when the row was there already (same id, external id or queue
 * entry).
 */
export async function writeLedger(
  tx: Queryable,
  entry: LedgerEntry,
  queueMessageId: string | null = null,
): Promise<boolean> {
  const inserted = await tx.query(
    `INSERT INTO ledger (id, tenant_id, type, amount, currency, description, source, run_id, queue_message_id,
       external_id, occurred_at, created_at, record, record_view)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, ${TRANSACTION_VIEW_VERSION})
     ON CONFLICT DO NOTHING RETURNING id`,
    [
      entry.id,
      entry.tenant_id,
      entry.type,
      entry.amount,
      entry.currency,
      entry.description,
      entry.source,
      entry.run_id,
      queueMessageId,
      entry.external_id,
      entry.occurred_at,
      entry.created_at,
      transactionJson(entry),
    ],
  );
  if (inserted.rows.length === 0) return false;
  const {
    rows: [range],
  } = await tx.query<{ past: boolean }>(
    `WITH d AS (
       INSERT INTO ledger_daily (tenant_id, day, type, amount, tx_count) VALUES ($1, $2, $3, $4, 1)
       ON CONFLICT (tenant_id, day, type) DO UPDATE SET amount = ledger_daily.amount + excluded.amount,
         tx_count = ledger_daily.tx_count + 1),
     t AS (
       INSERT INTO ledger_totals (tenant_id, type, amount, abs_amount, tx_count) VALUES ($1, $3, $4, abs($4::bigint), 1)
       ON CONFLICT (tenant_id, type) DO UPDATE SET amount = ledger_totals.amount + excluded.amount,
         abs_amount = ledger_totals.abs_amount + excluded.abs_amount, tx_count = ledger_totals.tx_count + 1
       RETURNING abs_amount)
     -- the other type's row as committed, plus this type's row as just written
     SELECT (SELECT abs_amount FROM t) + COALESCE((SELECT abs_amount FROM ledger_totals
       WHERE tenant_id = $1 AND type <> $3), 0) > ${Number.MAX_SAFE_INTEGER} AS past`,
    [entry.tenant_id, entry.occurred_at.slice(0, 10), entry.type, entry.amount],
  );
  // every sum the API shows is at most the sum of |amount|: past 2^53 - 1 a total would lose precision
  if (range!.past) throw new LedgerRangeError(entry.tenant_id);
  return true;
}

export function postgresLedger(db: Postgres): LedgerRepo {
  return {
    async append(entries) {
      return db.transaction(async (tx) => {
        let inserted = 0;
        for (const entry of entries) if (await writeLedger(tx, entry)) inserted++;
        return { inserted, skipped: entries.length - inserted };
      });
    },
    async list(tenantId, filter: LedgerFilter, limit, offset) {
      const values: unknown[] = [tenantId, limit, offset];
      const param = (value: unknown) => `$${values.push(value)}`;
      const where = ['tenant_id = $1'];
      const dayWhere = ['tenant_id = $1'];
      if (filter.type) {
        const type = param(filter.type);
        where.push(`type = ${type}`);
        dayWhere.push(`type = ${type}`);
      }
      if (filter.startDate) {
        where.push(`occurred_at >= ${param(dayStart(filter.startDate))}`);
        dayWhere.push(`day >= ${param(filter.startDate)}`);
      }
      if (filter.endDate) {
        where.push(`occurred_at < ${param(nextDayStart(filter.endDate))}`);
        dayWhere.push(`day <= ${param(filter.endDate)}`);
      }
      // the count comes from the daily sums, or without a date bound from the all-time totals; the page and
      // its total are one statement, so one snapshot
      const counted = filter.startDate || filter.endDate ? 'ledger_daily' : 'ledger_totals';
      const rows = await db.query<{ n: number; record: TransactionJson | null }>(
        // skipped rows are index entries only: records are built for the page's rows alone
        `WITH page AS (
           SELECT record, occurred_at, id FROM ledger WHERE id = ANY (ARRAY(
             SELECT id FROM ledger WHERE ${where.join(' AND ')} ORDER BY occurred_at DESC, id DESC LIMIT $2 OFFSET $3))),
         total AS (SELECT COALESCE(SUM(tx_count), 0)::bigint AS n FROM ${counted} WHERE ${dayWhere.join(' AND ')})
         SELECT total.n, page.record FROM total LEFT JOIN page ON true ORDER BY page.occurred_at DESC, page.id DESC`,
        values,
        `ledger.list.${!!filter.type}${!!filter.startDate}${!!filter.endDate}`,
      );
      return { items: rows.flatMap((r) => (r.record === null ? [] : [r.record])), total: rows[0]?.n ?? 0 };
    },
    async overview(tenantId, fromDay, toDay) {
      // one statement: one snapshot, one round trip
      const rows = await db.query<{
        kind: 'all' | 'day' | 'latest';
        key: string | null;
        tech: number;
        ecosystem: number;
        count: number;
      }>(
        `SELECT 'all' AS kind, NULL AS key,
           COALESCE(SUM(amount) FILTER (WHERE type = 'tech'), 0)::bigint AS tech,
           COALESCE(SUM(amount) FILTER (WHERE type = 'ecosystem'), 0)::bigint AS ecosystem,
           COALESCE(SUM(tx_count), 0)::bigint AS count
         FROM ledger_totals WHERE tenant_id = $1
         UNION ALL
         SELECT 'day', day, COALESCE(SUM(amount) FILTER (WHERE type = 'tech'), 0)::bigint,
           COALESCE(SUM(amount) FILTER (WHERE type = 'ecosystem'), 0)::bigint, 0
         FROM ledger_daily WHERE tenant_id = $1 AND day >= $2 AND day <= $3 GROUP BY day
         UNION ALL
         SELECT 'latest', (SELECT occurred_at FROM ledger WHERE tenant_id = $1 ORDER BY occurred_at DESC, id DESC LIMIT 1),
           0, 0, 0`,
        [tenantId, fromDay, toDay],
        'ledger.overview',
      );
      let allTime: PeriodSums = { tech: 0, ecosystem: 0 };
      const daily: DailySums[] = [];
      let count = 0;
      let latestOccurredAt: string | null = null;
      for (const row of rows) {
        if (row.kind === 'all') {
          allTime = { tech: row.tech, ecosystem: row.ecosystem };
          count = row.count;
        } else if (row.kind === 'day')
          daily.push({ day: row.key!, tech: row.tech, ecosystem: row.ecosystem });
        else latestOccurredAt = row.key;
      }
      daily.sort((a, b) => (a.day < b.day ? -1 : 1));
      return { allTime, daily, count, latestOccurredAt };
    },
  };
}
