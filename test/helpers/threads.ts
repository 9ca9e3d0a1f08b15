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
