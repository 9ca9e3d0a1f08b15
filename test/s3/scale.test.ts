/**
 * The scale-out deployment on one machine: one PostgreSQL, one S3 (Swift), two API processes behind HAProxy
 * and two worker processes, every one a real process as an operator runs it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningHaproxy, startHaproxy } from '../../stack/haproxy.js';
import { padPdf, partSize } from '../helpers/blobs.js';
import { readPdf, sha256, textPdf } from '../helpers/files.js';
import {
  admin,
  call,
  finished,
  pollRun,
  runInSlices,
  runReader,
  port,
  queryDeployment,
  type Started,
  startServerProcess,
  startWorkerProcess,
  tempDataDir,
  uploadWhole,
  newTenant,
} from '../helpers/processes.js';

const PART = partSize(0);
const apiEnv = { PARSER_THREADS: '0', UPLOAD_PART_SIZE: String(PART) };
// tasks may take long: the kill test runs its first worker in slices, and a stopped process's timers count on
const workerEnv = { PARSER_THREADS: '1', RUN_LEASE_MS: '1000', TASK_TIMEOUT_MS: '120000' };

let dataDir: string;
let haproxyDir: string;
let token: string;
const apiPorts = [port(), port()];
const adminPorts = [port(), port()];
const apis: Started[] = [];
const workers: Started[] = [];
let haproxy: RunningHaproxy;

beforeAll(async () => {
  dataDir = await tempDataDir();
  haproxyDir = mkdtempSync(path.join(tmpdir(), 'ota-haproxy-'));
  token = (await newTenant(dataDir, 'scale')).token;
  apis.push(
    ...(await Promise.all(
      apiPorts.map((p, i) =>
        startServerProcess(dataDir, p, { ...apiEnv, ADMIN_PORT: String(adminPorts[i]) }),
      ),
    )),
  );
  haproxy = await startHaproxy(
    haproxyDir,
    port(),
    apiPorts.map((p, i) => ({ name: `api${i + 1}`, port: p })),
    undefined,
    undefined,
    { port: port(), backends: adminPorts.map((p, i) => ({ name: `admin${i + 1}`, port: p })) },
  );
});

afterAll(async () => {
  await haproxy?.stop();
  await Promise.all([...apis, ...workers].map((p) => p.kill()));
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(haproxyDir, { recursive: true, force: true });
});

describe('two API processes behind HAProxy, two workers, PostgreSQL and S3', () => {
  it("the platform's admin API through its own frontend: a tenant it creates is served, then refused once suspended, by both API processes", async () => {
    const adminToken = (
      (await admin(dataDir, 'admin-tokens', 'issue', '--name', 'platform', '--json')).json as {
        token: string;
      }
    ).token;
    const adminCall = async (method: string, route: string) => {
      const res = await fetch(`${haproxy.adminUrl}${route}`, {
        method,
        headers: {
          authorization: `Bearer ${adminToken}`,
          'content-type': 'application/json',
          'idempotency-key': crypto.randomUUID(),
        },
        body:
          method === 'POST' && route.endsWith('/tenants')
            ? JSON.stringify({ name: 'platform-made' })
            : undefined,
      });
      return { status: res.status, body: (await res.json()) as { data: unknown } };
    };
    const created = await adminCall('POST', '/api/admin/tenants');
    expect(created.status).toBe(201);
    const { tenant, token: first } = created.body.data as {
      tenant: { tenant_id: string };
      token: { token: string };
    };
    // both processes, and the public frontend, serve the new tenant
    for (const url of [apis[0]!.url, apis[1]!.url, haproxy.url])
      expect((await call(url, first.token, 'GET', '/api/open/runs')).status).toBe(200);
    expect((await adminCall('POST', `/api/admin/tenants/${tenant.tenant_id}/suspend`)).status).toBe(200);
    // every process's token cache forgets it when PostgreSQL's notification reaches it: within the same
    // second, as the contract says (the process that answered the admin call at its commit)
    for (const url of [apis[0]!.url, apis[1]!.url, haproxy.url]) {
      const refused = () => call(url, first.token, 'GET', '/api/open/runs');
      await expect.poll(async () => (await refused()).status, { timeout: 1000, interval: 10 }).toBe(403);
      expect((await refused()).body.error).toBe('tenant_suspended');
    }
    expect((await adminCall('POST', `/api/admin/tenants/${tenant.tenant_id}/resume`)).status).toBe(200);
    await expect
      .poll(async () => (await call(haproxy.url, first.token, 'GET', '/api/open/runs')).status, {
        timeout: 1000,
        interval: 10,
      })
      .toBe(200);
    // the public frontend has no admin API, and the admin frontend no tenants' API
    expect(
      (
        await fetch(`${haproxy.url}/api/admin/tenants`, {
          headers: { authorization: `Bearer ${adminToken}` },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await fetch(`${haproxy.adminUrl}/api/open/runs`, {
          headers: { authorization: `Bearer ${first.token}` },
        })
      ).status,
    ).toBe(404);
  });

  it('a file uploaded through one API process is diagnosed by a worker and downloaded through the other', async () => {
    workers.push(startWorkerProcess(dataDir, workerEnv), startWorkerProcess(dataDir, workerEnv));
    // three parts on S3
    const bytes = await padPdf(readPdf('real/cups-filters__form_english.pdf'), 2 * PART + 1000);
    const fileId = await uploadWhole(apis[0]!.url, token, bytes);
    const file = (await call(apis[1]!.url, token, 'GET', `/api/open/files/${fileId}`)).body.data;
    expect(file).toMatchObject({ size_bytes: bytes.length, sha256: sha256(bytes), page_count: 1 });

    const run = (await call(apis[0]!.url, token, 'POST', '/api/open/runs', { file_id: fileId })).body.data;
    const done = await pollRun(apis[1]!.url, token, run.id, finished, 60_000);
    expect(done.status).toBe('succeeded');
    for (const url of [apis[1]!.url, haproxy.url]) {
      const report = await fetch(`${url}/api/open/runs/${run.id}/files/report.json`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(report.status).toBe(200);
      expect(report.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const body = Buffer.from(await report.arrayBuffer());
      expect(Number(report.headers.get('content-length'))).toBe(body.length);
      expect(JSON.parse(body.toString()).run_id).toBe(run.id);
    }
  });

  it('kill -9 of one API process under load costs only its in-flight requests, and nothing acknowledged is lost', async () => {
    const fileId = await uploadWhole(haproxy.url, token, readPdf('real/cups-filters__classified.pdf'));
    const outcomes: { at: number; ok: boolean; runId?: string }[] = [];
    const start = Date.now();
    let killedAt = 0;
    const until = start + 4000;
    const client = async (creates: boolean) => {
      while (Date.now() < until) {
        const at = Date.now();
        try {
          const res = creates
            ? await fetch(`${haproxy.url}/api/open/runs`, {
                method: 'POST',
                headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
                body: JSON.stringify({ file_id: fileId }),
              })
            : await fetch(`${haproxy.url}/api/open/runs?page_size=20`, {
                headers: { authorization: `Bearer ${token}` },
              });
          const body = (await res.json()) as { data: { id: string } };
          outcomes.push({ at, ok: res.ok, ...(creates && res.ok ? { runId: body.data.id } : {}) });
        } catch {
          outcomes.push({ at, ok: false });
        }
        if (creates) await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const killer = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      killedAt = Date.now();
      await apis[1]!.kill('SIGKILL');
    })();
    await Promise.all([client(true), client(true), client(false), client(false), client(false), killer]);

    const failed = outcomes.filter((o) => !o.ok);
    // only requests sent around the kill may fail; a second after it, HAProxy sends none to the dead process
    for (const o of failed) expect(o.at - killedAt).toBeLessThan(1000);
    expect(failed.length).toBeLessThan(20);
    expect(outcomes.filter((o) => o.ok && o.at > killedAt + 1000).length).toBeGreaterThan(50);
    const acknowledged = outcomes.filter((o) => o.runId).map((o) => o.runId!);
    expect(acknowledged.length).toBeGreaterThan(20);
    const stored = await queryDeployment<{ id: string }>(dataDir, 'SELECT id FROM runs');
    const ids = new Set(stored.map((r) => r.id));
    for (const id of acknowledged) expect(ids.has(id)).toBe(true);

    // back in rotation once it is up again
    apis[1] = await startServerProcess(dataDir, apiPorts[1]!, apiEnv);
  });

  it('kill -9 of a worker mid-run: another worker finishes the run and it is booked once', async () => {
    await Promise.all(workers.splice(0).map((w) => w.kill()));
    const pages = 2000;
    const fileId = await uploadWhole(haproxy.url, token, await textPdf(pages));
    const run = (await call(haproxy.url, token, 'POST', '/api/open/runs', { file_id: fileId })).body.data;
    const first = startWorkerProcess(dataDir, workerEnv);
    workers.push(first);
    // in slices until it has done some pages: on a fast machine the whole run takes under a second
    const seen = await runInSlices(
      first,
      runReader(haproxy.url, token, run.id),
      (r) => r.completed_tasks >= 20,
      30_000,
    );
    expect(seen.status, JSON.stringify(seen)).toBe('running');
    workers.push(startWorkerProcess(dataDir, workerEnv));
    await first.kill('SIGKILL');

    const last = await pollRun(haproxy.url, token, run.id, finished, 60_000);
    expect(last).toMatchObject({ status: 'succeeded', completed_tasks: pages + 1, failed_tasks: 0 });
    const bookings = await queryDeployment<{ n: number }>(
      dataDir,
      'SELECT COUNT(*) AS n FROM ledger WHERE run_id = ?',
      [run.id],
    );
    expect(bookings[0]!.n).toBe(1);
  });
});
