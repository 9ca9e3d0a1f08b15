import type { RunOptions, RunRepo, RunRow, RunStatus } from '../types.js';
import type { SqlDialect, SqlSession, SqlValue } from './dialect.js';
import type { Transact, WorkSession } from './unit-of-work.js';
import { RUN_COLUMNS } from './run-rules.js';

/**
 * What the shared run repository (runs.ts) and each engine's runs (sqlite/runs.ts, postgres/runs.ts) both use:
 * a run's columns and values, the queue cap, and what an engine brings (`RunEngine`). The repository hands
 * the engine its part; neither calls back into the other.
 */

/** A run's columns in RUN_COLUMNS' order, as both engines select them. */
export const RUN = RUN_COLUMNS.join(', ');

/** A run as the engine returns it: SQLite's JSON columns are text, PostgreSQL's jsonb arrives parsed. */
export type RunRecord = Omit<RunRow, 'output_files' | 'options'> & {
  output_files: string | string[];
  options: string | RunOptions;
};

type Counted = Pick<RunRow, 'tenant_id' | 'target'> & { seq: number };

export function toRun(row: RunRecord & { seq?: number }): RunRow;
export function toRun(row: (RunRecord & { seq?: number }) | undefined): RunRow | undefined;
export function toRun(row: (RunRecord & { seq?: number }) | undefined): RunRow | undefined {
  if (!row) return undefined;
  const { seq: _seq, ...run } = row;
  return {
    ...run,
    output_files:
      typeof run.output_files === 'string' ? (JSON.parse(run.output_files) as string[]) : run.output_files,
    options: typeof run.options === 'string' ? (JSON.parse(run.options) as RunOptions) : run.options,
  };
}

/** The run's column values in RUN_COLUMNS' order, its JSON columns as text (PostgreSQL's jsonb takes it). */
export function runValues(run: RunRow): SqlValue[] {
  return [
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
}

/**
 * Below this many queued runs short of the cap, a change that queues a run checks the cap without taking
 * the tenant's turn (they then never wait on each other); closer to it they take turns, so the cap is exact.
 */
export const CAP_MARGIN = 64;

export async function queuedCount(tx: SqlSession, tenantId: string): Promise<number> {
  const row = await tx.get<{ n: number }>(
    `SELECT CAST(COALESCE(SUM(n), 0) AS bigint) AS n FROM run_counts WHERE tenant_id = ? AND status = 'queued'`,
    [tenantId],
  );
  return row?.n ?? 0;
}

/** The key under which a tenant's changes that queue runs take turns near the cap. */
export const queueTurn = (tenantId: string): string => `runs:${tenantId}`;

/** Whether the tenant may queue one more run: fewer than `maxQueued` are queued. */
export async function roomInQueue(
  sql: SqlDialect,
  tx: SqlSession,
  tenantId: string,
  maxQueued: number,
): Promise<boolean> {
  let queued = await queuedCount(tx, tenantId);
  if (queued >= maxQueued - CAP_MARGIN) {
    await sql.takeTurn(tx, queueTurn(tenantId));
    queued = await queuedCount(tx, tenantId);
  }
  return queued < maxQueued;
}

/** What differs between the engines' runs: the sequence, the counters and the blocks the list reads. */
export interface RunEngine {
  /**
   * Inserts the run, its queue entry, its counters and the run.created event in the unit's transaction
   * (RunChanges.create); the engine's own, as its sequence and its blocks are.
   */
  create(tx: WorkSession, run: RunRow, maxQueued: number): Promise<'created' | 'over_limit'>;
  /** The creation alone, with nothing else in its transaction (RunRepo.create): `transact`'s own. */
  createAlone(transact: Transact, run: RunRow, maxQueued: number): Promise<'created' | 'over_limit'>;
  /** The list (RunRepo.list), over the engine's blocks. */
  list: RunRepo['list'];
  /** Moves one run between the status counters, inside the caller's transaction. */
  move(tx: SqlSession, run: Counted, from: RunStatus, to: RunStatus): Promise<void>;
  /** After a commit that queued a run: wakes the workers that can hear it. */
  queued(): void;
  watch: RunRepo['watch'];
}
