import {
  type DailySums,
  type LedgerEntry,
  type LedgerFilter,
  LedgerRangeError,
  type LedgerRepo,
  type PeriodSums,
  type TransactionJson,
} from '../types.js';
import { TRANSACTION_VIEW_VERSION, transactionJson } from '../../records/transaction.js';
import { type SqlDialect, type SqlSession, type SqlValue, TEXT } from './dialect.js';

const OF_TENANT = `tenant_id = ${TEXT}`;

/** The column of `ledger_days` that counts a type's rows, or the sum that counts every row. */
const DAY_COUNT = {
  tech: 'tech_count',
  ecosystem: 'ecosystem_count',
  all: 'tech_count + ecosystem_count',
} as const;

/** From this offset on, a page's skipped rows are read from the index alone. */
const DEEP_OFFSET = 200;

/** A ledger filter's inclusive UTC days as the half-open range of `occurred_at` times, for every engine. */
function dayStart(day: string): string {
  return `${day}T00:00:00.000Z`;
}

function nextDayStart(day: string): string {
  const next = new Date(`${day}T00:00:00.000Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString();
}

/** What a batch adds to one day's sums. */
interface DayAddition {
  tech: number;
  ecosystem: number;
  techCount: number;
  ecosystemCount: number;
}

/** What a batch adds to one type's all-time total. */
interface TypeAddition {
  amount: number;
  absAmount: number;
  count: number;
  latestAt: string;
}

/** Ascending by a text key: the one order every transaction takes the locks of a kind in. */
function byKey<T>(map: Map<string, T>): [string, T][] {
  return [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** An entry's unique key as the ledger's indexes see it, for ordering its insertion. */
function entryKey(entry: LedgerEntry): string {
  return `${entry.tenant_id}/${entry.external_id === null ? `id:${entry.id}` : `external:${entry.external_id}`}`;
}

/** What a batch adds to one tenant's sums: by day and by type. */
interface TenantAddition {
  days: Map<string, DayAddition>;
  types: Map<string, TypeAddition>;
}

function addEntry(to: TenantAddition, entry: LedgerEntry): void {
  const dayKey = entry.occurred_at.slice(0, 10);
  const day = to.days.get(dayKey) ?? { tech: 0, ecosystem: 0, techCount: 0, ecosystemCount: 0 };
  if (entry.type === 'tech') {
    day.tech += entry.amount;
    day.techCount++;
  } else {
    day.ecosystem += entry.amount;
    day.ecosystemCount++;
  }
  to.days.set(dayKey, day);
  const type = to.types.get(entry.type) ?? { amount: 0, absAmount: 0, count: 0, latestAt: entry.occurred_at };
  type.amount += entry.amount;
  type.absAmount += Math.abs(entry.amount);
  type.count++;
  if (entry.occurred_at > type.latestAt) type.latestAt = entry.occurred_at;
  to.types.set(entry.type, type);
}

/**
 * Inserts ledger rows and adds them to the daily and all-time sums, inside the caller's transaction (a
 * LedgerRangeError rolls it back); returns how many were new (a row already there, by id, external id or
 * queue entry, is skipped).
 *
 * Concurrent batches touch the same rows (an external id sent twice, a day, a type): each kind of row is
 * locked in one global order (ledger rows by tenant and key, then days by tenant and day, then totals by
 * tenant and type), and a batch's additions are summed first so that each day and total row is written
 * once. Batches that met the same rows in different orders deadlocked on PostgreSQL (issue 69).
 */
export async function writeLedgerEntries(
  tx: SqlSession,
  entries: readonly LedgerEntry[],
  queueMessageId: string | null = null,
): Promise<LedgerEntry[]> {
  const booked: LedgerEntry[] = [];
  const ordered = [...entries].sort((a, b) => {
    const [ka, kb] = [entryKey(a), entryKey(b)];
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
  const tenants = new Map<string, TenantAddition>();
  for (const entry of ordered) {
    const added = await tx.run(
      `INSERT INTO ledger (id, tenant_id, type, amount, currency, description, source, run_id, queue_message_id,
         external_id, occurred_at, created_at, record, record_view)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ${TRANSACTION_VIEW_VERSION})
       ON CONFLICT DO NOTHING`,
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
    if (added === 0) continue;
    booked.push(entry);
    const tenant = tenants.get(entry.tenant_id) ?? { days: new Map(), types: new Map() };
    addEntry(tenant, entry);
    tenants.set(entry.tenant_id, tenant);
  }
  const byTenant = byKey(tenants);
  for (const [tenantId, { days }] of byTenant) {
    for (const [day, add] of byKey(days)) {
      await tx.run(
        `INSERT INTO ledger_days (tenant_id, day, tech, ecosystem, tech_count, ecosystem_count)
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (tenant_id, day) DO UPDATE SET tech = ledger_days.tech + excluded.tech,
           ecosystem = ledger_days.ecosystem + excluded.ecosystem,
           tech_count = ledger_days.tech_count + excluded.tech_count,
           ecosystem_count = ledger_days.ecosystem_count + excluded.ecosystem_count`,
        [tenantId, day, add.tech, add.ecosystem, add.techCount, add.ecosystemCount],
      );
    }
  }
  for (const [tenantId, { types }] of byTenant) {
    for (const [type, add] of byKey(types)) {
      await tx.run(
        `INSERT INTO ledger_totals (tenant_id, type, amount, abs_amount, tx_count, latest_at)
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (tenant_id, type) DO UPDATE SET amount = ledger_totals.amount + excluded.amount,
           abs_amount = ledger_totals.abs_amount + excluded.abs_amount,
           tx_count = ledger_totals.tx_count + excluded.tx_count,
           latest_at = CASE WHEN ledger_totals.latest_at IS NULL OR excluded.latest_at > ledger_totals.latest_at
             THEN excluded.latest_at ELSE ledger_totals.latest_at END`,
        [tenantId, type, add.amount, add.absAmount, add.count, add.latestAt],
      );
    }
    // this batch's types' rows as just written (locked by this transaction), any other's as committed;
    // the sum of |amount| only grows, so one check after the batch refuses what a check per entry refused
    const range = await tx.get<{ total: number }>(
      'SELECT COALESCE(SUM(abs_amount), 0) AS total FROM ledger_totals WHERE tenant_id = ?',
      [tenantId],
    );
    // every sum the API shows is at most the sum of |amount|: past 2^53 - 1 a total would lose precision
    if ((range?.total ?? 0) > Number.MAX_SAFE_INTEGER) throw new LedgerRangeError(tenantId);
  }
  return booked;
}

const ENTRY =
  'id, tenant_id, type, amount, currency, description, source, run_id, external_id, occurred_at, created_at';

/** The tenant's entries of these external ids, as the transaction `tx` sees them. */
export async function entriesByExternalId(
  tx: SqlSession,
  tenantId: string,
  externalIds: readonly string[],
): Promise<LedgerEntry[]> {
  if (externalIds.length === 0) return [];
  return tx.all<LedgerEntry>(
    `SELECT ${ENTRY} FROM ledger WHERE tenant_id = ? AND external_id IN (${externalIds.map(() => '?').join(', ')})`,
    [tenantId, ...externalIds],
  );
}

/** One of the tenant's entries by its id. */
export async function entryById(
  tx: SqlSession,
  tenantId: string,
  id: string,
): Promise<LedgerEntry | undefined> {
  return tx.get<LedgerEntry>(`SELECT ${ENTRY} FROM ledger WHERE tenant_id = ? AND id = ?`, [tenantId, id]);
}

/** One ledger row (a run's booking), as `writeLedgerEntries`; false when it was there already. */
export async function writeLedger(
  tx: SqlSession,
  entry: LedgerEntry,
  queueMessageId: string | null = null,
): Promise<boolean> {
  return (await writeLedgerEntries(tx, [entry], queueMessageId)).length === 1;
}

export function sqlLedger(sql: SqlDialect): LedgerRepo {
  return {
    async append(entries) {
      return sql.transaction(async (tx) => {
        const inserted = (await writeLedgerEntries(tx, entries)).length;
        return { inserted, skipped: entries.length - inserted };
      });
    },
    get: (tenantId, id) => entryById(sql, tenantId, id),
    async list(tenantId, filter: LedgerFilter, limit, offset) {
      const where = [OF_TENANT];
      const whereValues: SqlValue[] = [tenantId];
      // the count comes from the daily sums (a column per type), or without a date bound from the
      // all-time totals (a row per type)
      const byDay = Boolean(filter.startDate || filter.endDate);
      const countWhere = [OF_TENANT];
      const countValues: SqlValue[] = [tenantId];
      if (filter.type) {
        where.push(`type = ${TEXT}`);
        whereValues.push(filter.type);
        if (!byDay) {
          countWhere.push(`type = ${TEXT}`);
          countValues.push(filter.type);
        }
      }
      if (filter.startDate) {
        where.push(`occurred_at >= ${TEXT}`);
        whereValues.push(dayStart(filter.startDate));
        countWhere.push(`day >= ${TEXT}`);
        countValues.push(filter.startDate);
      }
      if (filter.endDate) {
        where.push(`occurred_at < ${TEXT}`);
        whereValues.push(nextDayStart(filter.endDate));
        countWhere.push(`day <= ${TEXT}`);
        countValues.push(filter.endDate);
      }
      const [countColumn, countTable] = byDay
        ? [DAY_COUNT[filter.type ?? 'all'], 'ledger_days']
        : ['tx_count', 'ledger_totals'];
      const matching = `FROM ledger WHERE ${where.join(' AND ')} ORDER BY occurred_at DESC, id DESC
        LIMIT ${sql.text.pageBound('?')} OFFSET ${sql.text.pageBound('?')}`;
      // a first page reads its rows straight from the index's order (half the time of the form below on
      // SQLite); a deep one skips its rows on the index alone and reads only the page's from the table
      const page =
        offset < DEEP_OFFSET
          ? `SELECT record ${matching}`
          : `SELECT record FROM ledger WHERE ${sql.text.rowKey} IN (SELECT ${sql.text.rowKey} ${matching})
             ORDER BY occurred_at DESC, id DESC`;
      // the page and its total in one statement: one snapshot on PostgreSQL (an append committed in between
      // cannot be counted without being listed), one read on SQLite (a fifth less than two). The total is
      // the row without a record; the page's rows come first, in their order.
      const rows = await sql.all<{ record: TransactionJson | null; total: number | null }>(
        `SELECT record, CAST(NULL AS bigint) AS total FROM (${page}) p
         UNION ALL
         SELECT NULL, CAST(COALESCE(SUM(${countColumn}), 0) AS bigint) FROM ${countTable}
         WHERE ${countWhere.join(' AND ')}`,
        [...whereValues, limit, offset, ...countValues],
      );
      const items: TransactionJson[] = [];
      let total = 0;
      for (const row of rows) {
        if (row.record === null) total = row.total ?? 0;
        else items.push(row.record);
      }
      return { items, total };
    },
    async overview(tenantId, fromDay, toDay) {
      // one statement: one snapshot, one round trip (the tenant's currency too: a statement fewer)
      const rows = await sql.all<{
        kind: 'all' | 'day' | 'currency';
        key: string | null;
        tech: number;
        ecosystem: number;
        count: number;
      }>(
        `SELECT 'all' AS kind, MAX(latest_at) AS key,
           CAST(COALESCE(SUM(amount) FILTER (WHERE type = 'tech'), 0) AS bigint) AS tech,
           CAST(COALESCE(SUM(amount) FILTER (WHERE type = 'ecosystem'), 0) AS bigint) AS ecosystem,
           CAST(COALESCE(SUM(tx_count), 0) AS bigint) AS count
         FROM ledger_totals WHERE ${OF_TENANT}
         UNION ALL
         SELECT 'day', day, tech, ecosystem, 0
         FROM ledger_days WHERE ${OF_TENANT} AND day >= ${TEXT} AND day <= ${TEXT}
         UNION ALL
         SELECT 'currency', (SELECT currency FROM tenants WHERE id = ${TEXT}), 0, 0, 0`,
        [tenantId, tenantId, fromDay, toDay, tenantId],
      );
      let allTime: PeriodSums = { tech: 0, ecosystem: 0 };
      const daily: DailySums[] = [];
      let count = 0;
      let latestOccurredAt: string | null = null;
      let currency: string | null = null;
      for (const row of rows) {
        if (row.kind === 'all') {
          allTime = { tech: row.tech, ecosystem: row.ecosystem };
          count = row.count;
          latestOccurredAt = row.key;
        } else if (row.kind === 'day')
          daily.push({ day: row.key!, tech: row.tech, ecosystem: row.ecosystem });
        else currency = row.key;
      }
      daily.sort((a, b) => (a.day < b.day ? -1 : 1));
      return { currency, allTime, daily, count, latestOccurredAt };
    },
  };
}
