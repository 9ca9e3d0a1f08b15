import type { Logger } from '../kernel/logger.js';
import { systemTimers, type Timers } from '../kernel/time.js';

export interface ClaimLoopOptions {
  /** Jobs processed at once by this loop. */
  concurrency: number;
  /** How often the queue is looked at when nothing woke the loop. */
  pollMs: number;
  /**
   * A job that ends claims again once this many slots are free (default 1): a queue of short jobs claims in
   * batches, one transaction for several jobs, instead of one per job.
   */
  refillWhenFree?: number;
}

export interface ClaimLoopWork<Job> {
  /** Takes up to `free` jobs under a lease (fewer, or none, when there are none due). */
  claim(free: number): Promise<Job[]>;
  process(job: Job): Promise<void>;
  /** Subscribes to "work may have been queued" from the store; returns the unsubscribe. */
  watch?(wake: () => void): () => void;
}

/**
 * The leasing loop a queue's workers share (runs, webhook deliveries): claim while there are free slots,
 * process each job, claim again when one ends, when the store says work may be waiting, and at each poll.
 * The lease itself is the queue's (its repository); `keepLease` renews it while a job runs.
 */
export class ClaimLoop<Job> {
  private active = 0;
  private stopping = false;
  /** A fill is claiming: a nudge meanwhile makes it look again rather than start a second fill. */
  private filling = false;
  private lookAgain = false;
  /** The fill under way: a stop waits for its claim, whose jobs are leased to this loop by then. */
  private filled: Promise<void> = Promise.resolve();
  private timer?: NodeJS.Timeout;
  private soon?: NodeJS.Immediate;
  private unwatch: () => void = () => undefined;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly work: ClaimLoopWork<Job>,
    private readonly options: ClaimLoopOptions,
    private readonly logger: Logger,
    private readonly what: string,
  ) {}

  get stopped(): boolean {
    return this.stopping;
  }

  start(): void {
    this.unwatch = this.work.watch?.(() => this.nudge()) ?? (() => undefined);
    this.schedule(0);
  }

  /**
   * Claim now rather than at the next poll. A claim already on its way may have looked before the work was
   * queued (a PostgreSQL round trip): it looks again when it is done, instead of leaving it to the next poll.
   */
  nudge(): void {
    if (this.stopping) return;
    if (this.filling) this.lookAgain = true;
    else this.schedule(0);
  }

  /**
   * Jobs claimed elsewhere, in the transaction that recorded the jobs whose slots they take (those are done
   * but not yet counted out): processed at once.
   */
  offer(jobs: Job[]): void {
    if (this.stopping) return;
    for (const job of jobs) this.run(job);
  }

  /** Slots a claim may fill now. */
  get free(): number {
    return this.stopping ? 0 : Math.max(0, this.options.concurrency - this.active);
  }

  private run(claimed: Job): void {
    this.active++;
    const job = this.work
      .process(claimed)
      .catch((error: unknown) => this.logger.error({ err: error }, `${this.what} failed`))
      .finally(() => {
        this.active--;
        this.inFlight.delete(job);
        if (this.options.concurrency - this.active >= (this.options.refillWhenFree ?? 1)) this.nudge();
      });
    this.inFlight.add(job);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.unwatch();
    clearTimeout(this.timer);
    if (this.soon) clearImmediate(this.soon);
    // a claim on its way when the stop came still leases its jobs: they are processed, not left to lapse
    // (each claim counts towards a run's attempts, and its lease would hold the job for RUN_LEASE_MS)
    await this.filled;
    await Promise.allSettled([...this.inFlight]);
  }

  private schedule(delay: number): void {
    clearTimeout(this.timer);
    if (delay === 0) {
      // at once means this turn of the event loop's end, not a timer's millisecond later
      this.soon ??= setImmediate(() => {
        this.soon = undefined;
        void this.fill();
      });
      return;
    }
    this.timer = setTimeout(() => void this.fill(), delay);
    this.timer.unref();
  }

  private fill(): Promise<void> {
    // one fill at a time: two would each see a free slot and claim past the concurrency
    if (this.filling) {
      this.lookAgain = true;
      return this.filled;
    }
    this.filling = true;
    this.filled = this.claimWhileFree();
    return this.filled;
  }

  private async claimWhileFree(): Promise<void> {
    try {
      do {
        this.lookAgain = false;
        while (!this.stopping && this.active < this.options.concurrency) {
          const jobs = await this.work.claim(this.options.concurrency - this.active);
          if (jobs.length === 0) break;
          for (const claimed of jobs) this.run(claimed);
        }
      } while (this.lookAgain && !this.stopping);
    } catch (error) {
      this.logger.error({ err: error }, `claiming ${this.what} failed`);
    } finally {
      this.filling = false;
    }
    if (!this.stopping) this.schedule(this.options.pollMs);
  }
}

/** A lease held while its work goes on. */
export interface HeldLease {
  lost(): boolean;
  markLost(): void;
  stop(): void;
}

/**
 * Who keeps a lease while its work goes on: by default a timer beside the work (`keepLease`); a thread
 * whose CPU may run short hands it to a thread that keeps its time (src/start/run-thread.ts).
 */
export type LeaseKeeping = (
  queueMessageId: string,
  renew: () => Promise<boolean>,
  leaseMs: number,
  onError: (error: unknown) => void,
) => HeldLease;

/**
 * Renews a job's lease every third of `leaseMs` (on `timers`) until the returned stop is called; `lost()`
 * turns true once a renewal finds the lease taken by another worker.
 */
export function keepLease(
  renew: () => Promise<boolean>,
  leaseMs: number,
  onError: (error: unknown) => void,
  timers: Timers = systemTimers,
): HeldLease {
  let lost = false;
  const stop = timers.every(Math.max(50, Math.floor(leaseMs / 3)), async () => {
    try {
      if (!(await renew())) lost = true;
    } catch (error) {
      onError(error);
    }
  });
  return {
    lost: () => lost,
    markLost: () => {
      lost = true;
    },
    stop,
  };
}
