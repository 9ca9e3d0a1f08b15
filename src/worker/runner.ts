import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from '../kernel/logger.js';
import type { RunBooking } from '../revenue/run-booking.js';
import { BlobUnavailableError } from '../blobs/blob-store.js';
import { isDiskFull } from '../blobs/disk-full.js';
import {
  type ClaimedRun,
  LedgerRangeError,
  type RunOutcome,
  type RunProgress,
  type RunErrorCode,
  type RunQueue,
  StoreUnavailableError,
} from '../store/types.js';
import type { Clock } from '../kernel/time.js';
import { ClaimLoop, keepLease, type LeaseKeeping } from '../queue/claim-loop.js';
import { type ExecutionDeps, ExecutionStopped, executeRun, progressOf } from './execute.js';

export interface RunnerOptions {
  /** Runs executed at once by this process. */
  concurrency: number;
  leaseMs: number;
  pollMs: number;
  /** A queue entry claimed this many times (its workers kept dying) fails instead of running again. */
  maxClaims: number;
  /** Who renews a run's lease while it executes: this event loop, unless said otherwise. */
  leases?: LeaseKeeping;
  /** The waits before each retry of a run that found the disk full (default DISK_FULL_RETRY_MS). */
  diskFullRetryMs?: readonly number[];
}

const PROGRESS_WRITE_MS = 250;
/** A run the database or the file store could not serve is tried again this much later. */
export const OUTAGE_RETRY_MS = 1000;

/**
 * A run that found the disk full (its outputs, or the database beside them) waits in the queue this long
 * before each retry, and fails as `storage_full` when the disk is still full after the last: a full disk
 * may free itself within seconds (an upload's temporary file removed, the sweep), or wait for an operator,
 * and a run that looks `running` meanwhile must not look so for long: 3.5 s in all, so that the run ends
 * within seconds with a reason the user can read, and is rerun once space is back.
 */
export const DISK_FULL_RETRY_MS: readonly number[] = [500, 1000, 2000];
/** Runs of this process waiting for space that it remembers (a run ended elsewhere is forgotten later). */
const DISK_FULL_REMEMBERED = 1000;

const STORAGE_FULL: RunErrorCode = 'storage_full';

/** What a run that never found space for its outputs ends with. */
function storageFullOutcome(progress: RunProgress, tries: number, at: string): RunOutcome {
  return {
    ...progress,
    status: 'failed',
    points_consumed: 0,
    output_files: [],
    error: `The server's disk is full: the run's outputs could not be written (tried ${tries} times); rerun it later`,
    error_code: STORAGE_FULL,
    completed_at: at,
  };
}

/** The database or the file store did not answer: nothing about the run itself went wrong. */
function isOutage(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause)
    if (cause instanceof StoreUnavailableError || cause instanceof BlobUnavailableError) return true;
  return false;
}

/**
 * Claims queued runs under a lease, executes them and finishes them. Any number of runners, in this process
 * or others sharing the database, can work the same queue: the lease decides who holds a run, and a run
 * whose runner died is claimed again once its lease lapses.
 */
export class RunWorker {
  readonly workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly loop: ClaimLoop<ClaimedRun>;
  /** How many times each queue entry found the disk full (here: in this process), to bound its retries. */
  private readonly diskFullTries = new Map<string, number>();

  constructor(
    private readonly queue: RunQueue,
    /** revenue's rule for what a finished execution books (with the finish, in its transaction) */
    private readonly booking: RunBooking,
    private readonly deps: ExecutionDeps,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly options: RunnerOptions,
  ) {
    this.loop = new ClaimLoop<ClaimedRun>(
      {
        claim: async () => {
          const now = this.clock.now();
          const claim = await this.queue.claim(
            this.workerId,
            now.toISOString(),
            new Date(now.getTime() + this.options.leaseMs).toISOString(),
          );
          return claim ? [claim] : [];
        },
        process: (claim) => this.process(claim),
        // runs queued by other processes wake this one at once where the engine can tell; polling covers the rest
        watch: (wake) => this.queue.watch(wake),
      },
      { concurrency: options.concurrency, pollMs: options.pollMs },
      logger,
      'runs',
    );
  }

  start(): void {
    this.loop.start();
  }

  /** Claim now rather than at the next poll (this process queued a run, or the engine heard of one). */
  nudge(): void {
    this.loop.nudge();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }

  private get stopping(): boolean {
    return this.loop.stopped;
  }

  private async process(claim: ClaimedRun): Promise<void> {
    const log = this.logger.child({ run_id: claim.run.id, queue_message_id: claim.queueMessageId });
    log.debug(
      {
        tenant_id: claim.run.tenant_id,
        target: claim.run.target,
        attempt: claim.run.attempt,
        claims: claim.claims,
      },
      'run claimed',
    );
    let pending: RunProgress | undefined;
    let latest: RunProgress | undefined;
    let lastWrite = 0;
    const keeping: LeaseKeeping =
      this.options.leases ?? ((_id, renew, leaseMs, onError) => keepLease(renew, leaseMs, onError));
    const lease = keeping(
      claim.queueMessageId,
      () =>
        this.queue.renewLease(
          claim.queueMessageId,
          this.workerId,
          new Date(this.clock.now().getTime() + this.options.leaseMs).toISOString(),
        ),
      this.options.leaseMs,
      (error) => log.warn({ err: error }, 'lease renewal failed'),
    );
    const flush = async () => {
      if (!pending) return;
      const progress = pending;
      pending = undefined;
      lastWrite = Date.now();
      if (!(await this.queue.saveProgress(claim.queueMessageId, this.workerId, progress))) lease.markLost();
    };
    try {
      let outcome: RunOutcome;
      if (claim.claims > this.options.maxClaims) {
        outcome = {
          ...progressOf(0, 0, 0),
          status: 'failed',
          points_consumed: 0,
          output_files: [],
          error: `The run was interrupted ${claim.claims - 1} times and was given up`,
          error_code: 'interrupted',
          completed_at: this.clock.now().toISOString(),
        };
      } else {
        outcome = await executeRun(claim, this.deps, {
          onProgress: (progress) => {
            pending = latest = progress;
            if (Date.now() - lastWrite >= PROGRESS_WRITE_MS) void flush().catch(() => undefined);
          },
          stopped: () => lease.lost() || this.stopping,
        });
      }
      let finished: boolean;
      try {
        finished = await this.queue.finish(
          claim.queueMessageId,
          this.workerId,
          outcome,
          await this.booking(claim.run, outcome),
        );
      } catch (error) {
        if (!(error instanceof LedgerRangeError)) throw error;
        // its revenue cannot be booked exactly: the run fails and books nothing, rather than retrying for ever
        outcome = {
          ...outcome,
          status: 'failed',
          points_consumed: 0,
          output_files: [],
          error: `The run's revenue would carry the tenant's ledger past ${Number.MAX_SAFE_INTEGER} minor units; nothing was booked`,
          error_code: 'ledger_overflow',
        };
        finished = await this.queue.finish(claim.queueMessageId, this.workerId, outcome, null);
      }
      this.diskFullTries.delete(claim.queueMessageId);
      if (!finished) log.warn('run finished elsewhere: the lease was lost');
      else log.info({ status: outcome.status, points: outcome.points_consumed }, 'run finished');
    } catch (error) {
      if (error instanceof ExecutionStopped) {
        if (this.stopping) {
          await this.queue.releaseLease(claim.queueMessageId, this.workerId);
          log.info('run handed back to the queue: this worker is stopping');
        } else log.info('run execution stopped: it was cancelled, or its lease passed to another worker');
      } else if (isDiskFull(error)) {
        await this.waitForSpace(claim, latest ?? progressOf(0, 0, 0), error, log);
      } else if (isOutage(error)) {
        // an outage is no interruption of the run: handed back uncounted, so that it never fails as
        // 'interrupted' for an outage however long; while the database itself is away, the release fails
        // too and the lease lapses as for a dead worker
        const retryAt = new Date(this.clock.now().getTime() + OUTAGE_RETRY_MS).toISOString();
        const released = await this.queue
          .releaseLease(claim.queueMessageId, this.workerId, retryAt)
          .then(() => true)
          .catch(() => false);
        log.warn(
          { err: error },
          released
            ? 'run handed back to the queue: the database or the file store did not answer'
            : 'run execution failed in an outage; it will be retried when its lease lapses',
        );
      } else log.error({ err: error }, 'run execution failed; it will be retried when its lease lapses');
    } finally {
      lease.stop();
    }
  }

  /**
   * The disk was full (the run's outputs, or the database): the run goes back to the queue uncounted, to
   * be tried again after the next wait of DISK_FULL_RETRY_MS, and fails as `storage_full` once they are
   * spent. Either within seconds, never the lease's 30 s: nothing crashed and no lease was lost.
   */
  private async waitForSpace(
    claim: ClaimedRun,
    progress: RunProgress,
    error: unknown,
    log: Logger,
  ): Promise<void> {
    const id = claim.queueMessageId;
    const waits = this.options.diskFullRetryMs ?? DISK_FULL_RETRY_MS;
    const tries = (this.diskFullTries.get(id) ?? 0) + 1;
    this.diskFullTries.delete(id);
    if (tries <= waits.length) {
      // re-inserted last: the oldest remembered run is the first forgotten
      this.diskFullTries.set(id, tries);
      for (const oldest of this.diskFullTries.keys()) {
        if (this.diskFullTries.size <= DISK_FULL_REMEMBERED) break;
        this.diskFullTries.delete(oldest);
      }
      const waitMs = waits[tries - 1]!;
      const retryAt = new Date(this.clock.now().getTime() + waitMs).toISOString();
      const released = await this.queue
        .releaseLease(id, this.workerId, retryAt)
        .then(() => true)
        .catch(() => false);
      log.warn(
        { err: error, try: tries, retry_in_ms: waitMs },
        released
          ? `the disk is full: the run could not write its outputs and waits in the queue, tried again in ${waitMs / 1000} s (${tries} of ${waits.length})`
          : 'the disk is full, and the run could not be handed back either; it will be retried when its lease lapses',
      );
      return;
    }
    const outcome = storageFullOutcome(progress, tries, this.clock.now().toISOString());
    try {
      const finished = await this.queue.finish(id, this.workerId, outcome, null);
      log.error(
        { err: error, tries },
        finished
          ? `the disk is full: the run could not write its outputs after ${tries} tries and failed as storage_full`
          : 'the disk is full: the run could not write its outputs, and it was finished elsewhere',
      );
    } catch (finishing) {
      log.error(
        { err: finishing, cause: error },
        'the disk is full: the run could not write its outputs nor be finished; it will be retried when its lease lapses',
      );
    }
  }
}
