import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textPdf, uploadPdf, waitForRun } from '../helpers/files.js';
import { type Harness, startHarness, throughHaproxy } from '../helpers/harness.js';
import { port } from '../helpers/processes.js';

/**
 * PARSER_YIELD_MS end to end: the API counts its requests, and the parser threads of its run thread wait for
 * them before pages (src/threads/give-way.ts). What they waited shows in `/metrics`.
 */
const servers: { yieldMs: number; h: Harness; metricsPort: number }[] = [];
beforeAll(async () => {
  for (const yieldMs of [200, 0]) {
    const metricsPort = port();
    const h = await startHarness({ PARSER_YIELD_MS: String(yieldMs), METRICS_PORT: String(metricsPort) });
    servers.push({ yieldMs, h, metricsPort });
  }
});
afterAll(() => Promise.all(servers.map(({ h }) => h.close())));

/** Seconds the server's parser threads gave way, as its run thread has told so far. */
async function gaveWay(metricsPort: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  return Number(/^ota_parser_gave_way_seconds_total (\S+)$/m.exec(text)?.[1]);
}

/**
 * A run of 40 pages while a client sends eight requests at once every 2 ms: twice one a millisecond
 * (QUIET_MS), with time left for the parser (a saturated machine starves the parser at its idle policy,
 * whatever it waits for). The requests are `/healthz` (every request counts), which waits for no database:
 * the run list's own time differs by engine and machine, and on PostgreSQL it made the pace slower than
 * QUIET_MS now and then, so that nothing was given way to.
 */
async function runWhileRequestsArrive(h: Harness): Promise<number> {
  const fileId = await uploadPdf(h, await textPdf(40, 5));
  let running = true;
  const client = async () => {
    while (running) {
      const answers = await Promise.all(Array.from({ length: 8 }, () => fetch(`${h.url}/healthz`)));
      for (const answer of answers) {
        await answer.arrayBuffer();
        expect(answer.status).toBe(200);
      }
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  };
  const clients = [client()];
  const started = performance.now();
  try {
    const run = (await h.request('POST', '/api/open/runs', { json: { file_id: fileId } })).body.data;
    const done = await waitForRun(h, run.id);
    expect(done.status, JSON.stringify(done)).toBe('succeeded');
  } finally {
    running = false;
    await Promise.all(clients);
  }
  return performance.now() - started;
}

// behind HAProxy the requests and the run are spread over two processes, and /metrics is one process's. The
// parser threads and the request count are the process's, whatever the engine: the file runs in the sqlite
// project only (vitest.config.ts, onceOnly).
describe.skipIf(throughHaproxy)('parser threads giving way to requests (PARSER_YIELD_MS)', () => {
  it('wait before pages while requests keep arriving, and /metrics tells how long', async () => {
    const { h, metricsPort } = servers.find(({ yieldMs }) => yieldMs === 200)!;
    const ms = await runWhileRequestsArrive(h);
    // the run thread tells within 200 ms of a task's end, once it gets the CPU
    await expect.poll(() => gaveWay(metricsPort), { timeout: 10_000, interval: 50 }).toBeGreaterThan(0);
    expect((await gaveWay(metricsPort)) * 1000).toBeLessThan(ms);
  });

  it('never wait at PARSER_YIELD_MS=0', async () => {
    const { h, metricsPort } = servers.find(({ yieldMs }) => yieldMs === 0)!;
    await runWhileRequestsArrive(h);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await gaveWay(metricsPort)).toBe(0);
  });
});
