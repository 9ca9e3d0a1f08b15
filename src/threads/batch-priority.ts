import { execFileSync } from 'node:child_process';
import { setPriority } from 'node:os';
import { linuxThreadId } from './thread-cpu.js';

/**
 * Batch work (parsing PDFs, executing runs) lowers the scheduling priority of the thread it runs on, on
 * Linux, so that the API's event loop in the same process keeps answering quickly while that work keeps
 * the cores busy. Nice 19 alone still lets the thread finish its time slice before a woken event loop runs;
 * the SCHED_IDLE policy (util-linux `chrt`, where present) makes the scheduler switch to the event loop as
 * soon as it wakes. It also leaves the thread almost no CPU while other processes keep every core busy:
 * whatever must happen in time (a run's lease) is not done on such a thread. Elsewhere the thread keeps the
 * process's priority.
 */
export function lowerThreadPriority(): void {
  const threadId = linuxThreadId();
  // not Linux: the thread keeps the process's priority
  if (threadId === undefined) return;
  try {
    setPriority(threadId, 19);
  } catch {
    return;
  }
  try {
    execFileSync('chrt', ['--idle', '--pid', '0', String(threadId)], { stdio: 'ignore', timeout: 2000 });
  } catch {
    // no chrt, or not allowed: nice 19 stays
  }
}
