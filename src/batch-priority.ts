import { execFileSync } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Batch work (parsing PDFs, executing runs) lowers the scheduling priority of the thread it runs on, on
 * Linux, so that the API's event loop in the same process keeps answering quickly while that work keeps
 * the cores busy. Nice 19 alone still lets the thread finish its time slice before a woken event loop runs;
 * the SCHED_IDLE policy (util-linux `chrt`, where present; `idlePolicy`) makes the scheduler switch to the
 * event loop as soon as it wakes, but leaves the thread almost nothing while other processes keep every core
 * busy: fit for pure computation, not for a thread that holds database locks or must renew leases in time.
 * Elsewhere the thread keeps the process's priority.
 */
export function lowerThreadPriority({ idlePolicy }: { idlePolicy: boolean }): void {
  let threadId: number;
  try {
    threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(threadId)) return;
    setPriority(threadId, 19);
  } catch {
    return; // not Linux: the thread keeps the process's priority
  }
  if (!idlePolicy) return;
  try {
    execFileSync('chrt', ['--idle', '--pid', '0', String(threadId)], { stdio: 'ignore', timeout: 2000 });
  } catch {
    // no chrt, or not allowed: nice 19 stays
  }
}
