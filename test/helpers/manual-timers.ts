import type { Timers } from '../../src/kernel/time.js';

interface Pending {
  at: number;
  everyMs?: number;
  run: () => void;
}

/**
 * `Timers` whose time moves only when the test says so: what a job plans is seen in `planned()` and runs
 * at `advance()`, so that "nothing more happens" is a fact about the plan, not a wait of real seconds.
 */
export function manualTimers() {
  let now = 0;
  const pending = new Set<Pending>();
  const plan = (entry: Pending) => {
    pending.add(entry);
    return () => void pending.delete(entry);
  };
  const timers: Timers = {
    elapsedMs: () => now,
    after: (ms, run) => plan({ at: now + ms, run }),
    every: (ms, run) => plan({ at: now + ms, everyMs: ms, run }),
  };
  return {
    timers,
    /** The waits planned and not stopped, in ms from now: one-shot ones and repetitions. */
    planned(): { inMs: number; repeats: boolean }[] {
      return [...pending].map((entry) => ({ inMs: entry.at - now, repeats: entry.everyMs !== undefined }));
    },
    /** Moves time on by `ms`, running what falls due in order (a repetition as often as it falls due). */
    advance(ms: number): void {
      const until = now + ms;
      for (;;) {
        const next = [...pending].filter((entry) => entry.at <= until).sort((a, b) => a.at - b.at)[0];
        if (!next) break;
        now = next.at;
        if (next.everyMs === undefined) pending.delete(next);
        else next.at += next.everyMs;
        next.run();
      }
      now = until;
    },
  };
}
