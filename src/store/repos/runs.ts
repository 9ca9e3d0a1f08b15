import type { Schemas } from '../../contract/schemas.js';
import type { JsonText } from '../../records/json-text.js';
import type { RunErrorCode, RunRow, RunStatus } from '../../records/run.js';
import type { LedgerEntry } from '../../records/transaction.js';
import type { EventType } from '../../records/event.js';

/** Runs as tenants see them, and the queue workers take them from. Part of the storage layer's contract (../types.ts). */

export interface RunFilter {
  status?: RunStatus;
  target?: string;
  keyword?: string;
}

export interface Page<T> {
  items: T[];
  total: number;
}

/** A queue entry a worker holds under a lease. */
export interface ClaimedRun {
  queueMessageId: string;
  /** How many times this queue entry has been claimed, this claim included. */
  claims: number;
  run: RunRow;
  storageKey: string;
  /** The file's page count as its upload read it; null when the upload could not tell. */
  pageCount: number | null;
}

export interface RunProgress {
  total_tasks: number;
  completed_tasks: number;
  failed_tasks: number;
  progress: number;
}

export interface RunOutcome extends RunProgress {
  status: 'succeeded' | 'failed';
  points_consumed: number;
  output_files: string[];
  error: string | null;
  /** Set with `error`: what ended the run, for programs. */
  error_code: RunErrorCode | null;
  completed_at: string;
}

/** What a status change makes of a run: the run after it, and the event that tells of it. */
export interface RunChange {
  run: RunRow;
  event: EventType;
}

/**
 * The run lifecycle's rules, which the store applies inside its transactions (src/runs/lifecycle.ts
 * implements them; the store is given them when it opens): each takes the run as it is, read under its lock,
 * and answers the whole run after the change, or why there is none. The store writes what they answer,
 * moves the counters and records the event; it decides nothing of a run's fields.
 */
export interface RunLifecycle {
  /** A finished run queued again as a new attempt under `queueMessageId`; 'conflict' while it is active. */
  rerun(run: RunRow, queueMessageId: string): RunChange | 'conflict';
  /** An active run ended as cancelled; 'conflict' once it has ended. */
  cancel(run: RunRow, at: string): RunChange | 'conflict';
  /** A claimed run's start; undefined when it had started already (a run taken over after its worker died). */
  start(run: RunRow, at: string): RunChange | undefined;
  /** Progress while the run executes. */
  progress(run: RunRow, progress: RunProgress): RunRow;
  /** The execution's end. */
  finish(run: RunRow, outcome: RunOutcome): RunChange;
}

/**
 * What a unit of work (./unit-of-work.ts) changes of a tenant's runs, inside its transaction: the run, its
 * queue entry and its counters, and the event of the change (the lifecycle's), emitted through the unit.
 */
export interface RunChanges {
  /**
   * Inserts the run and its queue entry, unless the tenant already has `maxQueued` runs queued: then
   * nothing is written and the answer is 'over_limit'.
   */
  create(run: RunRow, maxQueued: number): Promise<'created' | 'over_limit'>;
  /**
   * Resets a finished (succeeded, failed or cancelled) run and queues it again; 'conflict' when it is queued
   * or running, 'over_limit' when the tenant has `maxQueued` runs queued.
   */
  rerun(
    runId: string,
    queueMessageId: string,
    at: string,
    maxQueued: number,
  ): Promise<RunRow | 'conflict' | 'over_limit' | undefined>;
  /**
   * Ends a queued or running run as cancelled: its queue entry is done, so the worker holding it loses its
   * lease, cannot finish it and books nothing. 'conflict' for any other status.
   */
  cancel(runId: string, at: string): Promise<RunRow | 'conflict' | undefined>;
}

/** Runs as tenants see them, and as the queue ends them: the records and the queue commit together. */
export interface RunRepo extends RunQueue {
  /**
   * RunChanges.create as a unit of its own, for a creation that records nothing else (a request without an
   * idempotency key): far from the tenant's cap it is one statement on PostgreSQL, outside a transaction.
   */
  create(run: RunRow, maxQueued: number): Promise<'created' | 'over_limit'>;
  get(tenantId: string, runId: string): Promise<RunRow | undefined>;
  /**
   * Newest first; each item is a run record serialized as the contract's Run. With `startingAfter` (a run
   * id of the tenant's) the list starts right after that run, `offset` counting from there, at the cost of
   * a first page whatever the depth; undefined when the tenant has no such run. A filter holding U+0000
   * matches nothing (no stored text holds it). `lastId` is the id of the
   * page's last run when more runs follow it.
   */
  list(
    tenantId: string,
    filter: RunFilter,
    limit: number,
    offset: number,
    startingAfter?: string,
  ): Promise<(Page<JsonText<Schemas['Run']>> & { lastId: string | null }) | undefined>;
  /** Whether a claim at `now` would find an entry (of any tenant not suspended). */
  anyWaiting(now: string): Promise<boolean>;
  /**
   * Across all tenants, for operators: runs by status, and the entries waiting for a worker at `now` (not
   * leased, or leased until before it).
   */
  queueStats(now: string): Promise<{
    byStatus: Partial<Record<RunStatus, number>>;
    waiting: number;
    oldestWaitingAt: string | null;
  }>;
}

/**
 * The run queue as a worker sees it: an entry is claimed under a lease, the lease renewed while the work
 * goes on, and the work finished (or handed back) by the lease's holder only. A worker that lost its lease
 * can change nothing.
 */
export interface RunQueue {
  /**
   * Takes an available queue entry under a lease (a new one, or one whose lease expired), fair across
   * tenants: the tenant with the fewest runs under lease goes first, then the oldest entry of that tenant.
   */
  claim(workerId: string, now: string, leaseUntil: string): Promise<ClaimedRun | undefined>;
  /**
   * Calls `onQueued` when a run may have been queued by any process, sooner than a worker's next poll;
   * returns the unsubscribe. An engine with no way to hear other processes never calls it (workers poll).
   */
  watch(onQueued: () => void): () => void;
  /** Extends the lease; false when the worker lost it. */
  renewLease(queueMessageId: string, workerId: string, leaseUntil: string): Promise<boolean>;
  /**
   * Hands a run back to the queue (a worker shutting down, or one that could not reach the database or the
   * file store): the next claim does not count. Claimable again at once, or from `availableAt`.
   */
  releaseLease(queueMessageId: string, workerId: string, availableAt?: string): Promise<void>;
  /**
   * Records progress while the lease is held. `progress` never goes backwards within an attempt: a run
   * taken over after its worker died holds its percentage until the new execution passes it.
   */
  saveProgress(queueMessageId: string, workerId: string, progress: RunProgress): Promise<boolean>;
  /**
   * Finishes the execution, marks the queue entry done and books its revenue, in one transaction and at
   * most once per queue entry: a repeated call is a no-op that returns false.
   */
  finish(
    queueMessageId: string,
    workerId: string,
    outcome: RunOutcome,
    booking: LedgerEntry | null,
  ): Promise<boolean>;
}
