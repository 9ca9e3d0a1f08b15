/**
 * A run's deadline (RUN_TIMEOUT_MS) holds at every step of its execution: the document's open, which may
 * wait in the parser pool behind other runs' tasks, and the page batches, whose lanes stop at the deadline
 * and may see it pass before its timer fires. Either way the run fails as `run_timeout`; it never succeeds
 * with a report that leaves pages out. The pool here is a stand-in that answers as the test says, so that
 * the deadline is met at a chosen step without a loaded machine.
 */
import { describe, expect, it } from 'vitest';
import type { BlobStore } from '../../src/blobs/blob-store.js';
import type { PdfPool } from '../../src/pdf/pool.js';
import type { PdfTask } from '../../src/pdf/tasks.js';
import type { ClaimedRun, RunRow } from '../../src/store/types.js';
import { systemClock } from '../../src/kernel/time.js';
import { type ExecutionDeps, executeRun } from '../../src/worker/execute.js';

const RUN_TIMEOUT_MS = 200;

/** Holds the thread for `ms` as a parser call does: no timer of this process runs meanwhile. */
function busyFor(ms: number) {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

function depsWith(run: (task: PdfTask) => Promise<unknown>): ExecutionDeps {
  const pool = { size: 1, run, forget: () => undefined } as unknown as PdfPool;
  const blobs = {
    withLocalFile: (_key: string, work: (path: string) => Promise<unknown>) => work('/no/such/file.pdf'),
  } as unknown as BlobStore;
  return {
    pool,
    blobs,
    clock: systemClock,
    pointsPerPage: {} as ExecutionDeps['pointsPerPage'],
    profiles: {} as ExecutionDeps['profiles'],
    runTimeoutMs: RUN_TIMEOUT_MS,
    report: {} as ExecutionDeps['report'],
  };
}

const claim = {
  queueMessageId: 'q',
  claims: 1,
  storageKey: 'k',
  pageCount: null,
  run: { id: 'r', tenant_id: 't', file_id: 'f', target: 'pdf-preflight' } as RunRow,
} as ClaimedRun;
const hooks = { onProgress: () => undefined, stopped: () => false };

describe("a run's deadline", () => {
  it('holds while the document waits to be opened', async () => {
    // the open never comes back (its task waits behind other runs' tasks)
    const deps = depsWith((task) =>
      task.kind === 'document' ? new Promise(() => undefined) : Promise.reject(new Error('not asked')),
    );
    const started = Date.now();
    const outcome = await executeRun(claim, deps, hooks);
    expect(outcome).toMatchObject({ status: 'failed', error_code: 'run_timeout', points_consumed: 0 });
    expect(Date.now() - started).toBeLessThan(RUN_TIMEOUT_MS + 5_000);
  });

  it('fails the run when pages are left unread, even if the lanes see the deadline before its timer', async () => {
    // 12 pages in batches of 4, each batch holding the thread 150 ms: after two batches the deadline has
    // passed, the lane stops before the third, and the timer has not fired yet
    const deps = depsWith(async (task) => {
      if (task.kind === 'document') return { page_count: 12 };
      if (task.kind === 'pages') {
        busyFor(150);
        return Array.from({ length: task.count }, () => ({ ok: true, facts: {} }));
      }
      throw new Error(`not asked: ${task.kind}`);
    });
    const outcome = await executeRun(claim, deps, hooks);
    expect(outcome).toMatchObject({ status: 'failed', error_code: 'run_timeout', points_consumed: 0 });
  });
});
