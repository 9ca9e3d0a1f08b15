import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from '../logger.js';
import { multiplyMinor } from '../revenue/money.js';
import {
  type ClaimedRun,
  type LedgerEntry,
  LedgerRangeError,
  type RunOutcome,
  type RunProgress,
  type Store,
} from '../store/types.js';
import type { Clock } from '../time.js';
import { type ExecutionDeps, ExecutionStopped, executeRun, progressOf } from './execute.js';

export interface RunnerOptions {
  /** Runs executed at once by this process. */
  concurrency: number;
  leaseMs: number;
  pollMs: number;
  /** A queue entry claimed this many times (its workers kept dying) fails instead of running again. */
  maxClaims: number;
}

const PROGRESS_WRITE_MS = 250;

/**
 * Claims queued runs under a lease, executes them and finishes them. Any number of runners, in this process
 * or others sharing the database, can work the same queue: the lease decides who holds a run, and a run
 * whose runner died is claimed again once its lease lapses.
 */
export class RunWorker {
  readonly workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private active = 0;
  private stopping = false;
  /** A fill is claiming: a nudge meanwhile makes it look again rather than start a second fill. */
  private filling = false;
  private lookAgain = false;
  private timer?: NodeJS.Timeout;
  private unwatch: () => void = () => undefined;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly store: Store,
    private readonly deps: ExecutionDeps,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly options: RunnerOptions,
  ) {}

  start(): void {
    // runs queued by other processes wake this one at once where the engine can tell; polling covers the rest
    this.unwatch = this.store.runs.watch(() => this.nudge());
    this.schedule(0);
  }

  /**
   * Claim now rather than at the next poll (called when this process queued a run, or the engine heard of
   * one). A claim already on its way may have looked before the run was queued (a PostgreSQL round trip):
   * it looks again when it is done, instead of leaving the run to the next poll.
   */
  nudge(): void {
    if (this.stopping) return;
    if (this.filling) this.lookAgain = true;
    else this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.unwatch();
    clearTimeout(this.timer);
    await Promise.allSettled([...this.inFlight]);
  }

  private schedule(delay: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.fill(), delay);
    this.timer.unref();
  }

  private async fill(): Promise<void> {
    // one fill at a time: two would each see a free slot and claim past the concurrency
    if (this.filling) {
      this.lookAgain = true;
      return;
    }
    this.filling = true;
    try {
      do {
        this.lookAgain = false;
        while (!this.stopping && this.active < this.options.concurrency) {
          const now = this.clock.now();
          const claim = await this.store.runs.claim(
            this.workerId,
            now.toISOString(),
            new Date(now.getTime() + this.options.leaseMs).toISOString(),
          );
          if (!claim) break;
          this.active++;
          const job = this.process(claim).finally(() => {
            this.active--;
            this.inFlight.delete(job);
            this.nudge();
          });
          this.inFlight.add(job);
        }
      } while (this.lookAgain && !this.stopping);
    } catch (error) {
      this.logger.error({ err: error }, 'claiming runs failed');
    } finally {
      this.filling = false;
    }
    if (!this.stopping) this.schedule(this.options.pollMs);
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
    let lost = false;
    let pending: RunProgress | undefined;
    let lastWrite = 0;
    const renew = setInterval(
      async () => {
        const until = new Date(this.clock.now().getTime() + this.options.leaseMs).toISOString();
        try {
          if (!(await this.store.runs.renewLease(claim.queueMessageId, this.workerId, until))) lost = true;
        } catch (error) {
          log.warn({ err: error }, 'lease renewal failed');
        }
      },
      Math.max(50, Math.floor(this.options.leaseMs / 3)),
    );
    const flush = async () => {
      if (!pending) return;
      const progress = pending;
      pending = undefined;
      lastWrite = Date.now();
      if (!(await this.store.runs.saveProgress(claim.queueMessageId, this.workerId, progress))) lost = true;
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
          completed_at: this.clock.now().toISOString(),
        };
      } else {
        outcome = await executeRun(claim, this.deps, {
          onProgress: (progress) => {
            pending = progress;
            if (Date.now() - lastWrite >= PROGRESS_WRITE_MS) void flush().catch(() => undefined);
          },
          stopped: () => lost || this.stopping,
        });
      }
      let finished: boolean;
      try {
        finished = await this.store.runs.finish(
          claim.queueMessageId,
          this.workerId,
          outcome,
          await this.booking(claim, outcome),
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
        };
        finished = await this.store.runs.finish(claim.queueMessageId, this.workerId, outcome, null);
      }
      if (!finished) log.warn('run finished elsewhere: the lease was lost');
      else log.info({ status: outcome.status, points: outcome.points_consumed }, 'run finished');
    } catch (error) {
      if (error instanceof ExecutionStopped) {
        if (this.stopping) {
          await this.store.runs.releaseLease(claim.queueMessageId, this.workerId);
          log.info('run handed back to the queue: this worker is stopping');
        } else log.info('run execution stopped: it was cancelled, or its lease passed to another worker');
      } else log.error({ err: error }, 'run execution failed; it will be retried when its lease lapses');
    } finally {
      clearInterval(renew);
    }
  }

  /** The tech revenue of an execution: its points at the tenant's price, booked with the finish. */
  private async booking(claim: ClaimedRun, outcome: RunOutcome): Promise<LedgerEntry | null> {
    if (outcome.points_consumed <= 0) return null;
    const tenant = await this.store.tenants.get(claim.run.tenant_id);
    if (!tenant || tenant.price_per_point === 0) return null;
    return {
      id: randomUUID(),
      tenant_id: tenant.id,
      type: 'tech',
      amount: multiplyMinor(outcome.points_consumed, tenant.price_per_point),
      currency: tenant.currency,
      description: `Diagnosis run ${claim.run.id} (${claim.run.target}, attempt ${claim.run.attempt}): ${outcome.points_consumed} points`,
      source: 'run',
      run_id: claim.run.id,
      external_id: null,
      occurred_at: outcome.completed_at,
      created_at: outcome.completed_at,
    };
  }
}
