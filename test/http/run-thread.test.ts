import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../src/composition/services.js';
import { runThreadJob } from '../../src/start/run-thread.js';
import { readPdf, uploadPdf, waitForRun } from '../helpers/files.js';
import { operatorBomb } from '../helpers/hostile-pdfs.js';
import { type Harness, startHarness, throughHaproxy } from '../helpers/harness.js';
import { manualTimers } from '../helpers/manual-timers.js';
import { sseEvents } from '../helpers/receiver.js';

let h: Harness;
beforeAll(async () => {
  // streams that poll the event log once a minute: what they show at once, they were woken for
  h = await startHarness({ EVENT_POLL_MS: '60000' });
});
afterAll(() => h.close());

/** The store, keeping each look for runs queued elsewhere (`anyWaiting`) in `looks`, to be awaited. */
function keepingLooks(store: Services['store'], looks: Promise<boolean>[]): Services['store'] {
  const bound = <T extends object>(target: T, key: string | symbol) => {
    const value: unknown = Reflect.get(target, key, target);
    return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
  };
  const runs = new Proxy(store.runs, {
    get: (target, key) =>
      key === 'anyWaiting'
        ? (now: string) => {
            const look = target.anyWaiting(now);
            looks.push(look);
            return look;
          }
        : bound(target, key),
  });
  return new Proxy(store, { get: (target, key) => (key === 'runs' ? runs : bound(target, key)) });
}

describe('the run thread of an API process', () => {
  // behind HAProxy the stream may be the twin server's, which hears the other one's events by polling only
  it.skipIf(throughHaproxy)(
    "wakes the process's event streams with the events of its runs, on either engine",
    async () => {
      const controller = new AbortController();
      const stream = await fetch(`${h.url}/api/open/events/stream`, {
        headers: { authorization: `Bearer ${h.tenant.token}` },
        signal: controller.signal,
      });
      expect(stream.status).toBe(200);
      const fileId = await uploadPdf(h, readPdf('real/cups-filters__classified.pdf'));
      const run = (await h.request('POST', '/api/open/runs', { json: { file_id: fileId } })).body.data;
      const seen: string[] = [];
      const started = performance.now();
      for await (const message of sseEvents(stream.body!)) {
        if (JSON.parse(message.data).data.object.id !== run.id) continue;
        seen.push(message.event!);
        if (message.event === 'run.succeeded') break;
      }
      controller.abort();
      // run.created is the API's own; the other two were committed on the run thread's connection
      expect(seen).toEqual(['run.created', 'run.started', 'run.succeeded']);
      expect(performance.now() - started).toBeLessThan(30_000);
    },
    40_000,
  );

  it(
    'a thread that fails is logged and started again later and later, until its job stops',
    // the thread's own database is SQLite under a file, whichever engine the harness has
    { tags: ['one-engine'], timeout: 120_000 },
    async () => {
      const lines: {
        msg: string;
        err?: { message: string; type: string };
        exit_code?: number;
        time: string;
      }[] = [];
      const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
      // a data directory under a file: each start of the thread fails
      const file = path.join(h.dataDir, 'not-a-directory');
      writeFileSync(file, '');
      const config = { ...h.config, database: undefined, dataDir: path.join(file, 'data') };
      const looks: Promise<boolean>[] = [];
      const store = keepingLooks(h.server.services.store, looks);
      const clock = manualTimers();
      const job = runThreadJob({ ...h.server.services, store, config, logger }, clock.timers);
      job.start();
      // the thread starts with the first run this process queues: a look at start and two polls for runs
      // queued elsewhere find none, and nothing but the next poll is planned
      clock.advance(1_000);
      expect(looks.length).toBeGreaterThanOrEqual(3);
      expect(new Set(await Promise.all(looks))).toEqual(new Set([false]));
      expect(lines).toEqual([]);
      expect(clock.planned()).toEqual([{ inMs: 500, repeats: true }]);
      h.server.services.runs.queued.emit();
      const failures = () => lines.filter((line) => line.msg === 'the run thread failed');
      const delays = () => lines.filter((line) => line.msg.startsWith('the run thread starts again in'));
      // a thread's failure is logged when it fails and its next start planned when it has exited, a moment
      // later. Each start loads the thread's modules, seconds of CPU on a loaded machine: the waits are
      // long, and end as soon as the start is planned; the planned wait itself passes at once.
      await expect.poll(() => delays().length, { timeout: 90_000, interval: 100 }).toBe(1);
      // the poll ended with the first start
      expect(clock.planned()).toEqual([{ inMs: 1000, repeats: false }]);
      clock.advance(999);
      expect(clock.planned()).toEqual([{ inMs: 1, repeats: false }]);
      clock.advance(1);
      await expect.poll(() => delays().length, { timeout: 90_000, interval: 100 }).toBe(2);
      expect(clock.planned()).toEqual([{ inMs: 2000, repeats: false }]);
      await job.stop();
      expect(failures()).toHaveLength(2);
      expect(failures()[0]?.err?.message).toMatch(/ENOTDIR/);
      expect(lines.find((line) => line.exit_code !== undefined)?.exit_code).toBe(1);
      expect(delays().map((line) => line.msg)).toEqual([
        'the run thread starts again in 1000 ms',
        'the run thread starts again in 2000 ms',
      ]);
      // stopped: the start it planned does not come
      expect(clock.planned()).toEqual([]);
      clock.advance(60_000);
      expect(failures()).toHaveLength(2);
      expect(job.id).toBeUndefined();
    },
  );
});

describe("the leases of the run thread's runs", () => {
  let short: Harness;
  beforeAll(async () => {
    // leases far shorter than the run: the thread renews none itself
    short = await startHarness({ RUN_LEASE_MS: '300', TASK_TIMEOUT_MS: '60000' });
  });
  afterAll(() => short.close());

  it("are kept by the API's event loop: a run many leases long executes on its first claim", async () => {
    const fileId = await uploadPdf(short, operatorBomb());
    const created = await short.request('POST', '/api/open/runs', { json: { file_id: fileId } });
    expect(created.status).toBe(201);
    const started = performance.now();
    const run = await waitForRun(short, created.body.data.id);
    expect(performance.now() - started).toBeGreaterThan(3 * 300);
    expect(run.status).toBe('succeeded');
    const [entry] = await short.query<{ claims: number }>(
      'SELECT claims FROM run_queue WHERE id = (SELECT queue_message_id FROM runs WHERE id = ?)',
      [run.id],
    );
    expect(Number(entry?.claims)).toBe(1);
  }, 60_000);
});
