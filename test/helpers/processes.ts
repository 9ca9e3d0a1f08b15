import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, expect } from 'vitest';
import type { BlobStore } from '../../src/blobs/blob-store.js';
import { openBlobStore } from '../../src/blobs/open.js';
import { runAdmin } from '../../src/cli/admin-commands.js';
import { loadConfig } from '../../src/kernel/config.js';
import { PROJECT_ROOT } from '../../src/contract/paths.js';
import { engineEnv, queryDatabase } from './engine.js';
import { describeHungProcess, hangReportArgs } from './hung-process.js';

/**
 * A source entry point as built in dist/ (test/setup/build.ts rebuilds it when stale): a process started
 * from it is ready about 1.4 s sooner than through tsx, which the process suites feel hundreds of times.
 */
export function built(source: string): string {
  return source.replace(/^src\//, 'dist/src/').replace(/\.ts$/, '.js');
}

const run = promisify(execFile);

/** The database each data directory's processes share, when the project's engine is PostgreSQL. */
const databases = new Map<string, Record<string, string>>();

/**
 * Real processes from the TypeScript sources, as an operator runs them. A data directory stands for one
 * deployment: every process started with it (server, workers, admin CLI) uses the same database.
 */
export async function tempDataDir(): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'ota-proc-'));
  databases.set(dir, await engineEnv());
  return dir;
}

/** DATA_DIR, and DATABASE_URL when the engine is PostgreSQL. */
export function deploymentEnv(dataDir: string): Record<string, string> {
  return { DATA_DIR: dataDir, ...(databases.get(dataDir) ?? {}) };
}

export interface AdminResult {
  code: number;
  json: Record<string, unknown>;
  stdout: string;
  stderr: string;
}

/**
 * The admin command line (`npm run admin`: `ota admin`'s commands over the admin API served in its process)
 * against a deployment, run in this process as its entry point runs it (a process costs about a second of
 * CPU, and the suites run it a hundred times); `adminProcess` runs the binary.
 */
export async function admin(dataDir: string, ...args: string[]): Promise<AdminResult> {
  let stdout = '';
  let stderr = '';
  const code = await runAdmin(args, {
    env: { ...process.env, ...deploymentEnv(dataDir) },
    out: (text) => void (stdout += text),
    err: (text) => void (stderr += text),
  });
  return { code, stdout, stderr, json: args.includes('--json') ? JSON.parse(stdout) : {} };
}

/** A tenant and its first token, as `admin tenants create --json` prints them (the admin API's answer). */
export interface NewTenant {
  tenant_id: string;
  token: string;
  token_id: string;
}

/** A tenant made by the admin command line: its id, and its first token's id and secret. */
export async function newTenant(dataDir: string, name: string, ...options: string[]): Promise<NewTenant> {
  const created = await admin(dataDir, 'tenants', 'create', '--name', name, ...options, '--json');
  if (created.code !== 0) throw new Error(`admin tenants create: ${created.stdout}${created.stderr}`);
  return createdTenant(created.json);
}

/** The tenant and token of `tenants create --json`'s document. */
export function createdTenant(json: Record<string, unknown>): NewTenant {
  const { tenant, token } = json as {
    tenant: { tenant_id: string };
    token: { token_id: string; token: string };
  };
  return { tenant_id: tenant.tenant_id, token: token.token, token_id: token.token_id };
}

/** The admin command line as an operator runs it: `node dist/src/cli/admin.js`, a process of its own. */
export async function adminProcess(dataDir: string, ...args: string[]): Promise<AdminResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, [built('src/cli/admin.ts'), ...args], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, ...deploymentEnv(dataDir) },
    });
    return { code: 0, stdout, stderr, json: args.includes('--json') ? JSON.parse(stdout) : {} };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return {
      code: failed.code,
      stdout: failed.stdout,
      stderr: failed.stderr,
      json: args.includes('--json') ? JSON.parse(failed.stdout) : {},
    };
  }
}

export interface Started {
  child: ChildProcess;
  url: string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** The end of a process's stderr (and of its log on stdout), and when it has all been read. */
interface StderrTail {
  text(): string;
  closed: Promise<unknown>;
}

async function untilReady(url: string, child: ChildProcess, stderr: StderrTail): Promise<void> {
  // a start on a machine busy with every other project's servers has taken over 20 s (once in CI)
  const deadline = Date.now() + 30_000;
  let lastProbe = 'no answer yet';
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      await stderr.closed;
      throw new Error(`process exited with ${child.exitCode}: ${stderr.text()}`);
    }
    try {
      const response = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
      lastProbe = `${response.status} ${await response.text()}`;
    } catch (error) {
      // not listening yet, or something else holds the port and does not answer
      lastProbe = String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(
    `server did not become ready in 30 s; /readyz: ${lastProbe}; stderr: ${stderr.text()}; ` +
      (await describeHungProcess(child.pid)),
  );
}

/** Every server and worker process a test started that has not exited yet. */
const running = new Set<ChildProcess>();

/**
 * Kills what a failed test left running (test/setup/leftover-processes.ts calls it after each file): a live
 * child would keep its test file's fork, and with it the whole run, from ever ending.
 */
export function killLeftoverProcesses(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

function start(entry: string, env: Record<string, string>): { child: ChildProcess; stderr: StderrTail } {
  const child = spawn(process.execPath, [...hangReportArgs(), built(entry)], {
    cwd: PROJECT_ROOT,
    // the rate limiter runs, far above what a suite sends (test/http/retries.test.ts sets its own)
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_SECOND: '1000000',
      RATE_LIMIT_BURST: '1000000',
      RATE_LIMIT_ANONYMOUS_PER_SECOND: '1000000',
      RATE_LIMIT_ANONYMOUS_BURST: '1000000',
      // most processes here live a few seconds and meet a few operations
      VALIDATORS_AT_START: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // stderr passed on as it comes; the end of both kept for the error when the process dies or hangs at
  // start (its log lines, warnings and up at this level, are on stdout)
  let tail = '';
  let logTail = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    tail = (tail + chunk.toString()).slice(-2_000);
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    logTail = (logTail + chunk.toString()).slice(-2_000);
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return {
    child,
    stderr: {
      text: () => `${tail.trim()}${logTail.trim() ? `; stdout: ${logTail.trim()}` : ''}`,
      closed: new Promise((resolve) => child.once('close', resolve)),
    },
  };
}

const killer =
  (child: ChildProcess) =>
  (signal: NodeJS.Signals = 'SIGKILL') =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill(signal);
    });

export async function startServerProcess(
  dataDir: string,
  port: number,
  env: Record<string, string> = {},
): Promise<Started> {
  const { child, stderr } = start('src/start/server.ts', {
    ...deploymentEnv(dataDir),
    PORT: String(port),
    HOST: '127.0.0.1',
    SEED_DEMO_TENANT: 'false',
    METRICS_PORT: '0',
    ...env,
  });
  const url = `http://127.0.0.1:${port}`;
  await untilReady(url, child, stderr);
  return { child, url, kill: killer(child) };
}

export function startWorkerProcess(dataDir: string, env: Record<string, string> = {}): Started {
  const { child } = start('src/start/worker.ts', { ...deploymentEnv(dataDir), ...env });
  return { child, url: '', kill: killer(child) };
}

/**
 * Ports for server processes: below Linux's ephemeral range (32768-60999), where an outgoing connection of
 * this machine may hold any port at any time, and below the test PostgreSQL's and Swift's (30000-60000).
 * Each test worker (VITEST_POOL_ID, 1 to the worker count) takes its own block of 2,000 and hands its ports
 * out in turn from a random start. Drawn at random from the whole range, a port could be one a process of the
 * other worker was listening on, and the server exited at start (CI met it once in about ten runs).
 */
const PORTS_PER_WORKER = 2_000;
const workerBlock = (Number(process.env.VITEST_POOL_ID ?? 1) - 1) % (20_000 / PORTS_PER_WORKER);
let nextPortInBlock = Math.floor(Math.random() * PORTS_PER_WORKER);
export const port = () => 10_000 + workerBlock * PORTS_PER_WORKER + (nextPortInBlock++ % PORTS_PER_WORKER);

/** Calls a server process over HTTP as a tenant. */
export async function call(
  url: string,
  token: string,
  method: string,
  route: string,
  body?: unknown,
  raw?: Uint8Array,
) {
  const res = await fetch(`${url}${route}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(raw ? { 'content-type': 'application/octet-stream' } : {}),
    },
    body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test reads JSON fields
  return { status: res.status, body: (await res.json()) as any };
}

export async function uploadWhole(url: string, token: string, bytes: Uint8Array): Promise<string> {
  const upload = (
    await call(url, token, 'POST', '/api/open/uploads', { file_name: 'long.pdf', size_bytes: bytes.length })
  ).body.data;
  for (let n = 1; n <= upload.part_count; n++) {
    const part = bytes.subarray((n - 1) * upload.part_size, n * upload.part_size);
    expect(
      (await call(url, token, 'PUT', `/api/open/uploads/${upload.upload_id}/parts/${n}`, undefined, part))
        .status,
    ).toBe(200);
  }
  const done = await call(url, token, 'POST', '/api/open/uploads/complete', { upload_id: upload.upload_id });
  expect(done.status).toBe(200);
  return done.body.data.file_id;
}

export interface RunState {
  status: string;
  completed_tasks: number;
}

/** Reads a run as its tenant does. */
export const runReader = (url: string, token: string, runId: string) => async () =>
  (await call(url, token, 'GET', `/api/open/runs/${runId}`)).body.data;

/** Polls a run until `done` holds for it (or the time is up) and returns its last state. */
export async function pollRun(
  url: string,
  token: string,
  runId: string,
  done: (run: RunState) => boolean,
  timeoutMs: number,
) {
  const look = runReader(url, token, runId);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await look();
    if (done(run) || Date.now() > deadline) return run;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export const finished = (run: RunState) => ['succeeded', 'failed', 'cancelled'].includes(run.status);

/**
 * Lets a worker process run only in slices (SIGCONT, then SIGSTOP) until `reached` holds for the run, and
 * leaves it stopped there: the test looks at the run only while the worker is stopped, so however fast the
 * machine or slow the look, the run cannot finish between the look and what the test does next (a 1,000-page
 * run once took 0.4 s on a fast machine, less than a progress write and a poll). Until the worker claims the
 * run it runs `startMs` at a time; after, `runMs` with pauses of `pausedMs`, which stretch the run on the
 * clock so that its progress writes (every 250 ms of wall time) come after less work each. A run that
 * finished anyway, or the time running out, returns too: the caller's expectations say so.
 */
export async function runInSlices(
  worker: Started,
  look: () => Promise<RunState>,
  reached: (run: RunState) => boolean,
  timeoutMs: number,
  { startMs = 100, runMs = 20, pausedMs = 80 } = {},
): Promise<RunState> {
  const deadline = Date.now() + timeoutMs;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  for (;;) {
    worker.child.kill('SIGSTOP');
    const run = await look();
    if (reached(run) || finished(run) || Date.now() > deadline) return run;
    const claimed = run.status !== 'queued';
    if (claimed) await sleep(pausedMs);
    worker.child.kill('SIGCONT');
    await sleep(claimed ? runMs : startMs);
  }
}

/** The blob store a deployment's processes use, opened as one of them would (local disk or S3). */
export async function deploymentBlobs(dataDir: string): Promise<BlobStore> {
  return openBlobStore(loadConfig({ ...process.env, ...deploymentEnv(dataDir) }));
}

/** The whole bytes of one blob of a deployment. */
export async function readBlob(dataDir: string, key: string): Promise<Buffer> {
  const { stream } = await (await deploymentBlobs(dataDir)).open(key);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Rows of a query against a deployment's database, whichever the engine (`?` placeholders). */
export async function queryDeployment<R>(dataDir: string, sql: string, params: unknown[] = []): Promise<R[]> {
  return queryDatabase<R>(dataDir, deploymentEnv(dataDir).DATABASE_URL, sql, params);
}

/**
 * What a suite starts and the data directories it makes, killed and removed after each test: push onto
 * `started` and `dirs`.
 */
export function cleanedAfterEach(): { started: Started[]; dirs: string[] } {
  const started: Started[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((p) => p.kill()));
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return { started, dirs };
}
