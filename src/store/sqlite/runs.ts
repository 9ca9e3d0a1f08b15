import type { RunFilter, RunJson, RunStatus } from '../types.js';
import {
  BLOCK_BITS,
  DEEP_OFFSET,
  likePattern,
  matchesNothing,
  pageOf,
  rowsToFetch,
} from '../sql/run-rules.js';
import { idOfRunJson, RUN_VIEW_VERSION, runJson } from '../../records/run.js';
import type { SqlDialect, SqlSession, SqlValue } from '../sql/dialect.js';
import { roomInQueue, RUN, type RunEngine, runValues } from '../sql/run-engine.js';

const RUN_PLACEHOLDERS = RUN.split(',')
  .map(() => '?')
  .join(', ');

/** Moves one run between the status counters (one row per key: SQLite has one writer at a time). */
async function move(
  tx: SqlSession,
  run: { tenant_id: string; target: string },
  from: RunStatus | null,
  to: RunStatus,
): Promise<void> {
  if (from === to) return;
  const deltas: [RunStatus, number][] =
    from === null
      ? [[to, 1]]
      : [
          [from, -1],
          [to, 1],
        ];
  for (const [status, delta] of deltas) {
    await tx.run(
      `INSERT INTO run_counts (tenant_id, status, target, n) VALUES (?, ?, ?, ?)
       ON CONFLICT (tenant_id, status, target) DO UPDATE SET n = n + excluded.n`,
      [run.tenant_id, status, run.target, delta],
    );
  }
}

/**
 * SQLite's runs: a sequence per tenant (`tenants.run_seq`, taken by the one writer), one counter row per
 * status and target, and blocks of 2^10 runs per status and target that triggers keep, from which a deep
 * filtered page finds where to start. Every write of a run writes its JSON (`runJson`) into `record` as
 * well, and the list reads that: one string per row instead of its 23 columns. SQLite cannot hear another
 * process's commit: workers find its runs at their next poll.
 */
export function sqliteRunEngine(sql: SqlDialect): RunEngine {
  /** The filtered page's WHERE, and its values after the tenant's and `before`. */
  const filterClause = (filter: RunFilter): { where: string[]; values: SqlValue[] } => {
    const where: string[] = [];
    const values: SqlValue[] = [];
    if (filter.status) {
      where.push('status = ?');
      values.push(filter.status);
    }
    if (filter.target) {
      where.push('target = ?');
      values.push(filter.target);
    }
    if (filter.keyword) {
      where.push(`(id = ? OR input_file_name LIKE ? ESCAPE '\\')`);
      values.push(filter.keyword, likePattern(filter.keyword));
    }
    return { where, values };
  };
  const records = (text: string, values: SqlValue[]) => sql.column<RunJson>(text, values);

  const create: RunEngine['create'] = async (tx, run, maxQueued) => {
    if (!(await roomInQueue(sql, tx, run.tenant_id, maxQueued))) return 'over_limit';
    const { seq } = (await tx.get<{ seq: number }>(
      'UPDATE tenants SET run_seq = run_seq + 1 WHERE id = ? RETURNING run_seq AS seq',
      [run.tenant_id],
    ))!;
    const record = runJson(run);
    await tx.run(
      `INSERT INTO runs (seq, ${RUN}, record, record_view) VALUES (?, ${RUN_PLACEHOLDERS}, ?, ${RUN_VIEW_VERSION})`,
      [seq, ...runValues(run), record],
    );
    await tx.run(
      'INSERT INTO run_queue (id, run_id, tenant_id, attempt, enqueued_at) VALUES (?, ?, ?, ?, ?)',
      [run.queue_message_id, run.id, run.tenant_id, run.attempt, run.created_at],
    );
    await move(tx, run, null, run.status);
    await tx.emit(run.tenant_id, 'run.created', run.created_at, record);
    return 'created';
  };

  return {
    move,
    queued() {},
    watch() {
      return () => undefined;
    },
    create,
    async createAlone(transact, run, maxQueued) {
      return transact((tx) => create(tx, run, maxQueued));
    },
    async list(tenantId, filter: RunFilter, limit, offset, startingAfter) {
      // a cursor is the run's per-tenant sequence number: the page is the runs below it
      let before = Number.MAX_SAFE_INTEGER;
      if (startingAfter !== undefined) {
        const cursor = await sql.get<{ seq: number }>('SELECT seq FROM runs WHERE id = ? AND tenant_id = ?', [
          startingAfter,
          tenantId,
        ]);
        if (!cursor) return undefined;
        before = cursor.seq;
      }
      if (matchesNothing(filter)) return { items: [], total: 0, lastId: null };
      const fetch = rowsToFetch(limit, startingAfter);
      const page = (items: RunJson[], total: number) => {
        const { shown, lastId } = pageOf(items, total, { limit, offset, startingAfter }, idOfRunJson);
        return { items: shown, total, lastId };
      };
      if (!filter.status && !filter.target && !filter.keyword) {
        const last = await sql.get<{ n: number }>('SELECT run_seq AS n FROM tenants WHERE id = ?', [
          tenantId,
        ]);
        const n = last?.n ?? 0;
        const top = Math.min(n, before - 1) - offset;
        const items =
          top > 0
            ? await records(
                'SELECT record FROM runs WHERE tenant_id = ? AND seq <= ? ORDER BY seq DESC LIMIT ?',
                [tenantId, top, fetch],
              )
            : [];
        return page(items, n);
      }
      const { where, values } = filterClause(filter);
      const clause = ['tenant_id = ?', 'seq < ?', ...where].join(' AND ');
      // past the first pages, OFFSET skips rows in an inner query that the (tenant, status/target, seq)
      // indexes cover: a skipped row costs an index step, not a table lookup
      const deepPage = `SELECT record FROM runs WHERE rowid IN (
          SELECT rowid FROM runs WHERE ${clause} ORDER BY seq DESC LIMIT ? OFFSET ?)
        ORDER BY seq DESC`;
      let items: RunJson[];
      if (offset >= DEEP_OFFSET && !filter.keyword && startingAfter === undefined) {
        // jump to the block holding the row at `offset` (how many filtered rows the newer blocks hold is
        // summed from run_blocks), then skip within that block only
        const at = await sql.get<{ block: number; skipped: number }>(
          `SELECT block, through - n AS skipped FROM (
             SELECT block, SUM(n) AS n, SUM(SUM(n)) OVER (ORDER BY block DESC) AS through
             FROM run_blocks WHERE tenant_id = ? AND ${where.join(' AND ')} GROUP BY block)
           WHERE through > ? ORDER BY block DESC LIMIT 1`,
          [tenantId, ...values, offset],
        );
        items = at
          ? await records(deepPage, [
              tenantId,
              (at.block + 1) * 2 ** BLOCK_BITS,
              ...values,
              fetch,
              offset - at.skipped,
            ])
          : [];
      } else {
        const shallowPage = `SELECT record FROM runs WHERE ${clause} ORDER BY seq DESC LIMIT ? OFFSET ?`;
        items = await records(offset >= DEEP_OFFSET ? deepPage : shallowPage, [
          tenantId,
          before,
          ...values,
          fetch,
          offset,
        ]);
      }
      // a keyword cannot be counted ahead of time: its total is an exact COUNT over the tenant's runs
      const total = filter.keyword
        ? await sql.get<{ n: number }>(`SELECT COUNT(*) AS n FROM runs WHERE ${clause}`, [
            tenantId,
            Number.MAX_SAFE_INTEGER,
            ...values,
          ])
        : await sql.get<{ n: number }>(
            `SELECT COALESCE(SUM(n), 0) AS n FROM run_counts WHERE tenant_id = ?${where.map((w) => ` AND ${w}`).join('')}`,
            [tenantId, ...values],
          );
      return page(items, total?.n ?? 0);
    },
  };
}
