import net from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readPdf, uploadPdf, waitForRun } from '../helpers/files.js';
import { type Harness, startHarness, throughHaproxy } from '../helpers/harness.js';
import { port } from '../helpers/processes.js';

/** What an operator sees: metrics on their own port, the docs from `/`, trace ids in the log. */
const lines: Record<string, unknown>[] = [];
let h: Harness;
let metricsPort: number;
beforeAll(async () => {
  metricsPort = port();
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  h = await startHarness({ METRICS_PORT: String(metricsPort) }, { logger: pino({ level: 'debug' }, sink) });
});
afterAll(() => h.close());

// what no engine takes part in (the listeners' routes, the access log) runs in the sqlite project only
// (vitest.config.ts)
const once = { tags: ['one-engine'] };

describe('metrics', () => {
  // a process counts what it served: behind HAProxy (the `haproxy` project) the requests are spread over two
  it.skipIf(throughHaproxy)(
    '/metrics on METRICS_PORT shows requests, runs, the queue, parser tasks, upload bytes and the process',
    async () => {
      const fileId = await uploadPdf(h, readPdf('real/cups-filters__classified.pdf'));
      const run = (await h.request('POST', '/api/open/runs', { json: { file_id: fileId } })).body.data;
      await waitForRun(h, run.id);
      const scrape = async () => {
        const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
        expect(res.status).toBe(200);
        return res.text();
      };
      // the run thread tells its parser tasks within NEWS_MS of their end (src/start/run-thread.ts), once it gets
      // the CPU (it runs at the idle policy)
      await expect
        .poll(scrape, { timeout: 10_000, interval: 50 })
        .toMatch(/ota_parser_task_duration_seconds_count\{kind="page",outcome="ok"\} 1/);
      const text = await scrape();
      expect(text).toMatch(/ota_http_request_duration_seconds_count\{operation="createRun",status="201"\} 1/);
      expect(text).toMatch(/ota_runs\{status="succeeded"\} 1/);
      expect(text).toMatch(/ota_run_queue_depth 0/);
      expect(text).toMatch(/ota_run_queue_oldest_age_seconds 0/);
      expect(text).toMatch(/ota_parser_task_duration_seconds_count\{kind="page",outcome="ok"\} 1/);
      // one at the upload's complete; the run takes the page count the upload read
      expect(text).toMatch(/ota_parser_task_duration_seconds_count\{kind="probe",outcome="ok"\} 1/);
      const bytes = readPdf('real/cups-filters__classified.pdf').length;
      expect(text).toMatch(new RegExp(`ota_upload_bytes_total ${bytes}\\b`));
      expect(text).toMatch(/ota_parser_heap_peak_bytes [1-9]\d{6,}/);
      expect(text).toMatch(/process_cpu_user_seconds_total/);
      expect(text).toMatch(/nodejs_eventloop_lag_seconds/);
    },
  );

  it('is not served beside the tenant API', once, async () => {
    const res = await h.request('GET', '/metrics', { token: null });
    expect(res.status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/other`)).status).toBe(404);
  });
});

describe('the front door and the log', once, () => {
  it('/ points at /docs; /docs and /openapi.yaml are served', async () => {
    const root = await fetch(`${h.url}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/docs');
    const contract = await fetch(`${h.url}/openapi.yaml`);
    expect(contract.headers.get('content-type')).toBe('application/yaml');
    expect(await contract.text()).toMatch(/^openapi: 3\.0\.3/);
  });

  it('a W3C traceparent puts its trace id beside the request id in the access log; debug adds detail', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const res = await h.request('GET', '/api/open/runs?limit=1', {
      headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01`, 'x-request-id': 'trace-test-1' },
    });
    expect(res.status).toBe(200);
    const access = lines.find((l) => l.msg === 'request' && l.request_id === 'trace-test-1');
    expect(access).toMatchObject({ trace_id: traceId, route: 'listRuns', status: 200 });
    const detail = lines.find((l) => l.msg === 'request detail' && l.request_id === 'trace-test-1');
    expect(detail).toMatchObject({ query: 'limit=1' });
    expect(JSON.stringify(lines)).not.toContain(h.tenant.token);
    // a malformed traceparent is ignored
    await h.request('GET', '/api/open/runs?limit=1', {
      headers: { traceparent: '00-zz-00f067aa0ba902b7-01', 'x-request-id': 'trace-test-2' },
    });
    expect(
      lines.find((l) => l.msg === 'request' && l.request_id === 'trace-test-2')?.trace_id,
    ).toBeUndefined();
  });
});

describe('a client closing its event stream', () => {
  it('is a normal event, not an error in the log', async () => {
    const socket = net.connect(new URL(h.url).port ? Number(new URL(h.url).port) : 80, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    const firstBytes = new Promise<void>((resolve) => socket.once('data', () => resolve()));
    socket.write(
      `GET /api/open/events/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${h.tenant.token}\r\n` +
        'X-Request-Id: stream-closed-by-client\r\n\r\n',
    );
    await firstBytes;
    // an event while the stream is open, then the client resets its connection
    await uploadPdf(h, readPdf('real/cups-filters__classified.pdf'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.resetAndDestroy();
    await vi.waitFor(
      () =>
        expect(lines.some((l) => l.request_id === 'stream-closed-by-client' && l.msg === 'request')).toBe(
          true,
        ),
      { timeout: 5000, interval: 50 },
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const errors = lines.filter((l) => Number(l.level) >= 50);
    expect(errors, JSON.stringify(errors)).toEqual([]);
  });
});
