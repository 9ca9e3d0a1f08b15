import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { textPdf } from '../helpers/files.js';
import {
  call,
  cleanedAfterEach,
  port,
  startServerProcess,
  startWorkerProcess,
  tempDataDir,
  uploadWhole,
  newTenant,
} from '../helpers/processes.js';
import { sseEvents, startReceiver } from '../helpers/receiver.js';

const { started, dirs } = cleanedAfterEach();
const receivers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

/** Loopback receivers allowed; a dispatcher's lease of a second. */
const env = {
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  WEBHOOK_TIMEOUT_MS: '60000',
  WEBHOOK_LEASE_MS: '1000',
  EVENT_POLL_MS: '50',
  PARSER_THREADS: '1',
};

describe('a dispatcher killed mid-delivery', () => {
  it('leaves the delivery to another process, which sends the same webhook-id again; one event, one attempt logged', async () => {
    const dataDir = await tempDataDir();
    dirs.push(dataDir);
    const tenant = await newTenant(dataDir, 'hooks');
    // the first delivery hangs until its dispatcher dies; the next one is answered
    const receiver = await startReceiver((_received, nth) => (nth === 1 ? 'hang' : { status: 200 }));
    receivers.push(receiver);
    const server = await startServerProcess(dataDir, port(), { ...env, PARSER_THREADS: '0' });
    started.push(server);
    const endpoint = (
      await call(server.url, tenant.token, 'POST', '/api/open/webhook_endpoints', {
        url: receiver.url('/hook'),
        events: ['upload.completed'],
      })
    ).body.data as { id: string; secret: string };

    const first = startWorkerProcess(dataDir, env);
    started.push(first);
    await uploadWhole(server.url, tenant.token, await textPdf(1));
    await receiver.until((all) => all.length >= 1);
    await first.kill('SIGKILL');

    const second = startWorkerProcess(dataDir, env);
    started.push(second);
    const got = await receiver.until((all) => all.length >= 2, 30_000);
    expect(got[1]!.headers['webhook-id']).toBe(got[0]!.headers['webhook-id']);
    expect(got[1]!.body).toBe(got[0]!.body);
    const verifier = new Webhook(endpoint.secret);
    for (const delivery of got) expect(() => verifier.verify(delivery.body, delivery.headers)).not.toThrow();

    const events = (await call(server.url, tenant.token, 'GET', '/api/open/events?type=upload.completed'))
      .body;
    expect(events.data.map((e: { id: string }) => e.id)).toEqual([got[0]!.headers['webhook-id']]);
    // the killed dispatcher recorded nothing; the one that delivered recorded its attempt as the first
    const deadline = Date.now() + 10_000;
    let log: { attempt: number; status_code: number }[] = [];
    while (Date.now() < deadline) {
      log = (
        await call(server.url, tenant.token, 'GET', `/api/open/webhook_endpoints/${endpoint.id}/deliveries`)
      ).body.data;
      if (log.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(log.map((a) => [a.attempt, a.status_code])).toEqual([[1, 200]]);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.received).toHaveLength(2);
  });

  // the worker's URL policy is no engine's (a failed attempt is logged as any other, events.test.ts): in the
  // sqlite project only (tag one-engine, vitest.config.ts)
  it(
    'refuses loopback receivers with the settings as shipped, at delivery too',
    { tags: ['one-engine'] },
    async () => {
      const dataDir = await tempDataDir();
      dirs.push(dataDir);
      const tenant = await newTenant(dataDir, 'strict');
      const receiver = await startReceiver();
      receivers.push(receiver);
      // the API allows the endpoint; the worker, as shipped, does not deliver to it
      const server = await startServerProcess(dataDir, port(), { ...env, PARSER_THREADS: '0' });
      started.push(server);
      const endpoint = (
        await call(server.url, tenant.token, 'POST', '/api/open/webhook_endpoints', {
          url: receiver.url('/hook'),
          events: ['upload.completed'],
        })
      ).body.data as { id: string };
      const worker = startWorkerProcess(dataDir, {
        WEBHOOK_LEASE_MS: '1000',
        EVENT_POLL_MS: '50',
        PARSER_THREADS: '1',
        WEBHOOK_ALLOW_HTTP: 'true',
        WEBHOOK_RETRY_SCHEDULE: '1h',
      });
      started.push(worker);
      await uploadWhole(server.url, tenant.token, await textPdf(1));
      const deadline = Date.now() + 15_000;
      let log: { status_code: number | null; error: string }[] = [];
      while (Date.now() < deadline && log.length === 0) {
        log = (
          await call(server.url, tenant.token, 'GET', `/api/open/webhook_endpoints/${endpoint.id}/deliveries`)
        ).body.data;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(log).toHaveLength(1);
      expect(log[0]!.status_code).toBeNull();
      // the refusal tells nothing of what the name resolved to
      expect(log[0]!.error).toMatch(
        /public internet addresses only \(WEBHOOK_ALLOW_PRIVATE_NETWORKS is off\)/,
      );
      expect(log[0]!.error).not.toContain('127.0.0.1');
      expect(receiver.received).toHaveLength(0);
    },
  );
});

describe('the event stream across processes', () => {
  it('tells a stream held by an API process what a worker process did', async () => {
    const dataDir = await tempDataDir();
    dirs.push(dataDir);
    const tenant = await newTenant(dataDir, 'streams');
    const server = await startServerProcess(dataDir, port(), { ...env, PARSER_THREADS: '0' });
    started.push(server);
    const worker = startWorkerProcess(dataDir, env);
    started.push(worker);
    const fileId = await uploadWhole(server.url, tenant.token, await textPdf(1));
    const stop = new AbortController();
    const stream = await fetch(`${server.url}/api/open/events/stream?type=run.succeeded`, {
      headers: { authorization: `Bearer ${tenant.token}` },
      signal: stop.signal,
    });
    const run = (await call(server.url, tenant.token, 'POST', '/api/open/runs', { file_id: fileId })).body
      .data;
    for await (const message of sseEvents(stream.body!)) {
      expect(message.event).toBe('run.succeeded');
      expect(JSON.parse(message.data).data.object).toMatchObject({ id: run.id, status: 'succeeded' });
      break;
    }
    stop.abort();
  });
});
