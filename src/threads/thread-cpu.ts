import { readFileSync, readlinkSync } from 'node:fs';

/** The calling thread's id in Linux (its /proc/self/task entry), or undefined elsewhere. */
export function linuxThreadId(): number | undefined {
  try {
    const id = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(id) && id > 0 ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Milliseconds of CPU a thread of this process has run (Linux's schedstat, in nanoseconds), or undefined
 * where that cannot be read: not Linux, or the thread has ended.
 */
export function threadCpuMs(threadId: number): number | undefined {
  try {
    const ns = Number(readFileSync(`/proc/self/task/${threadId}/schedstat`, 'utf8').split(' ')[0]);
    return Number.isFinite(ns) ? ns / 1e6 : undefined;
  } catch {
    return undefined;
  }
}
