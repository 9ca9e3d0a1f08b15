import type { ClaimedRun, RunJson, RunFilter, RunRepo, RunRow, RunStatus } from '../types.js';
import type { Postgres, Queryable } from './database.js';
import { newEventId } from '../outbox-core.js';
import { eventJson } from '../../records/event.js';
import { RUN_VIEW_VERSION, runJson } from '../../records/run.js';
import { outbox, runCreatedCtes } from './events.js';
import { recordEffect } from '../sql/idempotency.js';
import { sessionOf } from './dialect.js';
import { writeLedger } from '../sql/ledger.js';
import { ChannelListener } from './listener.js';
import {
  BLOCK_BITS,
  cancelAssignments,
  DEEP_OFFSET,
  fairTenantsQuery,
  isActive,
  likePattern,
  matchesNothing,
  pageOf,
  rerunAssignments,
  RUN_COLUMNS,
  rowsToFetch,
  SUPERBLOCK_BITS,
} from '../runs-core.js';

const COLUMNS = RUN_COLUMNS;
const RUN = COLUMNS.join(', ');
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
/**
 * Below this many queued runs short of the cap, a creation checks the cap without taking the tenant's
 * lock (creations then never wait on each other); closer to it they take turns, so the cap is exact.
 */
const CAP_MARGIN = 64;
const CHANNEL = 'run_queued';
const ANNOUNCE_DELAY_MS = 5;

type RunWithSeq = RunRow & { seq: number };

function withoutSeq(row: RunWithSeq): RunRow {
  const { seq: _seq, ...run } = row;
  return run;
}

/**
 * Moves one run between counters. Rows are written in status order, so that transactions moving
 * different runs of a tenant always lock counter rows in the same order and cannot deadlock on them.
 */
async function move(
  tx: Queryable,
  run: { tenant_id: string; target: string; seq: number },
  from: RunStatus | null,
  to: RunStatus,
): Promise<void> {
  if (from === to) return;
  const deltas: [string, number][] = from
    ? [
        [from, -1],
        [to, 1],
      ]
    : [[to, 1]];
  deltas.sort(([a], [b]) => (a < b ? -1 : 1));
  const values: unknown[] = [run.tenant_id, run.target, run.seq % STRIPES];
  const rows = deltas.map(
    ([status, delta]) => `($1, $${values.push(status)}, $2, $3, $${values.push(delta)})`,
  );
  await tx.query(
    `INSERT INTO run_counts (tenant_id, status, target, stripe, n) VALUES ${rows.join(', ')}
     ON CONFLICT (tenant_id, status, target, stripe) DO UPDATE SET n = run_counts.n + excluded.n`,
    values,
  );
}

export function postgresRuns(db: Postgres, eventsWritten: () => Promise<void>): RunRepo & { close(): void } {
  const queuedCount = async (q: Queryable, tenantId: string) =>
    (
      await q.query<{ n: number }>(
        `SELECT COALESCE(SUM(n), 0)::bigint AS n FROM run_counts WHERE tenant_id = $1 AND status = 'queued'`,
        [tenantId],
      )
    ).rows[0]!.n;
  const capLock = (tx: Queryable, tenantId: string) =>
    tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 2))', [`runs:${tenantId}`]);

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
    ${runCreatedCtes(`${eventId}::text`, `${eventBody}::text`, tenant, at)},
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
  const runValues = (run: RunRow) => [
    run.id,
    run.tenant_id,
    run.file_id,
    run.user_id,
    run.created_by,
    run.created_by_type,
    run.target,
    run.status,
    run.progress,
    run.total_tasks,
    run.completed_tasks,
    run.failed_tasks,
    run.points_consumed,
    run.input_file_name,
    JSON.stringify(run.output_files),
    run.error,
    run.error_code,
    run.attempt,
    run.queue_message_id,
    run.created_at,
    run.started_at,
    run.completed_at,
    JSON.stringify(run.options),
  ];

  const lockedRun = async (tx: Queryable, where: string, values: unknown[]) =>
    (await tx.query<RunWithSeq>(`SELECT seq, ${RUN} FROM runs WHERE ${where} FOR UPDATE`, values)).rows[0];

  // the fairest few tenants: an entry another claimer holds is skipped, and the next tenant's tried
  const fairTenants = fairTenantsQuery('$1', 8);

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

  return {
    close() {
      queued.close();
      clearTimeout(announcing);
    },
    async create(run, maxQueued, effect) {
      const eventId = newEventId();
      const json = runJson(run);
      const values = [
        ...runValues(run),
        json,
        eventId,
        eventJson(eventId, 'run.created', run.created_at, json),
      ];
      const nearCap = async (tx: Queryable) => {
        await capLock(tx, run.tenant_id);
        if ((await queuedCount(tx, run.tenant_id)) >= maxQueued) return 'over_limit' as const;
        await tx.query(insertNear, values);
        return 'created' as const;
      };
      let result: 'created' | 'over_limit';
      if (effect) {
        // a request under an idempotency key records the run on its key in the same transaction
        result = await db.transaction(async (tx) => {
          const fast = await tx.query(insertFar, [...values, maxQueued - CAP_MARGIN]);
          const outcome = fast.rows.length === 1 ? 'created' : await nearCap(tx);
          if (outcome === 'created') await recordEffect(sessionOf(tx), effect, run.id);
          return outcome;
        });
      } else {
        // far from the cap: one statement, checked against the counters it is atomic with
        const fast = await db.query(insertFar, [...values, maxQueued - CAP_MARGIN], 'runs.create');
        result = fast.length === 1 ? 'created' : await db.transaction(nearCap);
      }
      if (result === 'created') {
        announce();
        await eventsWritten();
      }
      return result;
    },
    async get(tenantId, runId) {
      const [row] = await db.query<RunRow>(
        `SELECT ${RUN} FROM runs WHERE id = $1 AND tenant_id = $2`,
        [runId, tenantId],
        'runs.get',
      );
      return row;
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
        if (startingAfter !== undefined && !(await this.get(tenantId, startingAfter))) return undefined;
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
    async rerun(tenantId, runId, queueMessageId, at, maxQueued, effect) {
      const result = await db.transaction(async (tx) => {
        const before = await lockedRun(tx, 'id = $1 AND tenant_id = $2', [runId, tenantId]);
        if (!before) return undefined;
        if (isActive(before.status)) return 'conflict' as const;
        let queued = await queuedCount(tx, tenantId);
        if (queued >= maxQueued - CAP_MARGIN) {
          await capLock(tx, tenantId);
          queued = await queuedCount(tx, tenantId);
        }
        if (queued >= maxQueued) return 'over_limit' as const;
        const {
          rows: [after],
        } = await tx.query<RunRow>(
          `UPDATE runs SET ${rerunAssignments('$3')} WHERE id = $1 AND tenant_id = $2 RETURNING ${RUN}`,
          [runId, tenantId, queueMessageId],
        );
        await tx.query(
          'INSERT INTO run_queue (id, run_id, tenant_id, attempt, enqueued_at) VALUES ($1, $2, $3, $4, $5)',
          [queueMessageId, runId, tenantId, before.attempt + 1, at],
        );
        await move(tx, before, before.status, 'queued');
        await outbox.writeRun(tx, after!, 'run.requeued', at);
        await recordEffect(sessionOf(tx), effect, runId);
        return after;
      });
      if (typeof result === 'object') {
        announce();
        await eventsWritten();
      }
      return result;
    },
    async cancel(tenantId, runId, at, effect) {
      const result = await db.transaction(async (tx) => {
        const {
          rows: [current],
        } = await tx.query<{ queue_message_id: string }>(
          'SELECT queue_message_id FROM runs WHERE id = $1 AND tenant_id = $2',
          [runId, tenantId],
        );
        if (!current) return undefined;
        // the queue entry before the run, in the order claim and finish lock them
        await tx.query('SELECT 1 FROM run_queue WHERE id = $1 FOR UPDATE', [current.queue_message_id]);
        const before = (await lockedRun(tx, 'id = $1 AND tenant_id = $2', [runId, tenantId]))!;
        if (!isActive(before.status)) return 'conflict' as const;
        const {
          rows: [after],
        } = await tx.query<RunRow>(
          `UPDATE runs SET ${cancelAssignments('$3')} WHERE id = $1 AND tenant_id = $2 RETURNING ${RUN}`,
          [runId, tenantId, at],
        );
        await tx.query(
          'UPDATE run_queue SET done_at = $1, lease_owner = NULL, lease_until = NULL WHERE id = $2 AND done_at IS NULL',
          [at, before.queue_message_id],
        );
        await move(tx, before, before.status, 'cancelled');
        await outbox.writeRun(tx, after!, 'run.cancelled', at);
        await recordEffect(sessionOf(tx), effect, runId);
        return after;
      });
      if (typeof result === 'object') await eventsWritten();
      return result;
    },
    async claim(workerId, now, leaseUntil) {
      let started = false;
      const claimed = await db.transaction(async (tx): Promise<ClaimedRun | undefined> => {
        started = false;
        const tenants = (await tx.query<{ tenantId: string }>(fairTenants, [now])).rows;
        for (const { tenantId } of tenants) {
          // an entry another claimer holds right now is skipped, not waited for
          const {
            rows: [entry],
          } = await tx.query<{ id: string; run_id: string; claims: number }>(
            `SELECT id, run_id, claims FROM run_queue
             WHERE tenant_id = $1 AND done_at IS NULL AND (lease_until IS NULL OR lease_until < $2)
             ORDER BY enqueued_at LIMIT 1 FOR UPDATE SKIP LOCKED`,
            [tenantId, now],
          );
          if (!entry) continue;
          await tx.query(
            'UPDATE run_queue SET lease_owner = $1, lease_until = $2, claims = claims + 1 WHERE id = $3',
            [workerId, leaseUntil, entry.id],
          );
          const before = (await lockedRun(tx, 'id = $1', [entry.run_id]))!;
          let run: RunRow = withoutSeq(before);
          if (before.status === 'queued') {
            run = (
              await tx.query<RunRow>(
                `UPDATE runs SET status = 'running', started_at = COALESCE(started_at, $1)
                 WHERE id = $2 AND queue_message_id = $3 RETURNING ${RUN}`,
                [now, entry.run_id, entry.id],
              )
            ).rows[0]!;
            await move(tx, before, 'queued', 'running');
            await outbox.writeRun(tx, run, 'run.started', now);
            started = true;
          }
          const {
            rows: [file],
          } = await tx.query<{ key: string }>('SELECT storage_key AS key FROM files WHERE id = $1', [
            run.file_id,
          ]);
          return { queueMessageId: entry.id, claims: entry.claims + 1, run, storageKey: file!.key };
        }
        return undefined;
      });
      if (started) await eventsWritten();
      return claimed;
    },
    watch(onQueued) {
      return queued.subscribe(onQueued);
    },
    async renewLease(queueMessageId, workerId, leaseUntil) {
      const rows = await db.query(
        'UPDATE run_queue SET lease_until = $1 WHERE id = $2 AND lease_owner = $3 AND done_at IS NULL RETURNING id',
        [leaseUntil, queueMessageId, workerId],
      );
      return rows.length === 1;
    },
    async releaseLease(queueMessageId, workerId) {
      await db.query(
        `UPDATE run_queue SET lease_owner = NULL, lease_until = NULL, claims = claims - 1
         WHERE id = $1 AND lease_owner = $2 AND done_at IS NULL`,
        [queueMessageId, workerId],
      );
    },
    async queueStats(now) {
      const byStatus = Object.fromEntries(
        (
          await db.query<{ status: RunStatus; n: number }>(
            'SELECT status, SUM(n)::bigint AS n FROM run_counts GROUP BY status',
          )
        ).map((r) => [r.status, r.n]),
      );
      const [open] = await db.query<{ n: number; oldest: string | null }>(
        `SELECT COUNT(*) AS n, MIN(enqueued_at) AS oldest FROM run_queue
         WHERE done_at IS NULL AND (lease_until IS NULL OR lease_until < $1)`,
        [now],
      );
      return { byStatus, waiting: open!.n, oldestWaitingAt: open!.oldest };
    },
    async saveProgress(queueMessageId, workerId, p) {
      // the update holds the run's row until the JSON written from what it returned commits with it
      return db.transaction(async (tx) => {
        const { rows } = await tx.query<RunRow & { held: boolean }>(
          `WITH q AS (SELECT run_id FROM run_queue WHERE id = $1 AND lease_owner = $2 AND done_at IS NULL),
           u AS (
             UPDATE runs SET total_tasks = $3, completed_tasks = GREATEST(completed_tasks, $4),
               failed_tasks = GREATEST(failed_tasks, $5), progress = GREATEST(progress, $6)
             WHERE id = (SELECT run_id FROM q) AND queue_message_id = $1 RETURNING ${RUN})
           SELECT EXISTS (SELECT 1 FROM q) AS held, u.* FROM (SELECT 1) one LEFT JOIN u ON true`,
          [queueMessageId, workerId, p.total_tasks, p.completed_tasks, p.failed_tasks, p.progress],
        );
        const [row] = rows;
        if (row?.id) {
          const { held: _held, ...run } = row;
          await tx.query(`UPDATE runs SET record = $1, record_view = ${RUN_VIEW_VERSION} WHERE id = $2`, [
            runJson(run),
            run.id,
          ]);
        }
        return row?.held ?? false;
      });
    },
    async finish(queueMessageId, workerId, outcome, booking) {
      const finished = await db.transaction(async (tx) => {
        const {
          rows: [held],
        } = await tx.query<{ run_id: string }>(
          'SELECT run_id FROM run_queue WHERE id = $1 AND lease_owner = $2 AND done_at IS NULL FOR UPDATE',
          [queueMessageId, workerId],
        );
        if (!held) return false;
        const before = (await lockedRun(tx, 'id = $1', [held.run_id]))!;
        const {
          rows: [after],
        } = await tx.query<RunRow>(
          `UPDATE runs SET status = $3, total_tasks = $4, completed_tasks = $5, failed_tasks = $6, progress = $7,
             points_consumed = $8, output_files = $9, error = $10, error_code = $11, completed_at = $12
           WHERE id = $1 AND queue_message_id = $2 RETURNING ${RUN}`,
          [
            held.run_id,
            queueMessageId,
            outcome.status,
            outcome.total_tasks,
            outcome.completed_tasks,
            outcome.failed_tasks,
            outcome.progress,
            outcome.points_consumed,
            JSON.stringify(outcome.output_files),
            outcome.error,
            outcome.error_code,
            outcome.completed_at,
          ],
        );
        await tx.query('UPDATE run_queue SET done_at = $1, lease_until = NULL WHERE id = $2', [
          outcome.completed_at,
          queueMessageId,
        ]);
        await move(tx, before, before.status, outcome.status);
        await outbox.writeRun(tx, after!, `run.${outcome.status}`, outcome.completed_at);
        // the queue entry id makes the booking unique: a retried finish cannot book twice
        if (booking) await writeLedger(sessionOf(tx), booking, queueMessageId);
        return true;
      });
      if (finished) await eventsWritten();
      return finished;
    },
  };
}
