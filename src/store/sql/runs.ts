import type {
  ClaimedRun,
  RunChange,
  RunChanges,
  RunJson,
  RunLifecycle,
  RunRepo,
  RunRow,
  RunStatus,
} from '../types.js';
import { CLAIMABLE_TENANT, fairTenantsQuery, RUN_COLUMNS, waitingAt } from './run-rules.js';
import { RUN, type RunEngine, type RunRecord, roomInQueue, runValues, toRun } from './run-engine.js';
import { RUN_VIEW_VERSION, runJson } from '../../records/run.js';
import type { SqlDialect, SqlSession, SqlValue } from './dialect.js';
import { writeLedger } from './ledger.js';
import { ofUnitTenant, type Transact, type WorkSession } from './unit-of-work.js';

/** Every column but the id, as a run is written whole: `col = ?` each, in RUN_COLUMNS' order. */
const WRITE_RUN = RUN_COLUMNS.slice(1)
  .map((column) => `${column} = ?`)
  .join(', ');

/**
 * Runs as tenants change them (in their units of work: `changes`) and as the queue ends them (`repo`),
 * written once: the engine brings its creation, its list and its counters (`RunEngine`); the lifecycle
 * decides what each change makes of a run, and this writes it. `transact`: the queue's own transactions.
 */
export function sqlRuns(
  sql: SqlDialect,
  engine: RunEngine,
  lifecycle: RunLifecycle,
  transact: Transact,
): { repo: RunRepo; changes: (tx: WorkSession, tenantId: string) => RunChanges } {
  /** The run read under its row lock, with its sequence number (the counters' blocks go by it). */
  const lockedRun = async (
    tx: SqlSession,
    where: string,
    values: SqlValue[],
  ): Promise<{ run: RunRow; seq: number } | undefined> => {
    const row = await tx.get<RunRecord & { seq: number }>(
      `SELECT seq, ${RUN} FROM runs WHERE ${where}${sql.text.rowLock('wait')}`,
      values,
    );
    return row && { run: toRun(row), seq: row.seq };
  };
  /** Writes the run whole, with its stored JSON; the callers hold its row, read under the lock. */
  const write = async (tx: SqlSession, run: RunRow): Promise<RunJson> => {
    const record = runJson(run);
    const changed = await tx.run(
      `UPDATE runs SET ${WRITE_RUN}, record = ?, record_view = ${RUN_VIEW_VERSION} WHERE id = ?`,
      [...runValues(run).slice(1), record, run.id],
    );
    if (changed !== 1) throw new Error(`run ${run.id} went away under a lock held on it`);
    return record;
  };
  /** A status change applied: the run written, moved between the counters, and its event recorded. */
  const apply = async (
    tx: WorkSession,
    locked: { run: RunRow; seq: number },
    change: RunChange,
    at: string,
  ) => {
    const before = locked.run;
    const record = await write(tx, change.run);
    await engine.move(tx, { ...before, seq: locked.seq }, before.status, change.run.status);
    await tx.emit(before.tenant_id, change.event, at, record);
  };
  /** The run of a queue entry `workerId` leases, if it still does (`lock`: the entry's row lock, if any). */
  const heldRun = (tx: SqlSession, queueMessageId: string, workerId: string, lock: string) =>
    tx.get<{ run_id: string }>(
      `SELECT run_id FROM run_queue WHERE id = ? AND lease_owner = ? AND done_at IS NULL${lock}`,
      [queueMessageId, workerId],
    );
  // the fairest few tenants: an entry another claimer holds is skipped, and the next tenant's tried
  const fairTenants = fairTenantsQuery('?', 8);

  const changes = (tx: WorkSession, tenantId: string): RunChanges => ({
    async create(run, maxQueued) {
      ofUnitTenant(run, tenantId);
      return engine.create(tx, run, maxQueued);
    },
    async rerun(runId, queueMessageId, at, maxQueued) {
      const locked = await lockedRun(tx, 'id = ? AND tenant_id = ?', [runId, tenantId]);
      if (!locked) return undefined;
      const change = lifecycle.rerun(locked.run, queueMessageId);
      if (change === 'conflict') return change;
      if (!(await roomInQueue(sql, tx, tenantId, maxQueued))) return 'over_limit';
      await tx.run(
        'INSERT INTO run_queue (id, run_id, tenant_id, attempt, enqueued_at) VALUES (?, ?, ?, ?, ?)',
        [change.run.queue_message_id, runId, tenantId, change.run.attempt, at],
      );
      await apply(tx, locked, change, at);
      tx.afterCommit(engine.queued);
      return change.run;
    },
    async cancel(runId, at) {
      const current = await tx.get<{ queue_message_id: string }>(
        'SELECT queue_message_id FROM runs WHERE id = ? AND tenant_id = ?',
        [runId, tenantId],
      );
      if (!current) return undefined;
      // the queue entry before the run, in the order claim and finish lock them
      await tx.get(`SELECT 1 AS locked FROM run_queue WHERE id = ?${sql.text.rowLock('wait')}`, [
        current.queue_message_id,
      ]);
      const locked = (await lockedRun(tx, 'id = ? AND tenant_id = ?', [runId, tenantId]))!;
      const change = lifecycle.cancel(locked.run, at);
      if (change === 'conflict') return change;
      // the queue entry is done: the worker holding it loses its lease and cannot finish the run
      await tx.run(
        'UPDATE run_queue SET done_at = ?, lease_owner = NULL, lease_until = NULL WHERE id = ? AND done_at IS NULL',
        [at, locked.run.queue_message_id],
      );
      await apply(tx, locked, change, at);
      return change.run;
    },
  });

  const repo: RunRepo = {
    create: (run, maxQueued) => engine.createAlone(transact, run, maxQueued),
    list: engine.list,
    watch: engine.watch,
    async get(tenantId, runId) {
      return toRun(
        await sql.get<RunRecord>(`SELECT ${RUN} FROM runs WHERE id = ? AND tenant_id = ?`, [runId, tenantId]),
      );
    },
    async claim(workerId, now, leaseUntil) {
      return transact(async (tx): Promise<ClaimedRun | undefined> => {
        const tenants = await tx.all<{ tenantId: string }>(fairTenants, [now, now]);
        for (const { tenantId } of tenants) {
          // an entry another claimer holds right now is skipped, not waited for
          const entry = await tx.get<{ id: string; run_id: string; claims: number }>(
            `SELECT id, run_id, claims FROM run_queue
             WHERE tenant_id = ? AND ${waitingAt('?')}
             ORDER BY enqueued_at LIMIT 1${sql.text.rowLock('skip-locked')}`,
            [tenantId, now],
          );
          if (!entry) continue;
          await tx.run(
            'UPDATE run_queue SET lease_owner = ?, lease_until = ?, claims = claims + 1 WHERE id = ?',
            [workerId, leaseUntil, entry.id],
          );
          const locked = (await lockedRun(tx, 'id = ?', [entry.run_id]))!;
          let run = locked.run;
          const change = lifecycle.start(locked.run, now);
          if (change) {
            await apply(tx, locked, change, now);
            run = change.run;
          }
          const file = await tx.get<{ key: string; pages: number | null }>(
            'SELECT storage_key AS key, page_count AS pages FROM files WHERE id = ?',
            [run.file_id],
          );
          return {
            queueMessageId: entry.id,
            claims: entry.claims + 1,
            run,
            storageKey: file!.key,
            pageCount: file!.pages,
          };
        }
        return undefined;
      });
    },
    async renewLease(queueMessageId, workerId, leaseUntil) {
      const renewed = await sql.run(
        'UPDATE run_queue SET lease_until = ? WHERE id = ? AND lease_owner = ? AND done_at IS NULL',
        [leaseUntil, queueMessageId, workerId],
      );
      return renewed === 1;
    },
    async releaseLease(queueMessageId, workerId, availableAt) {
      // an entry is claimable once its lease_until has passed: a release with no owner and a time to come
      // holds it back until then
      await sql.run(
        `UPDATE run_queue SET lease_owner = NULL, lease_until = ?, claims = claims - 1
         WHERE id = ? AND lease_owner = ? AND done_at IS NULL`,
        [availableAt ?? null, queueMessageId, workerId],
      );
    },
    async anyWaiting(now) {
      const found = await sql.get<{ one: number }>(
        `SELECT 1 AS one FROM run_queue WHERE ${waitingAt('?')} AND ${CLAIMABLE_TENANT} LIMIT 1`,
        [now],
      );
      return found !== undefined;
    },
    async queueStats(now) {
      const byStatus = Object.fromEntries(
        (
          await sql.all<{ status: RunStatus; n: number }>(
            'SELECT status, CAST(SUM(n) AS bigint) AS n FROM run_counts GROUP BY status',
          )
        ).map((r) => [r.status, r.n]),
      );
      const open = await sql.get<{ n: number; oldest: string | null }>(
        `SELECT CAST(COUNT(*) AS bigint) AS n, MIN(enqueued_at) AS oldest FROM run_queue
         WHERE ${waitingAt('?')}`,
        [now],
      );
      return { byStatus, waiting: open?.n ?? 0, oldestWaitingAt: open?.oldest ?? null };
    },
    async saveProgress(queueMessageId, workerId, p) {
      return sql.transaction(async (tx) => {
        const held = await heldRun(tx, queueMessageId, workerId, '');
        if (!held) return false;
        const locked = await lockedRun(tx, 'id = ? AND queue_message_id = ?', [held.run_id, queueMessageId]);
        if (locked) await write(tx, lifecycle.progress(locked.run, p));
        return true;
      });
    },
    async finish(queueMessageId, workerId, outcome, booking) {
      return transact(async (tx) => {
        const held = await heldRun(tx, queueMessageId, workerId, sql.text.rowLock('wait'));
        if (!held) return false;
        const locked = (await lockedRun(tx, 'id = ?', [held.run_id]))!;
        // the lease held means the entry is the run's own: a cancel or rerun would have ended it
        if (locked.run.queue_message_id !== queueMessageId)
          throw new Error(`run ${held.run_id} is not under queue entry ${queueMessageId}`);
        await tx.run('UPDATE run_queue SET done_at = ?, lease_until = NULL WHERE id = ?', [
          outcome.completed_at,
          queueMessageId,
        ]);
        await apply(tx, locked, lifecycle.finish(locked.run, outcome), outcome.completed_at);
        // the queue entry id makes the booking unique: a retried finish cannot book twice
        if (booking) await writeLedger(tx, booking, queueMessageId);
        return true;
      });
    },
  };
  return { repo, changes };
}
