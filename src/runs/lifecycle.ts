import type { RunRow, RunStatus } from '../records/run.js';
import type { RunChange, RunLifecycle, RunOutcome, RunProgress } from '../store/types.js';

/**
 * What each step of a run's life makes of it, as functions from the run (and the step's input) to the run
 * after it and its event, or the reason it is refused. The store applies them inside its transactions, on
 * the run read under its lock; nothing here reads or writes anything.
 *
 *   queued --start--> running --finish--> succeeded | failed
 *   queued | running --cancel--> cancelled
 *   succeeded | failed | cancelled --rerun--> queued (a new attempt)
 */

export const CANCELLED_MESSAGE = 'The run was cancelled';

const ACTIVE: readonly RunStatus[] = ['queued', 'running'];

/** A run that has not ended: only it can be cancelled, and it cannot be rerun. */
function isActive(status: RunStatus): boolean {
  return ACTIVE.includes(status);
}

/** What every attempt starts from: queued, nothing done, nothing charged, nothing written. */
function freshAttempt() {
  return {
    status: 'queued',
    started_at: null,
    completed_at: null,
    error: null,
    error_code: null,
    output_files: [],
    points_consumed: 0,
    progress: 0,
    total_tasks: 0,
    completed_tasks: 0,
    failed_tasks: 0,
  } satisfies Partial<RunRow>;
}

/** What a run is given when it is created; the rest is its first attempt's start. */
export type NewRun = Omit<RunRow, keyof ReturnType<typeof freshAttempt> | 'attempt'>;

/** A new run, queued as its first attempt (its event, run.created, is the creation's). */
export function create(fields: NewRun): RunRow {
  return { ...fields, ...freshAttempt(), attempt: 1 };
}

export function rerun(run: RunRow, queueMessageId: string): RunChange | 'conflict' {
  if (isActive(run.status)) return 'conflict';
  return {
    run: { ...run, ...freshAttempt(), attempt: run.attempt + 1, queue_message_id: queueMessageId },
    event: 'run.requeued',
  };
}

export function cancel(run: RunRow, at: string): RunChange | 'conflict' {
  if (!isActive(run.status)) return 'conflict';
  return {
    run: {
      ...run,
      status: 'cancelled',
      error: CANCELLED_MESSAGE,
      error_code: 'cancelled',
      points_consumed: 0,
      output_files: [],
      completed_at: at,
    },
    event: 'run.cancelled',
  };
}

export function start(run: RunRow, at: string): RunChange | undefined {
  if (run.status !== 'queued') return undefined;
  return { run: { ...run, status: 'running', started_at: run.started_at ?? at }, event: 'run.started' };
}

/** The counters never go backwards within an attempt: a run taken over holds them until passed. */
export function progress(run: RunRow, p: RunProgress): RunRow {
  return {
    ...run,
    total_tasks: p.total_tasks,
    completed_tasks: Math.max(run.completed_tasks, p.completed_tasks),
    failed_tasks: Math.max(run.failed_tasks, p.failed_tasks),
    progress: Math.max(run.progress, p.progress),
  };
}

export function finish(run: RunRow, outcome: RunOutcome): RunChange {
  return {
    run: {
      ...run,
      status: outcome.status,
      total_tasks: outcome.total_tasks,
      completed_tasks: outcome.completed_tasks,
      failed_tasks: outcome.failed_tasks,
      progress: outcome.progress,
      points_consumed: outcome.points_consumed,
      output_files: outcome.output_files,
      error: outcome.error,
      error_code: outcome.error_code,
      completed_at: outcome.completed_at,
    },
    event: `run.${outcome.status}`,
  };
}

/** The lifecycle as the store is given it. */
export const runLifecycle: RunLifecycle = { rerun, cancel, start, progress, finish };
