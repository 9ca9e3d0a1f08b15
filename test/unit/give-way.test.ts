import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GiveWay, requestArrivals, requestArrived } from '../../src/threads/give-way.js';
import { PdfPool } from '../../src/pdf/pool.js';
import { textPdf } from '../helpers/files.js';

/**
 * Requests that keep arriving: another thread counts one every 0.1 ms or so, as a saturated API would, while
 * this thread blocks in `beforeStep`.
 */
function requestsKeepArriving(arrivals: Int32Array): { stop(): Promise<void> } {
  const stopped = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(
    `const { workerData } = require('node:worker_threads');
     const { arrivals, stopped } = workerData;
     const pause = new Int32Array(new SharedArrayBuffer(4));
     while (Atomics.load(stopped, 0) === 0) {
       Atomics.add(arrivals, 0, 1);
       Atomics.wait(pause, 0, 0, 0.1);
     }`,
    { eval: true, workerData: { arrivals, stopped } },
  );
  const started = new Promise<void>((resolve) => worker.once('online', () => resolve()));
  return {
    async stop() {
      await started;
      Atomics.store(stopped, 0, 1);
      await worker.terminate();
    },
  };
}

async function arriving(arrivals: Int32Array): Promise<{ stop(): Promise<void> }> {
  const feeder = requestsKeepArriving(arrivals);
  const before = Atomics.load(arrivals, 0);
  // the thread takes a moment to start: the tests below need it counting
  while (Atomics.load(arrivals, 0) === before) await new Promise((resolve) => setTimeout(resolve, 5));
  return feeder;
}

/**
 * A step of work (2 ms: requests arrive meanwhile), then the wait before the next. On a loaded machine the
 * counting thread may get no CPU during those 2 ms, and the step would see no request at all: the step goes
 * on until the thread has counted more than one request per quiet moment of the step (at most 5 s), as
 * requests that keep arriving do.
 */
function aStep(giveWay: GiveWay, arrivals: Int32Array): number {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const before = Atomics.load(arrivals, 0);
  const started = performance.now();
  Atomics.wait(pause, 0, 0, 2);
  const counted = () => (Atomics.load(arrivals, 0) - before) | 0;
  while (
    counted() < Math.max(1, (performance.now() - started) / QUIET) + 1 &&
    performance.now() - started < 5000
  )
    Atomics.wait(pause, 0, 0, 1);
  return giveWay.beforeStep();
}

/**
 * The quiet moment these tests wait for: longer than the production one (QUIET_MS), so that the counting
 * thread's moments off the CPU on a loaded test machine do not read as quiet.
 */
const QUIET = 20;

let feeder: { stop(): Promise<void> } | undefined;
afterEach(async () => {
  await feeder?.stop();
  feeder = undefined;
});

describe('a batch thread giving way to requests', () => {
  it('does not wait when no request arrived since its last step', () => {
    const arrivals = new Int32Array(new SharedArrayBuffer(4));
    const giveWay = new GiveWay(arrivals, 200, 1000);
    expect(giveWay.beforeStep()).toBe(0);
    expect(giveWay.beforeStep()).toBe(0);
  });

  it('after one request, waits for a quiet moment, not its whole allowance', () => {
    const arrivals = new Int32Array(new SharedArrayBuffer(4));
    const giveWay = new GiveWay(arrivals, 200, 1000, QUIET);
    // a few at once (the step's threshold is one per quiet moment since the last step)
    Atomics.add(arrivals, 0, 5);
    const waited = giveWay.beforeStep();
    expect(waited).toBeGreaterThanOrEqual(QUIET * 0.9);
    expect(waited).toBeLessThan(100);
    // that request has been given way to
    expect(giveWay.beforeStep()).toBe(0);
  });

  it('does not wait for requests arriving more slowly than one per quiet moment', () => {
    const arrivals = new Int32Array(new SharedArrayBuffer(4));
    const giveWay = new GiveWay(arrivals, 200, 1000, QUIET);
    giveWay.beforeStep();
    Atomics.add(arrivals, 0, 2);
    // a step of 5 quiet moments saw 2 requests
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5 * QUIET);
    expect(giveWay.beforeStep()).toBe(0);
    // one that saw 20 waits
    Atomics.add(arrivals, 0, 20);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5 * QUIET);
    expect(giveWay.beforeStep()).toBeGreaterThanOrEqual(QUIET * 0.9);
  });

  it('while requests keep arriving, waits its allowance per step, and at most its allowance per task', async () => {
    const arrivals = new Int32Array(new SharedArrayBuffer(4));
    feeder = await arriving(arrivals);
    const giveWay = new GiveWay(arrivals, 40, 100, QUIET);
    const steps = [
      aStep(giveWay, arrivals),
      aStep(giveWay, arrivals),
      aStep(giveWay, arrivals),
      aStep(giveWay, arrivals),
    ];
    expect(steps[0]).toBeGreaterThanOrEqual(40);
    expect(steps[1]).toBeGreaterThanOrEqual(40);
    // the task's 100 ms are spent: the last steps wait what is left, then not at all
    expect(steps[0]! + steps[1]! + steps[2]!).toBeLessThan(100 + 20);
    expect(steps[3]).toBe(0);
    expect(giveWay.waitedInTask).toBeGreaterThanOrEqual(100 - 1);
    giveWay.taskStarts();
    expect(aStep(giveWay, arrivals)).toBeGreaterThanOrEqual(40);
  });

  it('with an allowance of 0 (PARSER_YIELD_MS=0), never waits', async () => {
    const arrivals = new Int32Array(new SharedArrayBuffer(4));
    feeder = await arriving(arrivals);
    const giveWay = new GiveWay(arrivals, 0, 1000, QUIET);
    expect(giveWay.beforeStep()).toBe(0);
    expect(giveWay.beforeStep()).toBe(0);
  });

  it("counts this process's requests in memory a thread can share", () => {
    const before = Atomics.load(requestArrivals(), 0);
    requestArrived();
    requestArrived();
    expect(Atomics.load(requestArrivals(), 0) - before).toBe(2);
    expect(requestArrivals().buffer).toBeInstanceOf(SharedArrayBuffer);
  });
});

describe("a runs' parser thread", () => {
  let dir: string;
  let file: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'ota-give-way-'));
    file = path.join(dir, 'four.pdf');
    writeFileSync(file, await textPdf(4, 5));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const readFourPages = async (options: { givesWayMs: number; taskTimeoutMs: number }) => {
    const waits: number[] = [];
    const pool = new PdfPool({
      size: 1,
      memoryMb: 256,
      givesWayQuietMs: QUIET,
      ...options,
      onGaveWay: (s) => waits.push(s),
    });
    try {
      // the thread starts and opens the file first, so that only the pages are timed
      await pool.run({ kind: 'probe', path: file });
      const started = performance.now();
      const pages = await pool.run({ kind: 'pages', path: file, page: 1, count: 4 });
      return { ms: performance.now() - started, pages, waited: waits.reduce((a, b) => a + b, 0) };
    } finally {
      await pool.close();
    }
  };

  it('waits before each page while requests keep arriving, and tells how long', async () => {
    feeder = await arriving(requestArrivals());
    const { ms, pages, waited } = await readFourPages({ givesWayMs: 100, taskTimeoutMs: 10_000 });
    expect(pages.every((page) => page.ok)).toBe(true);
    // up to 100 ms before each of the 4 pages (about 5 ms without the waits). A wait ends at the first quiet
    // millisecond (QUIET_MS), and on a loaded machine the counting thread's moments off the CPU read as one
    // (a clone's run waited 0.30 s of the 0.4): at least one page's whole allowance is what holds anywhere
    expect(waited).toBeGreaterThanOrEqual(0.1);
    expect(waited).toBeLessThan(0.6);
    expect(waited * 1000).toBeLessThanOrEqual(ms);
  });

  it('reads on at once when no request arrives', async () => {
    const { ms, waited } = await readFourPages({ givesWayMs: 1000, taskTimeoutMs: 10_000 });
    expect(ms).toBeLessThan(1000);
    expect(waited).toBe(0);
  });

  it("waits at most a quarter of the task's time limit in a task", async () => {
    feeder = await arriving(requestArrivals());
    const { pages, waited } = await readFourPages({ givesWayMs: 1000, taskTimeoutMs: 1000 });
    expect(pages.every((page) => page.ok)).toBe(true);
    expect(waited).toBeGreaterThanOrEqual(0.25 * 0.9);
    // a late wake-up of the thread, at the idle policy on a loaded machine, may add to the last wait
    expect(waited).toBeLessThan(0.5);
  });
});
