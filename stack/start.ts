/**
 * The whole scale-out deployment on this machine, for trying it: `npm run stack` brings up PostgreSQL,
 * OpenStack Swift (S3 API), two API processes, two worker processes and HAProxy in front of the API
 * processes; `npm run stack -- down` takes it all down. State and logs live in DATA_DIR/stack (or the
 * directory given after the command). Needs Swift and HAProxy from Debian: `bash scripts/swift.sh install`
 * and `apt-get install haproxy`.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openPostgresStore } from '../src/store/postgres/index.js';
import { PROJECT_ROOT } from '../src/paths.js';
import { Tenants } from '../src/tenants/service.js';
import { systemClock } from '../src/time.js';
import { haproxyConfig, haproxyInstalled } from './haproxy.js';
import { startLocalPostgres, stopLocalPostgres } from './postgres.js';
import { createBucket, startLocalSwift, stopLocalSwift } from './swift.js';

const PORTS = { haproxy: 8080, apis: [8081, 8082], postgres: 5433, swift: 18080 };
const BUCKET = 'open-tenant';

interface StackState {
  pids: Record<string, number>;
}

const [command = 'up', dirArg] = process.argv.slice(2);
const dir = path.resolve(dirArg ?? path.join(process.env.DATA_DIR ?? './data', 'stack'));
const stateFile = path.join(dir, 'stack.json');

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

function daemon(name: string, command: string, args: string[], env: Record<string, string> = {}): number {
  const log = openSync(path.join(dir, 'logs', `${name}.log`), 'a');
  const child = spawn(command, args, {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', log, log],
  });
  child.unref();
  return child.pid!;
}

async function waitFor(url: string, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`${what} did not come up at ${url}; see ${dir}/logs`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function up(): Promise<void> {
  if (existsSync(stateFile)) {
    const state = JSON.parse(readFileSync(stateFile, 'utf8')) as StackState;
    if (Object.values(state.pids).some(alive))
      throw new Error(`the stack in ${dir} is up already: npm run stack -- down`);
  }
  if (!haproxyInstalled()) throw new Error('HAProxy is not installed: apt-get install haproxy');
  mkdirSync(path.join(dir, 'logs'), { recursive: true });

  const postgres = await startLocalPostgres(path.join(dir, 'postgres'), PORTS.postgres);
  const swift = startLocalSwift(path.join(dir, 'swift'), PORTS.swift);
  await createBucket(swift, BUCKET);

  const env: Record<string, string> = {
    ...swift.env,
    DATABASE_URL: postgres.url,
    BLOB_STORE: 's3',
    S3_BUCKET: BUCKET,
    DATA_DIR: path.join(dir, 'scratch'),
    SEED_DEMO_TENANT: 'false',
  };
  // one process applies the migrations before the others start
  const store = await openPostgresStore({
    url: postgres.url,
    poolSize: 1,
    statementTimeoutMs: 30_000,
    connectTimeoutMs: 5_000,
    applicationName: 'stack',
  });
  let demo: { tenant_id: string; token: string } | undefined;
  if ((await store.tenants.list()).length === 0) demo = await new Tenants(store, systemClock).create('demo');
  await store.close();

  const pids: Record<string, number> = {};
  PORTS.apis.forEach((port, i) => {
    pids[`api${i + 1}`] = daemon(`api${i + 1}`, process.execPath, ['dist/src/start/server.js'], {
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      EMBEDDED_WORKER: 'false',
      METRICS_PORT: String(9464 + i),
      // HAProxy sends X-Forwarded-For: each client is paced by its own address, not HAProxy's
      TRUST_PROXY: '127.0.0.1',
    });
  });
  for (const name of ['worker1', 'worker2']) {
    pids[name] = daemon(name, process.execPath, ['dist/src/start/worker.js'], {
      ...env,
      PARSER_THREADS: '1',
    });
  }
  for (const port of PORTS.apis) await waitFor(`http://127.0.0.1:${port}/readyz`, 'an API process');
  const config = path.join(dir, 'haproxy.cfg');
  writeFileSync(
    config,
    haproxyConfig(
      PORTS.haproxy,
      PORTS.apis.map((port, i) => ({ name: `api${i + 1}`, port })),
    ),
  );
  pids.haproxy = daemon('haproxy', 'haproxy', ['-db', '-f', config]);
  await waitFor(`http://127.0.0.1:${PORTS.haproxy}/healthz`, 'HAProxy');
  writeFileSync(stateFile, `${JSON.stringify({ pids } satisfies StackState, null, 2)}\n`);

  process.stdout.write(
    [
      `The stack is up (state and logs in ${dir}):`,
      `  API         http://127.0.0.1:${PORTS.haproxy}  (HAProxy -> API processes on ${PORTS.apis.join(', ')})`,
      `  workers     2 processes (npm run worker)`,
      `  PostgreSQL  ${postgres.url}`,
      `  S3 (Swift)  ${swift.endpoint}, bucket ${BUCKET}`,
      ...(demo
        ? ['', `Tenant "demo" (${demo.tenant_id}); its API token, shown only now:`, '', `  ${demo.token}`]
        : []),
      '',
      'Take it down with: npm run stack -- down',
      '',
    ].join('\n'),
  );
}

async function down(): Promise<void> {
  if (existsSync(stateFile)) {
    const state = JSON.parse(readFileSync(stateFile, 'utf8')) as StackState;
    for (const pid of Object.values(state.pids)) if (alive(pid)) process.kill(pid, 'SIGTERM');
    const deadline = Date.now() + 10_000;
    while (Object.values(state.pids).some(alive) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    for (const pid of Object.values(state.pids)) if (alive(pid)) process.kill(pid, 'SIGKILL');
    rmSync(stateFile);
  }
  if (existsSync(path.join(dir, 'swift'))) stopLocalSwift(path.join(dir, 'swift'));
  if (existsSync(path.join(dir, 'postgres', 'data', 'postmaster.pid')))
    await stopLocalPostgres(path.join(dir, 'postgres'));
  process.stdout.write(
    `The stack in ${dir} is down (its data stays there; remove the directory to start afresh).\n`,
  );
}

try {
  if (command === 'up') await up();
  else if (command === 'down') await down();
  else throw new Error(`unknown command ${command}: use up or down`);
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
}
