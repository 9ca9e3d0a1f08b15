import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AFFINITY_WAIT_MS, MAX_PASSED_OVER, PdfPool } from '../../src/pdf/pool.js';
import { textPdf } from '../helpers/files.js';
import { amongOrdinaryPages, fourthObjectStream, operatorBomb, streamOf } from '../helpers/hostile-pdfs.js';
import { readPdf } from '../helpers/files.js';
import { hasChrt, idleThreadsStarved, SCHED_IDLE, threadsOf } from '../helpers/threads.js';
import { TaskFailure } from '../../src/pdf/pool.js';

let dir: string;
let longFile: string;
let shortFile: string;
let pool: PdfPool;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'ota-pool-'));
  longFile = path.join(dir, 'long.pdf');
  shortFile = path.join(dir, 'short.pdf');
  writeFileSync(longFile, await textPdf(40, 5));
  writeFileSync(shortFile, await textPdf(1, 5));
  pool = new PdfPool({ size: 1, taskTimeoutMs: 10_000, memoryMb: 256 });
});
afterAll(async () => {
  await pool.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the parser pool', () => {
  it("a long run on one file cannot hold back a short run of the same tenant: the open file's preference is bounded", async () => {
    const finished: string[] = [];
    // the long run keeps two pages of its file waiting at all times, as a run's page loop does
    let nextPage = 1;
    const longRun = async () => {
      while (nextPage <= 40) {
        const page = nextPage++;
        await pool.run({ kind: 'page', path: longFile, page }, 'tenant');
        finished.push(`long ${page}`);
      }
    };
    const loops = [longRun(), longRun()];
    // once the thread has the long file open, a one-page run of another file queues behind it
    await new Promise((resolve) => setTimeout(resolve, 0));
    const shortRun = pool.run({ kind: 'page', path: shortFile, page: 1 }, 'tenant').then(() => {
      finished.push('short');
    });
    await Promise.all([...loops, shortRun]);

    expect(finished).toHaveLength(41);
    const waitedBehind = finished.indexOf('short');
    expect(waitedBehind, finished.join(', ')).toBeLessThanOrEqual(MAX_PASSED_OVER + 2);
  });
  it('a page kept loaded after its task is the page asked for, whichever pages were read in between', async () => {
    // pages are kept loaded per document (the last two): every read below hits, misses or evicts
    const order = [1, 2, 1, 3, 40, 2, 2, 39, 1];
    for (const page of order) {
      await pool.run({ kind: 'page', path: longFile, page }, 'tenant');
      const text = await pool.run({ kind: 'text', path: longFile, page }, 'tenant');
      expect(text).toContain(`Page ${page}, line 0 `);
      const picture = await pool.run({ kind: 'thumbnail', path: longFile, page, width: 60 }, 'tenant');
      expect(Buffer.from(picture).subarray(1, 4).toString()).toBe('PNG');
    }
  });
  it('a thread whose heap grew past the idle mark is replaced once nothing waits: the memory leaves with the work', async () => {
    const heaps: number[] = [];
    const small = new PdfPool({
      size: 1,
      taskTimeoutMs: 10_000,
      memoryMb: 256,
      idleRecycleMb: 24,
      onHeap: (bytes) => heaps.push(bytes),
    });
    try {
      // a 2,000 px picture needs a bitmap of ~22 MB in PDFium's heap
      await small.run({ kind: 'thumbnail', path: shortFile, page: 1, width: 2000 });
      expect(heaps.at(-1)!).toBeGreaterThan(24 * 2 ** 20);
      await small.run({ kind: 'page', path: shortFile, page: 1 });
      expect(heaps.at(-1)!).toBeLessThanOrEqual(24 * 2 ** 20);
    } finally {
      await small.close();
    }
  });
});

describe('two parser threads', () => {
  let two: PdfPool;
  const ended: { kind: string; threadId: number }[] = [];
  const threadOf = (kind: string) => ended.findLast((end) => end.kind === kind)!.threadId;
  beforeAll(() => {
    two = new PdfPool({
      size: 2,
      // the slow page takes about 2 s alone; parser threads run at idle priority, and a loaded CI machine
      // once stretched it past 20 s
      taskTimeoutMs: 50_000,
      memoryMb: 256,
      onTaskEnd: (kind, _outcome, _seconds, threadId) => ended.push({ kind, threadId }),
    });
  });
  afterAll(() => two.close());

  it("a page's picture is drawn by the thread that has the page loaded, though the other thread is free", async () => {
    // sent together, the first task goes to the first thread and the second to the other one
    await Promise.all([
      two.run({ kind: 'page', path: longFile, page: 1 }),
      two.run({ kind: 'text', path: longFile, page: 2 }),
    ]);
    expect(threadOf('page')).not.toBe(threadOf('text'));
    // both threads idle again: the picture of page 2 waits for the thread that read page 2
    await two.run({ kind: 'thumbnail', path: longFile, page: 2, width: 60 });
    expect(threadOf('thumbnail')).toBe(threadOf('text'));
    await two.run({ kind: 'thumbnail', path: longFile, page: 1, width: 60 });
    expect(threadOf('thumbnail')).toBe(threadOf('page'));
  });

  it(`waits at most ${AFFINITY_WAIT_MS} ms for that thread: a busy one leaves the picture to the free one`, async () => {
    const slowFile = path.join(dir, 'slow.pdf');
    writeFileSync(slowFile, operatorBomb());
    await two.run({ kind: 'page', path: longFile, page: 3 });
    const holder = threadOf('page');
    // both threads idle: the slow page goes to the first thread, which is the one holding page 3
    const order: string[] = [];
    const slow = two.run({ kind: 'page', path: slowFile, page: 1 }).then(() => order.push('slow page'));
    const picture = two
      .run({ kind: 'thumbnail', path: longFile, page: 3, width: 60 })
      .then(() => order.push('picture'));
    await Promise.all([slow, picture]);
    expect(threadOf('thumbnail')).not.toBe(holder);
    expect(order).toEqual(['picture', 'slow page']);
  });
});

describe('a pool that gives a core back while the process serves requests', () => {
  const arrivals = new Int32Array(new SharedArrayBuffer(4));
  let serving: PdfPool;
  let slowFile: string;
  beforeAll(() => {
    slowFile = path.join(dir, 'slow-serving.pdf');
    writeFileSync(slowFile, operatorBomb());
    serving = new PdfPool({
      size: 2,
      serving: { threads: 1, arrivals },
      // the slow page takes about 2 s alone (see 'two parser threads')
      taskTimeoutMs: 50_000,
      memoryMb: 256,
    });
  });
  afterAll(() => serving.close());
  /** Requests at 1,000 a second, far above SERVING_REQUESTS_PER_S, until the returned function is called. */
  const requestsArrive = () => {
    const timer = setInterval(() => Atomics.add(arrivals, 0, 5), 5);
    return () => clearInterval(timer);
  };
  const slowThenQuick = () => {
    const order: string[] = [];
    const at: Record<string, number> = {};
    const done = (name: string) => () => {
      order.push(name);
      at[name] = performance.now();
    };
    const slow = serving.run({ kind: 'page', path: slowFile, page: 1 }).then(done('slow'));
    const quick = serving.run({ kind: 'page', path: shortFile, page: 1 }).then(done('quick'));
    return { order, at, done: Promise.all([slow, quick]) };
  };

  it('quiet: every thread takes tasks, so a quick page does not wait behind a slow one', async () => {
    const { order, done } = slowThenQuick();
    await done;
    expect(order).toEqual(['quick', 'slow']);
  });

  it('while requests arrive, one thread fewer takes tasks: the quick page waits behind the slow one', async () => {
    const stop = requestsArrive();
    try {
      const { order, done } = slowThenQuick();
      await done;
      expect(order).toEqual(['slow', 'quick']);
    } finally {
      stop();
    }
  });

  it('once the requests stop, the thread it gave back takes the waiting task', async () => {
    const stop = requestsArrive();
    try {
      const { order, at, done } = slowThenQuick();
      await new Promise((resolve) => setTimeout(resolve, 300));
      stop();
      const stoppedAt = performance.now();
      await done;
      expect(order).toEqual(['quick', 'slow']);
      expect(at.quick).toBeGreaterThan(stoppedAt);
    } finally {
      stop();
    }
  });
});

describe.runIf(process.platform === 'linux' && hasChrt())('parser threads on Linux', () => {
  it('run at the idle scheduling policy, so that a woken event loop never waits for a parser', async () => {
    await pool.run({ kind: 'document', path: shortFile }, 'tenant');
    expect(threadsOf('self').filter((thread) => thread.policy === SCHED_IDLE)).toHaveLength(pool.size);
  });
});

describe('pages read four to a task', () => {
  it('a page past the memory cap ends its task as a failed page; the pages before it keep their facts', async () => {
    const file = path.join(dir, 'bomb-among.pdf');
    writeFileSync(
      file,
      amongOrdinaryPages(fourthObjectStream(Buffer.from(readPdf('malformed/flate-bomb-512MB.pdf'))), 4, 2),
    );
    const capped = new PdfPool({ size: 1, taskTimeoutMs: 30_000, memoryMb: 64 });
    try {
      const outcomes = await capped.run({ kind: 'pages', path: file, page: 1, count: 4 });
      expect(outcomes.map((o) => o.ok)).toEqual([true, false]);
      // the thread that aborted is replaced: the next task is served
      await expect(capped.run({ kind: 'page', path: file, page: 3 })).resolves.toMatchObject({
        has_text: true,
      });
    } finally {
      await capped.close();
    }
  });

  it('a task stopped past its time says which page it was reading', async () => {
    const file = path.join(dir, 'slow-among.pdf');
    // 20 million path operators: 1.1-1.2 s of parsing for that one page on a fast host of this machine class
    // (2026-11-28), so the limit is well under it: at 1 s, an unloaded fast run once parsed the page in time
    writeFileSync(file, amongOrdinaryPages(streamOf('', Buffer.alloc(20_000_000 * 6, '0 0 m\n')), 4, 3));
    const hasty = new PdfPool({ size: 1, taskTimeoutMs: 500, memoryMb: 256 });
    try {
      // a thread that is still starting has read no page: the first task waits for it (a start slower than
      // the limit, on a loaded machine, is tried again on the thread that replaces it)
      for (let attempt = 0; attempt < 5; attempt++)
        if (
          await hasty.run({ kind: 'probe', path: file }).then(
            () => true,
            () => false,
          )
        )
          break;
      // on a loaded machine an idle-priority thread can spend the whole limit on the ordinary pages before
      // it: the task is tried again, and one attempt must stop on the slow page and name it
      let failure: unknown;
      for (let attempt = 0; attempt < 5; attempt++) {
        failure = await hasty.run({ kind: 'pages', path: file, page: 1, count: 4 }).catch((e: unknown) => e);
        expect(failure).toBeInstanceOf(TaskFailure);
        if ((failure as TaskFailure).page === 3) break;
      }
      expect(failure).toMatchObject({ kind: 'timeout', page: 3 });
    } finally {
      await hasty.close();
    }
  });
});

describe.runIf(process.platform === 'linux' && hasChrt())('a task whose thread gets no CPU', () => {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const idleThreads = () =>
    new Set(threadsOf('self').flatMap((thread) => (thread.policy === SCHED_IDLE ? [thread.tid] : [])));

  /**
   * A pool of one thread that has started and read the file, so that its thread is at the idle policy and
   * is starved by `idleThreadsStarved`. On a loaded machine a thread's start (its imports, at normal
   * priority) or its first task can outlast a short wall-clock limit: its replacement is waited for until
   * it has started (it lowers its priority once loaded), and the probe is tried again.
   */
  async function startedPool(wallClockLimitMs: number) {
    const pool = new PdfPool({ size: 1, taskTimeoutMs: 500, wallClockLimitMs, memoryMb: 256 });
    for (let attempt = 1; attempt <= 10; attempt++) {
      if (
        await pool.run({ kind: 'probe', path: longFile }).then(
          () => true,
          () => false,
        )
      )
        return pool;
      const before = idleThreads();
      const waitUntil = performance.now() + 60_000;
      while (![...idleThreads()].some((tid) => !before.has(tid)) && performance.now() < waitUntil)
        await sleep(10);
    }
    await pool.close();
    throw new Error('no parser thread read the probe within its wall-clock limit in 10 tries');
  }

  /**
   * Four pages read while the thread, already started, gets no CPU: for `busyMs`, or until the task ends
   * (at most 10 s).
   */
  async function readWhileBusy(busyMs: number | 'until it ends', wallClockLimitMs: number) {
    const starved = await startedPool(wallClockLimitMs);
    try {
      const busy = await idleThreadsStarved();
      const started = performance.now();
      let settled = false;
      const pages = starved
        .run({ kind: 'pages', path: longFile, page: 1, count: 4 })
        .then(
          (outcomes) => ({ outcomes, ms: performance.now() - started }),
          (error: unknown) => ({ error, ms: performance.now() - started }),
        )
        .finally(() => {
          settled = true;
        });
      if (busyMs === 'until it ends')
        for (let waited = 0; !settled && waited < 10_000; waited += 10) await sleep(10);
      else await sleep(busyMs);
      const starvedToTheEnd = settled;
      await busy.stop();
      return { ...(await pages), starvedToTheEnd };
    } finally {
      await starved.close();
    }
  }

  it("is not stopped at its time limit while it waits for a core: the limit counts the thread's CPU time", async () => {
    // the wall-clock limit far away: once the core is free, a loaded machine may starve the thread longer
    // still, and only the CPU-time limit is judged here
    const read = await readWhileBusy(700, 120_000);
    expect(
      'outcomes' in read && read.outcomes.every((page) => page.ok),
      String('error' in read && read.error),
    ).toBe(true);
    // the parser, at the idle policy, got (almost) no CPU until the cores were free again
    expect(read.ms).toBeGreaterThan(500);
  });

  it('is stopped at its wall-clock limit (by default ten times its time limit), whatever it ran', async () => {
    const read = await readWhileBusy('until it ends', 800);
    expect('error' in read && read.error).toBeInstanceOf(TaskFailure);
    expect(('error' in read && (read.error as TaskFailure).kind) || undefined).toBe('timeout');
    // stopped while its thread had no CPU, so not by its CPU time; at the given limit, not before and
    // well before the default one (5 s): the check runs on this process's event loop, late on a loaded
    // machine by what the machine makes it
    expect(read.starvedToTheEnd, 'stopped while the core was held').toBe(true);
    expect(read.ms).toBeGreaterThanOrEqual(800 - 5);
    expect(read.ms).toBeLessThan(5_000);
  });
});

describe('threads left idle', () => {
  it('exit once none has had a task for idleExitMs, and the next task starts fresh ones', async () => {
    const ended: number[] = [];
    const idle = new PdfPool({
      size: 2,
      taskTimeoutMs: 10_000,
      memoryMb: 256,
      idleExitMs: 50,
      onTaskEnd: (_kind, _outcome, _seconds, threadId) => ended.push(threadId),
    });
    try {
      expect(idle.threads).toBe(0);
      expect(await idle.run({ kind: 'probe', path: shortFile })).toMatchObject({ pageCount: 1 });
      expect(idle.threads).toBe(2);
      await expect.poll(() => idle.threads, { timeout: 10_000, interval: 20 }).toBe(0);
      // the probe's file and pages are read again by a thread that never saw them
      expect(await idle.run({ kind: 'text', path: shortFile, page: 1 })).toContain('Page 1, line 0 ');
      expect(idle.threads).toBe(2);
      expect(ended).toHaveLength(2);
      expect(ended[1]).not.toBe(ended[0]);
    } finally {
      await idle.close();
    }
    expect(idle.threads).toBe(0);
  });

  it('are not ended at work, nor between tasks that follow one another', async () => {
    const ended: number[] = [];
    // shorter than any task: the wait starts only when no thread has one left
    const busy = new PdfPool({
      size: 1,
      taskTimeoutMs: 10_000,
      memoryMb: 256,
      idleExitMs: 1,
      onTaskEnd: (_kind, _outcome, _seconds, threadId) => ended.push(threadId),
    });
    try {
      const outcomes = await busy.run({ kind: 'pages', path: longFile, page: 1, count: 40 });
      expect(outcomes.filter((page) => page.ok)).toHaveLength(40);
      // each task is asked for as the one before it ends: the timer set then is cleared before it fires
      for (let page = 1; page <= 5; page++) await busy.run({ kind: 'text', path: longFile, page });
      expect(new Set(ended).size).toBe(1);
      // queued together: the thread takes them in turn without a gap
      await Promise.all([1, 2, 3].map((page) => busy.run({ kind: 'page', path: longFile, page })));
      expect(new Set(ended).size).toBe(1);
    } finally {
      await busy.close();
    }
  });

  it('a pool closed while it waits to end its threads closes at once, and refuses tasks after', async () => {
    const closing = new PdfPool({ size: 1, taskTimeoutMs: 10_000, memoryMb: 256, idleExitMs: 60_000 });
    await closing.run({ kind: 'probe', path: shortFile });
    await closing.close();
    expect(closing.threads).toBe(0);
    await expect(closing.run({ kind: 'probe', path: shortFile })).rejects.toMatchObject({ kind: 'crashed' });
  });

  it('without idleExitMs (PARSER_THREAD_IDLE_MS=0) live as long as the pool', async () => {
    const ended: number[] = [];
    const lasting = new PdfPool({
      size: 1,
      taskTimeoutMs: 10_000,
      memoryMb: 256,
      idleExitMs: 0,
      onTaskEnd: (_kind, _outcome, _seconds, threadId) => ended.push(threadId),
    });
    try {
      await lasting.run({ kind: 'probe', path: shortFile });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(lasting.threads).toBe(1);
      await lasting.run({ kind: 'probe', path: shortFile });
      expect(new Set(ended).size).toBe(1);
    } finally {
      await lasting.close();
    }
  });
});

describe("a parser thread's young generation", () => {
  it("is its own 32 MB, whatever --max-semi-space-size the process runs with (the API's 8 would halve it)", async () => {
    setFlagsFromString('--max-semi-space-size=4');
    const small = new PdfPool({ size: 1, taskTimeoutMs: 10_000, memoryMb: 256 });
    try {
      await small.run({ kind: 'probe', path: shortFile });
      // an isolate created after the pool's thread: the flag the pool set is the one V8 reads
      const newSpaceMb = await new Promise<number>((resolve, reject) => {
        const worker = new Worker(
          `const v8 = require('node:v8');
          let keep = [];
          for (let i = 0; i < 2e6; i++) { keep.push({ i }); if (keep.length > 1e5) keep = []; }
          const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
          require('node:worker_threads').parentPort.postMessage(space.space_size / 2 ** 20);`,
          { eval: true, resourceLimits: { maxYoungGenerationSizeMb: 32 } },
        );
        worker.once('message', (mb: number) => {
          resolve(mb);
          void worker.terminate();
        });
        worker.once('error', reject);
      });
      expect(newSpaceMb).toBe(32);
    } finally {
      await small.close();
      setFlagsFromString('--max-semi-space-size=0');
    }
  });
});
