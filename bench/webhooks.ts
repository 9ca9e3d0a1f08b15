/**
 * Scenario 13: webhooks. How long after a run finishes its `run.succeeded` webhook arrives (p50/p99), and
 * deliveries per second by one worker process, against a bare node:http POST loop with the same number of
 * requests in flight to the same receiver in the same run. Receivers are on loopback only.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { startLocalPostgres } from '../stack/postgres.js';
import { openPostgresStore } from '../src/store/postgres/index.js';
import { openSqliteStore } from '../src/store/sqlite/index.js';
import { Tenants } from '../src/tenants/service.js';
import { systemClock } from '../src/kernel/time.js';
import { postgresQuery } from './seed-postgres.js';
import type { Store, WebhookEndpointRow } from '../src/store/types.js';
import { bearer, median, round, type Row } from './common.js';
import { type Proc, startApi, startWorker } from './processes.js';
import { createTenant } from './seed.js';
import { completedUpload } from '../test/helpers/store-rows.js';
import { runLifecycle } from '../src/runs/lifecycle.js';

export interface WebhooksContext {
  quick: boolean;
  work: string;
  port(): number;
  record(row: Row): void;
  pdf: Uint8Array;
}

/** Requests in flight at once: the dispatcher's per-endpoint limit, and the bare loop's. */
const IN_FLIGHT = 32;

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;

/** A receiver that answers 204 at once and tells each arrival (time and body). */
async function receiver(
  onArrival: (body: string, at: number) => void,
): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      onArrival(Buffer.concat(chunks).toString(), Date.now());
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, server };
}

async function api(url: string, token: string, method: string, route: string, body?: unknown) {
  const res = await fetch(`${url}${route}`, {
    method,
    headers: { ...bearer(token), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { data: Record<string, unknown> };
  if (res.status >= 300) throw new Error(`${method} ${route}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

async function uploadPdf(url: string, token: string, pdf: Uint8Array): Promise<string> {
  const started = await api(url, token, 'POST', '/api/open/uploads', {
    file_name: 'hook.pdf',
    size_bytes: pdf.length,
  });
  const put = await fetch(`${url}/api/open/uploads/${started.upload_id as string}/parts/1`, {
    method: 'PUT',
    headers: { ...bearer(token), 'content-type': 'application/pdf' },
    body: pdf,
  });
  if (put.status !== 200) throw new Error(`part: ${put.status}`);
  return (await api(url, token, 'POST', '/api/open/uploads/complete', { upload_id: started.upload_id }))
    .file_id as string;
}

/** `count` upload.completed events with a pending delivery each, written as the server writes them. */
async function seedDeliveries(store: Store, tenantId: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await completedUpload(store, tenantId);
}

/**
 * The bare ceiling: `count` POSTs of `body`, `IN_FLIGHT` at a time over keep-alive, to the receiver, from a
 * process of its own, as the worker's deliveries come from one (a loop in the receiver's own process would
 * save the crossing between processes that every real sender pays).
 */
const BARE_LOOP = `
import { Agent, request } from 'node:http';
const { URL: url, BODY: body, COUNT, IN_FLIGHT } = process.env;
const count = Number(COUNT);
const agent = new Agent({ keepAlive: true, maxSockets: Number(IN_FLIGHT) });
let next = 0;
const one = () => new Promise((resolve, reject) => {
  const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
    res.resume();
    res.on('end', resolve);
  });
  req.on('error', reject);
  req.end(body);
});
const started = performance.now();
await Promise.all(Array.from({ length: Number(IN_FLIGHT) }, async () => {
  while (next < count) { next++; await one(); }
}));
process.stdout.write(String(count / ((performance.now() - started) / 1000)));
agent.destroy();
`;

async function bareLoop(url: string, body: string, count: number): Promise<number> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', BARE_LOOP], {
    env: { ...process.env, URL: url, BODY: body, COUNT: String(count), IN_FLIGHT: String(IN_FLIGHT) },
  });
  return Number(stdout);
}

/** An enabled endpoint as the store keeps it, every type unless told. */
const endpointRow = (
  row: Pick<WebhookEndpointRow, 'tenant_id' | 'url'> & Partial<WebhookEndpointRow>,
): WebhookEndpointRow => ({
  id: randomUUID(),
  events: null,
  description: null,
  status: 'enabled',
  secret: `whsec_${Buffer.alloc(32, 1).toString('base64')}`,
  previous_secret: null,
  previous_secret_until: null,
  failing_since: null,
  api_version: '2026-11-29',
  created_at: new Date().toISOString(),
  ...row,
});

/** The claim's batch in the PostgreSQL measurement, as a dispatcher with 32 slots claims half of them. */
const CLAIM_BATCH = 16;

/**
 * A PostgreSQL claim of a batch with 1,000 and with 100,000 deliveries due: an index walk costs the batch,
 * not the backlog. The median of 30 claims; each claim's leases are released before the next (not timed).
 */
async function postgresClaims(ctx: WebhooksContext): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'ota-bench-claims-'));
  const server = await startLocalPostgres(dir, ctx.port());
  try {
    await postgresQuery(server.url, 'CREATE DATABASE claims');
    const url = server.url.replace(/\/postgres$/, '/claims');
    const store = await openPostgresStore(
      {
        url,
        poolSize: 4,
        statementTimeoutMs: 60_000,
        connectTimeoutMs: 5_000,
        applicationName: 'bench-claims',
      },
      runLifecycle,
    );
    try {
      const tenant = await new Tenants(store, systemClock).create('claims');
      const endpointId = randomUUID();
      await store.transaction(tenant.tenant_id, (tx) =>
        tx.webhooks.create(
          endpointRow({ id: endpointId, tenant_id: tenant.tenant_id, url: 'https://hooks.example/x' }),
          100,
        ),
      );
      const figures: { due: number; ms: number }[] = [];
      let due = 0;
      for (const target of [1_000, 100_000]) {
        // events and their deliveries as the outbox writes them, due a minute ago
        await postgresQuery(
          url,
          `WITH e AS (
             INSERT INTO events (id, tenant_id, type, created_at, body, position)
             SELECT gen_random_uuid()::text, $1, 'upload.completed', $3, '{}', $4 + n
             FROM generate_series(1, $2) AS n RETURNING id)
           INSERT INTO webhook_deliveries (endpoint_id, event_id, tenant_id, next_attempt_at, status)
           SELECT $5, id, $1, $3, 'pending' FROM e`,
          [tenant.tenant_id, target - due, new Date(Date.now() - 60_000).toISOString(), due + 10, endpointId],
        );
        due = target;
        await postgresQuery(url, 'ANALYZE webhook_deliveries');
        const times: number[] = [];
        for (let i = 0; i < 30; i++) {
          const now = new Date();
          const started = performance.now();
          const claimed = await store.webhooks.claim(
            `bench-${i}`,
            now.toISOString(),
            new Date(now.getTime() + 60_000).toISOString(),
            IN_FLIGHT,
            CLAIM_BATCH,
          );
          times.push(performance.now() - started);
          if (claimed.length !== CLAIM_BATCH) throw new Error(`claimed ${claimed.length}`);
          await postgresQuery(
            url,
            'UPDATE webhook_deliveries SET lease_owner = NULL, lease_until = NULL WHERE lease_until IS NOT NULL',
          );
        }
        figures.push({ due: target, ms: median(times) });
      }
      const [small, large] = figures as [{ due: number; ms: number }, { due: number; ms: number }];
      ctx.record({
        scenario: '13 webhooks',
        variant: `PostgreSQL claim of ${CLAIM_BATCH}: ${round(small.ms)} ms with ${small.due} due, ${round(large.ms)} ms with ${large.due} due (median of 30)`,
        p50: large.ms,
        ratio: large.ms / small.ms,
        target: 'flat: <= 2x from 1,000 to 100,000 due',
        met: large.ms / small.ms <= 2,
      });
    } finally {
      await store.close();
    }
  } finally {
    server.stop();
  }
}

export async function webhooks(ctx: WebhooksContext): Promise<void> {
  await postgresClaims(ctx);
  const dataDir = mkdtempSync(path.join(ctx.work, 'webhooks-'));
  const tenant = await createTenant(dataDir, 'hooks');
  const env = {
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    WEBHOOK_ENDPOINT_CONCURRENCY: String(IN_FLIGHT),
    WEBHOOK_CONCURRENCY: String(IN_FLIGHT),
    PARSER_THREADS: '1',
  };
  let onArrival: (body: string, at: number) => void = () => undefined;
  const hook = await receiver((body, at) => onArrival(body, at));
  const procs: Proc[] = [];
  try {
    // the API answers; one worker process executes runs and delivers webhooks, as in a deployment
    const server = await startApi(dataDir, ctx.port(), { ...env, PARSER_THREADS: '0' });
    procs.push(server);
    procs.push(startWorker(dataDir, env));
    await api(server.url, tenant.token, 'POST', '/api/open/webhook_endpoints', {
      url: hook.url,
      events: ['run.succeeded'],
    });

    // 1. a run's completion to its webhook's arrival, one run at a time (an idle queue)
    const fileId = await uploadPdf(server.url, tenant.token, ctx.pdf);
    const runs = ctx.quick ? 15 : 200;
    const delays: number[] = [];
    for (let i = 0; i < runs; i++) {
      const arrived = new Promise<{ body: string; at: number }>((resolve) => {
        onArrival = (body, at) => resolve({ body, at });
      });
      await api(server.url, tenant.token, 'POST', '/api/open/runs', { file_id: fileId });
      const { body, at } = await arrived;
      const event = JSON.parse(body) as { data: { object: { completed_at: string } } };
      delays.push(at - Date.parse(event.data.object.completed_at));
    }
    ctx.record({
      scenario: '13 webhooks',
      variant: `run finished -> webhook arrived (${runs} runs, one worker process, SQLite)`,
      p50: median(delays),
      p99: percentile(delays, 99),
      target: 'p99 < 500 ms',
      met: percentile(delays, 99) < 500,
    });
    for (const proc of procs.splice(0)) await proc.stop();

    // 2. deliveries per second: a backlog of events, then one worker process drains it
    const count = ctx.quick ? 2_000 : 10_000;
    const store = openSqliteStore(dataDir, runLifecycle);
    let sample = '';
    try {
      await store.transaction(tenant.tenantId, (tx) =>
        tx.webhooks.create(
          endpointRow({ tenant_id: tenant.tenantId, url: hook.url, events: ['upload.completed'] }),
          100,
        ),
      );
      await seedDeliveries(store, tenant.tenantId, count);
      const [event] = (await store.events.list(tenant.tenantId, 'upload.completed', 1))!.items;
      sample = event!;
    } finally {
      await store.close();
    }
    const arrivals: number[] = [];
    const drained = new Promise<void>((resolve) => {
      onArrival = (_body, at) => {
        arrivals.push(at);
        if (arrivals.length === count) resolve();
      };
    });
    const worker = startWorker(dataDir, env);
    procs.push(worker);
    await drained;
    // from the first arrival to the last: the worker's start-up is not the dispatcher's throughput
    const ours = (count - 1) / ((arrivals[count - 1]! - arrivals[0]!) / 1000);
    await worker.stop();
    procs.splice(0);
    onArrival = () => undefined;
    const bare = await bareLoop(hook.url, sample, count);
    ctx.record({
      scenario: '13 webhooks',
      variant: `deliveries/s, one worker process, ${IN_FLIGHT} in flight (bare node:http POST loop in its own process ${Math.round(bare)}/s)`,
      rps: ours,
      ratio: ours / bare,
      target: '>= 0.5x the bare loop',
      met: ours / bare >= 0.5,
      value: `${count} deliveries`,
    });
    console.log(`  bare loop: ${round(bare)} req/s`);
  } finally {
    for (const proc of procs) await proc.stop();
    await new Promise((resolve) => hook.server.close(resolve));
    hook.server.closeAllConnections();
  }
}
