import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from '../logger.js';
import type { RunBooking } from '../revenue/run-booking.js';
import { BlobUnavailableError } from '../blobs/blob-store.js';
import {
  type ClaimedRun,
  LedgerRangeError,
  type RunOutcome,
  type RunProgress,
  type RunQueue,
  StoreUnavailableError,
} from '../store/types.js';
import type { Clock } from '../time.js';
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
}

const PROGRESS_WRITE_MS = 250;
/** A run the database or the file store could not serve is tried again this much later. */
export const OUTAGE_RETRY_MS = 1000;

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
            pending = progress;
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
      if (!finished) log.warn('run finished elsewhere: the lease was lost');
      else log.info({ status: outcome.status, points: outcome.points_consumed }, 'run finished');
    } catch (error) {
      if (error instanceof ExecutionStopped) {
        if (this.stopping) {
          await this.queue.releaseLease(claim.queueMessageId, this.workerId);
          log.info('run handed back to the queue: this worker is stopping');
        } else log.info('run execution stopped: it was cancelled, or its lease passed to another worker');
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
}
