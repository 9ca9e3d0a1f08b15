import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/** Linux's idle scheduling policy, as /proc reports it. */
export const SCHED_IDLE = 5;

/**
 * Each thread of a process (Linux): its nice value and scheduling policy, fields 19 and 41 of
 * /proc/<pid>/task/<tid>/stat. A thread that ends while it is read is left out.
 */
export function threadsOf(pid: number | 'self'): { tid: number; nice: number; policy: number }[] {
  return readdirSync(`/proc/${pid}/task`).flatMap((tid) => {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      return [];
    }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return [{ tid: Number(tid), nice: Number(fields[16]), policy: Number(fields[38]) }];
  });
}

/** Whether util-linux `chrt`, which sets the idle policy, is installed. */
export function hasChrt(): boolean {
  try {
    execFileSync('chrt', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Other work keeping a core busy, as a thread at the idle policy sees it: every such thread of this process
 * is pinned to CPU 0 (util-linux `taskset`), with a thread spinning there at normal priority, until `stop`.
 * One core only, so that the rest of the test run keeps the others.
 */
export async function idleThreadsStarved(): Promise<{ stop(): Promise<void> }> {
  // [0]: stop; [1]: the spinner's thread id, once it spins
  const control = new Int32Array(new SharedArrayBuffer(8));
  const spinner = new Worker(
    `const { workerData } = require('node:worker_threads');
     const { readlinkSync } = require('node:fs');
     Atomics.store(workerData.control, 1, Number(readlinkSync('/proc/thread-self').split('/').pop()));
     while (Atomics.load(workerData.control, 0) === 0);`,
    { eval: true, workerData: { control } },
  );
  while (Atomics.load(control, 1) === 0) await new Promise((resolve) => setTimeout(resolve, 5));
  const idle = threadsOf('self').filter((thread) => thread.policy === SCHED_IDLE);
  const pin = (tid: number, cpus: string) => {
    try {
      execFileSync('taskset', ['-p', '-c', cpus, String(tid)], { stdio: 'ignore' });
    } catch {
      // the thread ended meanwhile
    }
  };
  for (const tid of [Atomics.load(control, 1), ...idle.map((thread) => thread.tid)]) pin(tid, '0');
  return {
    async stop() {
      Atomics.store(control, 0, 1);
      await spinner.terminate();
      for (const { tid } of idle) pin(tid, `0-${availableParallelism() - 1}`);
    },
  };
}

/** A thread doing batch work: at the idle policy, or at nice 19 where `chrt` is missing. */
function isBatchThread(thread: { nice: number; policy: number }): boolean {
  return thread.policy === SCHED_IDLE || thread.nice >= 19;
}

/**
 * How long a process's batch threads (its parsers, its run thread) waited for a core, sampled every
 * `everyMs` until `stop`: from each thread's run-queue delay (the second field of
 * /proc/<pid>/task/<tid>/schedstat, in ns). Such a thread gets (almost) no CPU while other work keeps every
 * core busy, so what it does in a window takes that much longer on a loaded machine: this is how much.
 */
export function recordBatchThreadsWaiting(pid: number, everyMs = 50) {
  const samples: { at: number; waitedMs: Map<number, number> }[] = [];
  const sample = () => {
    const waitedMs = new Map<number, number>();
    for (const thread of threadsOf(pid)) {
      if (!isBatchThread(thread)) continue;
      try {
        const schedstat = readFileSync(`/proc/${pid}/task/${thread.tid}/schedstat`, 'utf8');
        waitedMs.set(thread.tid, Number(schedstat.split(' ')[1]) / 1e6);
      } catch {
        // the thread ended meanwhile
      }
    }
    samples.push({ at: Date.now(), waitedMs });
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
    },
    /**
     * The longest any one batch thread waited for a core between `from` and `to` (epoch ms), from the
     * samples just outside the window; a thread started inside it counts from its start.
     */
    waitedBetween(from: number, to: number): number {
      const before = samples.findLast((s) => s.at <= from) ?? samples[0]!;
      const after = samples.find((s) => s.at >= to) ?? samples.at(-1)!;
      let longest = 0;
      for (const [tid, ms] of after.waitedMs)
        longest = Math.max(longest, ms - (before.waitedMs.get(tid) ?? 0));
      return longest;
    },
  };
}
