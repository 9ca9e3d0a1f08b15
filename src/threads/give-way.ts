/**
 * Batch work gives way to requests. The API's event loop counts the requests it receives in memory that
 * every thread of the process shares; a parser thread looks at the count before each page and, when
 * requests have arrived since, waits for a quiet moment before it reads on.
 *
 * Why: on two cores, a busy parser slows the event loop even at the idle scheduling policy. What it takes
 * is not CPU time but the shared cache and memory bandwidth, which no scheduling policy arbitrates: with
 * the pool saturated, a request's own JavaScript ran 25 % slower and the run list's p99 rose to 1.6-2.0x
 * its idle p99 (bench/README, scenario 6). Fewer pages read while requests keep arriving is the lever left.
 */

/**
 * Requests arriving at one a millisecond or faster are given way to; a millisecond without one is quiet
 * enough to read a page. Slower than that, a request is rare enough to share the machine with a page: the
 * bench's poll every 100 ms cost the runs 3-5 % when every request was waited for.
 */
export const QUIET_MS = 1;

let arrivals = new Int32Array(new SharedArrayBuffer(4)) as Int32Array;

/** This process's count of requests received (it wraps around: only its changes mean anything). */
export function requestArrivals(): Int32Array {
  return arrivals;
}

/** A thread started by the API process counts with the process's memory, handed over in its workerData. */
export function adoptRequestArrivals(shared: Int32Array): void {
  arrivals = shared;
}

export function requestArrived(): void {
  Atomics.add(arrivals, 0, 1);
}

/**
 * A batch thread's side: `beforeStep` blocks the thread (Atomics.wait: never call it on an event loop that
 * answers requests) while requests arrive at one per `quietMs` or faster, and then until `quietMs` pass
 * without one, at most `perStepMs` a step and `perTaskMs` a task. The work is slowed, never starved. On
 * Linux a task's time limit counts CPU time (src/pdf/pool.ts), which a wait does not spend; elsewhere a
 * wait spends at most `perTaskMs` of it.
 */
export class GiveWay {
  private seen: number;
  private lastStepAt = performance.now();
  /** Milliseconds waited since the task started. */
  waitedInTask = 0;
  private readonly sleeper = new Int32Array(new SharedArrayBuffer(4));

  constructor(
    private readonly arrivals: Int32Array,
    private readonly perStepMs: number,
    private readonly perTaskMs: number,
    private readonly quietMs = QUIET_MS,
  ) {
    this.seen = Atomics.load(arrivals, 0);
  }

  taskStarts(): void {
    this.waitedInTask = 0;
  }

  /** The milliseconds it waited. */
  beforeStep(): number {
    if (this.perStepMs <= 0) return 0;
    let latest = Atomics.load(this.arrivals, 0);
    const arrived = (latest - this.seen) | 0;
    if (arrived < Math.max(1, (performance.now() - this.lastStepAt) / this.quietMs)) {
      this.seen = latest;
      this.lastStepAt = performance.now();
      return 0;
    }
    const budget = Math.min(this.perStepMs, this.perTaskMs - this.waitedInTask);
    const start = performance.now();
    let waited = 0;
    while (latest !== this.seen && waited < budget) {
      this.seen = latest;
      Atomics.wait(this.sleeper, 0, 0, Math.min(this.quietMs, budget - waited));
      latest = Atomics.load(this.arrivals, 0);
      waited = performance.now() - start;
    }
    // what arrived while the budget ran out is not a reason to wait before the next step too
    this.seen = latest;
    this.waitedInTask += waited;
    this.lastStepAt = performance.now();
    return waited;
  }
}

/**
 * Requests at this rate or more mean the process is serving: its parser pool gives a core back to the event
 * loop (PoolOptions.serving). A user's script polling its runs every 50-100 ms is far below it, and does not
 * cost the runs a thread; a dashboard in use or a load test is above it.
 */
export const SERVING_REQUESTS_PER_S = 50;
/** The window over which the rate is read: a pool that gave a core back takes it again this long after. */
export const SERVING_WINDOW_MS = 100;

/**
 * Whether the process's requests arrive at `perSecond` or faster. It is serving as soon as the window's
 * count reaches the rate, and stays so until a whole window passes below it.
 */
export class ServingWatch {
  private windowStart = performance.now();
  private countAtStart: number;
  private serving = false;

  constructor(
    private readonly arrivals: Int32Array,
    private readonly perSecond = SERVING_REQUESTS_PER_S,
    private readonly windowMs = SERVING_WINDOW_MS,
  ) {
    this.countAtStart = Atomics.load(arrivals, 0);
  }

  isServing(now = performance.now()): boolean {
    const count = Atomics.load(this.arrivals, 0);
    const arrived = (count - this.countAtStart) | 0;
    const elapsed = now - this.windowStart;
    if (arrived >= (this.perSecond * this.windowMs) / 1000) this.serving = true;
    else if (elapsed >= this.windowMs) this.serving = (arrived * 1000) / elapsed >= this.perSecond;
    else return this.serving;
    this.windowStart = now;
    this.countAtStart = count;
    return this.serving;
  }
}
