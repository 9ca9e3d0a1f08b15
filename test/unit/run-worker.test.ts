import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/kernel/logger.js';
import { BlobUnavailableError } from '../../src/blobs/blob-store.js';
import { type ClaimedRun, type RunQueue, type RunRow, StoreUnavailableError } from '../../src/store/types.js';
import { systemClock } from '../../src/kernel/time.js';
import type { ExecutionDeps } from '../../src/worker/execute.js';
import { OUTAGE_RETRY_MS, RunWorker } from '../../src/worker/runner.js';
import type { RunOutcome } from '../../src/store/types.js';

const ROUND_TRIP_MS = 20;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A queue behind an engine whose claim takes a round trip, as PostgreSQL's does: the claim sees the queue as
 * it was when it was sent. Entries carry a claim count past the worker's limit, so the worker finishes each
 * one as given up, without parsing anything; finishing takes `finishMs`. `beforeAnswer` runs as a claim's
 * answer arrives: what happens there happens after the claim looked and before the worker hears its answer.
 */
function slowQueue({ finishMs = 0 } = {}) {
  let beforeAnswer: (() => void) | undefined;
  const waiting: ClaimedRun[] = [];
  let heard: () => void = () => undefined;
  let underLease = 0;
  let mostUnderLease = 0;
  const finished: string[] = [];
  const store = {
    async claim() {
      const found = waiting.shift();
      await pause(ROUND_TRIP_MS);
      const hook = beforeAnswer;
      beforeAnswer = undefined;
      hook?.();
      if (found) mostUnderLease = Math.max(mostUnderLease, ++underLease);
      return found;
    },
    watch(onQueued: () => void) {
      heard = onQueued;
      return () => undefined;
    },
    async renewLease() {
      return true;
    },
    async releaseLease() {},
    async saveProgress() {
      return true;
    },
    async finish(queueMessageId: string) {
      await pause(finishMs);
      underLease--;
      finished.push(queueMessageId);
      return true;
    },
  } satisfies RunQueue;
  const queue = (id: string) => {
    waiting.push({ queueMessageId: id, claims: 99, run: { id } as RunRow, storageKey: id, pageCount: null });
    heard();
  };
  return {
    store,
    queue,
    finished,
    mostUnderLease: () => mostUnderLease,
    whenAnswering: (hook: () => void) => (beforeAnswer = hook),
  };
}

function workerOn(queue: RunQueue, concurrency: number) {
  // every entry is given up (claims past the limit): nothing is booked
  const noBooking = async () => null;
  return new RunWorker(queue, noBooking, {} as ExecutionDeps, systemClock, createLogger('silent'), {
    concurrency,
    leaseMs: 60_000,
    // no poll would come within the test: only the wake-ups can get a run claimed
    pollMs: 3_600_000,
    maxClaims: 3,
  });
}

async function until(condition: () => boolean) {
  while (!condition()) await pause(5);
}

describe('the run worker', () => {
  it('a run queued while a claim is on its way is claimed when that claim returns, not at the next poll', async () => {
    const { store, queue, finished, whenAnswering } = slowQueue();
    // the first claim, sent at start, finds the queue empty; the run and its wake-up arrive with its answer
    whenAnswering(() => queue('queued-meanwhile'));
    const worker = workerOn(store, 2);
    worker.start();
    await until(() => finished.includes('queued-meanwhile'));
    await worker.stop();
  });

  it('wake-ups during a claim never take more runs than the concurrency', async () => {
    const { store, queue, finished, mostUnderLease } = slowQueue({ finishMs: 3 * ROUND_TRIP_MS });
    const worker = workerOn(store, 1);
    queue('a');
    worker.start();
    // while the claim of a is on its way, b is queued: the one free slot goes to a alone
    await pause(ROUND_TRIP_MS / 4);
    queue('b');
    await until(() => finished.length === 2);
    expect(mostUnderLease()).toBe(1);
    await worker.stop();
  });

  it.each([
    ['the file store', new BlobUnavailableError('S3 did not answer')],
    ['the database', new StoreUnavailableError('connection refused')],
  ])('hands a run back uncounted, to be tried a second later, when %s does not answer', async (_, outage) => {
    const released: { id: string; availableAt: string | undefined }[] = [];
    let finished = 0;
    const entry = {
      queueMessageId: 'q1',
      claims: 1,
      run: { id: 'r1' } as RunRow,
      storageKey: 'k',
      pageCount: null,
    };
    let claimed = false;
    const queue = {
      async claim() {
        if (claimed) return undefined;
        claimed = true;
        return entry;
      },
      watch: () => () => undefined,
      renewLease: async () => true,
      async releaseLease(id: string, _worker: string, availableAt?: string) {
        released.push({ id, availableAt });
      },
      saveProgress: async () => true,
      async finish() {
        finished += 1;
        return true;
      },
    } satisfies RunQueue;
    const deps = {
      blobs: {
        withLocalFile: () => Promise.reject(outage),
      },
    } as unknown as ExecutionDeps;
    const worker = new RunWorker(queue, async () => null, deps, systemClock, createLogger('silent'), {
      concurrency: 1,
      leaseMs: 60_000,
      pollMs: 3_600_000,
      maxClaims: 3,
    });
    const before = Date.now();
    worker.start();
    await until(() => released.length === 1);
    await worker.stop();
    expect(finished).toBe(0);
    expect(released[0]!.id).toBe('q1');
    const at = Date.parse(released[0]!.availableAt!);
    expect(at - before).toBeGreaterThanOrEqual(OUTAGE_RETRY_MS);
    expect(at - Date.now()).toBeLessThanOrEqual(OUTAGE_RETRY_MS);
  });

  it('hands a run that found the disk full back with growing waits, then fails it as storage_full', async () => {
    const released: { availableAt: number; at: number }[] = [];
    const outcomes: RunOutcome[] = [];
    const entry = {
      queueMessageId: 'q1',
      claims: 1,
      run: { id: 'r1' } as RunRow,
      storageKey: 'k',
      pageCount: null,
    };
    // the entry is claimable again once the time it was held back to has come, as the store's is
    let availableAt = 0;
    let leased = false;
    const queue = {
      async claim() {
        if (leased || outcomes.length > 0 || Date.now() < availableAt) return undefined;
        leased = true;
        return entry;
      },
      watch: () => () => undefined,
      renewLease: async () => true,
      async releaseLease(_id: string, _worker: string, at?: string) {
        availableAt = Date.parse(at!);
        released.push({ availableAt, at: Date.now() });
        leased = false;
      },
      saveProgress: async () => true,
      async finish(_id: string, _worker: string, outcome: RunOutcome) {
        outcomes.push(outcome);
        return true;
      },
    } satisfies RunQueue;
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    const deps = { blobs: { withLocalFile: () => Promise.reject(full) } } as unknown as ExecutionDeps;
    const waits = [50, 100];
    const worker = new RunWorker(queue, async () => null, deps, systemClock, createLogger('silent'), {
      concurrency: 1,
      leaseMs: 60_000,
      pollMs: 10,
      maxClaims: 3,
      diskFullRetryMs: waits,
    });
    worker.start();
    await until(() => outcomes.length === 1);
    await worker.stop();
    // held back by each wait in turn (the hold is reckoned as the release is sent: a few ms of margin)
    expect(released).toHaveLength(waits.length);
    for (const [i, r] of released.entries()) {
      expect(r.availableAt - r.at).toBeGreaterThanOrEqual(waits[i]! - 5);
      expect(r.availableAt - r.at).toBeLessThanOrEqual(waits[i]!);
    }
    expect(outcomes[0]).toMatchObject({ status: 'failed', error_code: 'storage_full', points_consumed: 0 });
    expect(outcomes[0]!.error).toMatch(/disk is full.*tried 3 times.*rerun it later/);
  });
});
