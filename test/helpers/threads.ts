import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

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
