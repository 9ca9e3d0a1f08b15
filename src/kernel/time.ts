/** A source of "now", so that rules about expiry and calendar days can be tested at chosen instants. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** Stops a timer of `Timers`; stopping it again, or after it ran, does nothing. */
export type StopTimer = () => void;

/**
 * Waits and repetitions, so that a test can move time on instead of waiting for it (the run thread's
 * restarts and the leases its process keeps: test/http/run-thread.test.ts).
 */
export interface Timers {
  /** Milliseconds on a clock that never goes back (performance.now()). */
  elapsedMs(): number;
  /** Runs `run` once, `ms` from now. `unref`: the timer alone does not keep the process alive. */
  after(ms: number, run: () => void, options?: { unref?: boolean }): StopTimer;
  /** Runs `run` every `ms` until stopped. */
  every(ms: number, run: () => void, options?: { unref?: boolean }): StopTimer;
}

export const systemTimers: Timers = {
  elapsedMs: () => performance.now(),
  after(ms, run, options) {
    const timer = setTimeout(run, ms);
    if (options?.unref) timer.unref();
    return () => clearTimeout(timer);
  },
  every(ms, run, options) {
    const timer = setInterval(run, ms);
    if (options?.unref) timer.unref();
    return () => clearInterval(timer);
  },
};
