import type { RunJson, RunFilter, RunRow, RunStatus } from '../types.js';
import type { WorkSession } from '../sql/unit-of-work.js';
import type { Postgres } from './database.js';
import { fanOutStatement, newEventId, typeNeedle } from '../sql/outbox.js';
import { eventJson } from '../../records/event.js';
import { RUN_VIEW_VERSION, runJson } from '../../records/run.js';
import type { SqlDialect, SqlSession, SqlText, SqlValue } from '../sql/dialect.js';
import { CAP_MARGIN, queuedCount, queueTurn, RUN, type RunEngine, runValues } from '../sql/run-engine.js';
import { ChannelListener } from './listener.js';
import {
  BLOCK_BITS,
  DEEP_OFFSET,
  likePattern,
  matchesNothing,
  pageOf,
  RUN_COLUMNS,
  rowsToFetch,
  SUPERBLOCK_BITS,
} from '../sql/run-rules.js';

const COLUMNS = RUN_COLUMNS;
const TYPES: Record<string, string> = {
  progress: 'integer',
  total_tasks: 'integer',
  completed_tasks: 'integer',
  failed_tasks: 'integer',
  attempt: 'integer',
  points_consumed: 'bigint',
  output_files: 'jsonb',
  options: 'jsonb',
};

/** Counters are split over this many rows per key, chosen by seq (see run_counts). */
const STRIPES = 16;
const CHANNEL = 'run_queued';
const ANNOUNCE_DELAY_MS = 5;

/**
 * The CTEs that write run.created beside a run inserted by the CTE `r`: `eventParam` the event's id,
 * `bodyParam` its JSON.
 */
function runCreatedCtes(
  text: SqlText,
  eventParam: string,
  bodyParam: string,
  tenantParam: string,
  atParam: string,
): string {
  return `
    e AS (
      INSERT INTO events (id, tenant_id, type, created_at, body)
      SELECT ${eventParam}, ${tenantParam}, 'run.created', ${atParam}, ${bodyParam} FROM r RETURNING tenant_id),
    d AS (${fanOutStatement(text, {
      event: eventParam,
      at: atParam,
      tenant: tenantParam,
      typeNeedle: `'${typeNeedle('run.created')}'`,
      // the run (and its event) may be refused by the cap: then no delivery either
      when: 'EXISTS (SELECT 1 FROM e)',
    })})`;
}

/**
 * Moves one run between counters. Rows are written in status order, so that transactions moving
 * different runs of a tenant always lock counter rows in the same order and cannot deadlock on them.
 */
async function move(
  tx: SqlSession,
  run: { tenant_id: string; target: string; seq: number },
  from: RunStatus,
  to: RunStatus,
): Promise<void> {
  if (from === to) return;
  const deltas: [RunStatus, number][] = [
    [from, -1],
    [to, 1],
  ];
  deltas.sort(([a], [b]) => (a < b ? -1 : 1));
  await tx.run(
    `INSERT INTO run_counts (tenant_id, status, target, stripe, n) VALUES (?, ?, ?, ?, ?), (?, ?, ?, ?, ?)
     ON CONFLICT (tenant_id, status, target, stripe) DO UPDATE SET n = run_counts.n + excluded.n`,
    deltas.flatMap(([status, delta]): SqlValue[] => [
      run.tenant_id,
      status,
      run.target,
      run.seq % STRIPES,
      delta,
    ]),
  );
}

/**
 * PostgreSQL's runs: one sequence shared by every tenant (`runs_seq`), counters striped over rows so that
 * concurrent writers do not queue on one row, blocks of two levels for deep pages of the unfiltered list,
 * and a creation that is one statement far from the tenant's cap. Workers hear queued runs by LISTEN.
 */
export function postgresRunEngine(db: Postgres, sql: SqlDialect): RunEngine & { close(): void } {
  // the run, its queue entry, its counters and its block count in one statement: atomic without a
  // transaction of round trips. `guard` makes the insert
  // conditional (INSERT ... SELECT: its parameters are cast, as a SELECT list gives them no column type).
  // the run.created event and its deliveries are CTEs of the same statement (`eventParam`: the event id)
  // parameters: the run's columns in RUN_COLUMNS' order, then its JSON, the event's id and the event's JSON,
  // then (`guard`) the most runs queued
  const column = (name: (typeof COLUMNS)[number]) => `$${COLUMNS.indexOf(name) + 1}`;
  const [tenant, at] = [`${column('tenant_id')}::text`, `${column('created_at')}::text`];
  const [record, eventId, eventBody, mostQueued] = [1, 2, 3, 4].map((i) => `$${COLUMNS.length + i}`);
  const insertRun = (guard?: string) => `
    WITH ${guard ? `cap AS (SELECT COALESCE(SUM(n), 0) AS q FROM run_counts WHERE tenant_id = ${tenant} AND status = 'queued'),` : ''}
    r AS (
      INSERT INTO runs (${RUN}, record, record_view)
      SELECT ${COLUMNS.map((c, i) => `$${i + 1}::${TYPES[c] ?? 'text'}`).join(', ')}, ${record}::text, ${RUN_VIEW_VERSION}
      ${guard ?? ''}
      RETURNING seq),
    ${runCreatedCtes(sql.text, `${eventId}::text`, `${eventBody}::text`, tenant, at)},
    q AS (
      INSERT INTO run_queue (id, run_id, tenant_id, attempt, enqueued_at)
      SELECT ${column('queue_message_id')}, ${column('id')}, ${tenant}, ${column('attempt')}::integer, ${at} FROM r),
    c AS (
      INSERT INTO run_counts (tenant_id, status, target, stripe, n)
      SELECT ${tenant}, ${column('status')}, ${column('target')}, seq % ${STRIPES}, 1 FROM r
      ON CONFLICT (tenant_id, status, target, stripe) DO UPDATE SET n = run_counts.n + 1),
    b AS (
      INSERT INTO run_blocks (tenant_id, level, block, stripe, n)
      SELECT ${tenant}, 1, seq >> ${BLOCK_BITS}, seq % ${STRIPES}, 1 FROM r
      UNION ALL SELECT ${tenant}, 2, seq >> ${SUPERBLOCK_BITS}, seq % ${STRIPES}, 1 FROM r
      ON CONFLICT (tenant_id, level, block, stripe) DO UPDATE SET n = run_blocks.n + 1)
    SELECT seq FROM r`;
  const insertFar = insertRun(`WHERE (SELECT q FROM cap) < ${mostQueued}`);
  const insertNear = insertRun();
  const queued = new ChannelListener(CHANNEL, () => db.listener());
  // Wakes listening workers after a run was queued and committed. Not inside the queuing transaction: a
  // transaction that notifies holds PostgreSQL's one notification lock through its commit, WAL flush
  // included, so every run creation on the server would wait on every other. Under load the runs queued
  // within a few milliseconds share one notification (workers poll as well).
  let announcing: NodeJS.Timeout | undefined;
  const announce = () => {
    announcing ??= setTimeout(() => {
      announcing = undefined;
      db.query(`SELECT pg_notify('${CHANNEL}', '')`, [], 'runs.notify').catch(() => undefined);
    }, ANNOUNCE_DELAY_MS);
  };

  /** The statement's parameters but the cap: the run, its JSON, and its run.created event. */
  const creationValues = (run: RunRow): SqlValue[] => {
    const eventId = newEventId();
    const json = runJson(run);
    return [...runValues(run), json, eventId, eventJson(eventId, 'run.created', run.created_at, json)];
  };
  /** The statement wrote run.created and its deliveries: the unit publishes them after its commit. */
  const created = (tx: WorkSession): 'created' => {
    tx.emitted();
    tx.afterCommit(announce);
    return 'created';
  };
  /** Near the cap the tenant's creations take turns, and the cap is counted exactly. */
  const nearCap = async (tx: WorkSession, run: RunRow, values: SqlValue[], maxQueued: number) => {
    await sql.takeTurn(tx, queueTurn(run.tenant_id));
    if ((await queuedCount(tx, run.tenant_id)) >= maxQueued) return 'over_limit';
    await tx.run(insertNear, values);
    return created(tx);
  };

  return {
    close() {
      queued.close();
      clearTimeout(announcing);
    },
    move,
    queued: announce,
    watch(onQueued) {
      return queued.subscribe(onQueued);
    },
    async create(tx, run, maxQueued) {
      const values = creationValues(run);
      const fast = await tx.all(insertFar, [...values, maxQueued - CAP_MARGIN]);
      return fast.length === 1 ? created(tx) : nearCap(tx, run, values, maxQueued);
    },
    async createAlone(transact, run, maxQueued) {
      const values = creationValues(run);
      // far from the cap: one statement, atomic by itself, checked against the counters it is atomic with
      const fast = await transact.alone(async (tx) =>
        (await tx.all(insertFar, [...values, maxQueued - CAP_MARGIN])).length === 1 ? created(tx) : undefined,
      );
      return fast ?? transact((tx) => nearCap(tx, run, values, maxQueued));
    },
    async list(tenantId, filter: RunFilter, limit, offset, startingAfter) {
      const values: unknown[] = [tenantId];
      const param = (value: unknown) => `$${values.push(value)}`;
      const where = ['tenant_id = $1'];
      const counted = ['tenant_id = $1'];
      // a cursor is a run of the tenant's: the page is the runs below its seq, in the same statement
      const cursor = startingAfter === undefined ? 'NULL' : param(startingAfter);
      const cursorSeq = `(SELECT c.seq FROM runs c WHERE c.id = ${cursor} AND c.tenant_id = $1)`;
      if (startingAfter !== undefined) where.push(`seq < ${cursorSeq}`);
      if (filter.status) {
        const p = param(filter.status);
        where.push(`status = ${p}`);
        counted.push(`status = ${p}`);
      }
      if (filter.target) {
        const p = param(filter.target);
        where.push(`target = ${p}`);
        counted.push(`target = ${p}`);
      }
      if (matchesNothing(filter)) {
        if (startingAfter !== undefined) {
          const [found] = await db.query('SELECT 1 AS found FROM runs WHERE id = $1 AND tenant_id = $2', [
            startingAfter,
            tenantId,
          ]);
          if (!found) return undefined;
        }
        return { items: [], total: 0, lastId: null };
      }
      const fetch = rowsToFetch(limit, startingAfter);
      const limitParam = param(fetch);
      const offsetParam = param(offset);
      let total: string;
      if (filter.keyword) {
        // a keyword cannot be counted ahead of time: its total is an exact COUNT over the tenant's runs;
        // ILIKE on "C"-collated text folds ASCII letters only, as SQLite's LIKE does
        const keyword = `(id = ${param(filter.keyword)} OR input_file_name ILIKE ${param(likePattern(filter.keyword))} ESCAPE '\\')`;
        where.push(keyword);
        total = `SELECT COUNT(*) AS n, ${cursorSeq} AS cursor FROM runs WHERE ${[...counted, keyword].join(' AND ')}`;
      } else {
        total = `SELECT COALESCE(SUM(n), 0)::bigint AS n, ${cursorSeq} AS cursor FROM run_counts
                 WHERE ${counted.join(' AND ')}`;
      }
      const clause = where.join(' AND ');
      // rows skipped by OFFSET are index entries only: records are read for the page's rows alone (in the
      // select list of an OFFSET query they would be read, and detoasted, for every skipped row too)
      const unfiltered = !filter.status && !filter.target && !filter.keyword;
      // `located`: the superblock holding the row at `offset` and how many rows the newer superblocks hold,
      // then the block within it likewise (both MATERIALIZED: computed once); the page then walks at most
      // one block of the index
      let located = '';
      let seqs = `SELECT seq FROM runs WHERE ${clause} ORDER BY seq DESC LIMIT ${limitParam} OFFSET ${offsetParam}`;
      if (offset >= DEEP_OFFSET && unfiltered && startingAfter === undefined) {
        const cumulative = (level: number, range: string) =>
          `SELECT block, n, SUM(n) OVER (ORDER BY block DESC) AS through FROM (
             SELECT block, SUM(n)::int AS n FROM run_blocks WHERE tenant_id = $1 AND level = ${level} ${range}
             GROUP BY block) g`;
        const fanout = SUPERBLOCK_BITS - BLOCK_BITS;
        const superblock = '(SELECT block FROM l2)';
        located = `,
          l2 AS MATERIALIZED (
            SELECT block, through - n AS skipped FROM (${cumulative(2, '')}) w
            WHERE through > ${offsetParam} ORDER BY block DESC LIMIT 1),
          l1 AS MATERIALIZED (
            SELECT block, (SELECT skipped FROM l2) + through - n AS skipped FROM (${cumulative(
              1,
              `AND block >= ${superblock} << ${fanout} AND block < (${superblock} + 1) << ${fanout}`,
            )}) w
            WHERE (SELECT skipped FROM l2) + through > ${offsetParam} ORDER BY block DESC LIMIT 1)`;
        seqs = `SELECT seq FROM runs WHERE tenant_id = $1 AND seq < ((SELECT block FROM l1) + 1) << ${BLOCK_BITS}
                ORDER BY seq DESC LIMIT ${limitParam} OFFSET ${offsetParam} - (SELECT skipped FROM l1)`;
      }
      // statements run with generic plans (see database.ts): `= ANY (ARRAY(...))` keeps the page's rows
      // an index lookup of the few seqs found, where `IN (...)` could become a hash join over the tenant
      const page =
        offset === 0
          ? `SELECT seq, id, record FROM runs WHERE ${clause}
             ORDER BY seq DESC LIMIT ${limitParam} OFFSET ${offsetParam}`
          : `SELECT seq, id, record FROM runs WHERE tenant_id = $1 AND seq = ANY (ARRAY(${seqs}))`;
      // the page and its total in one statement: one snapshot
      const rows = await db.query<{
        n: number;
        cursor: number | null;
        id: string | null;
        record: RunJson | null;
      }>(
        `WITH total AS (${total})${located}, page AS (${page})
         SELECT total.n, total.cursor, page.id, page.record FROM total LEFT JOIN page ON true ORDER BY page.seq DESC`,
        values,
        `runs.list.${!!startingAfter}${!!filter.status}${!!filter.target}${!!filter.keyword}.${offset === 0 ? 0 : offset < DEEP_OFFSET ? 1 : 2}`,
      );
      if (startingAfter !== undefined && rows[0]?.cursor === null) return undefined;
      const items = rows.filter((r) => r.record !== null);
      const count = rows[0]?.n ?? 0;
      const { shown, lastId } = pageOf(items, count, { limit, offset, startingAfter }, (r) => r.id!);
      return { items: shown.map((r) => r.record!), total: count, lastId };
    },
  };
}
