/**
 * The whole scale-out deployment on this machine, for trying it: `npm run stack` brings up PostgreSQL,
 * OpenStack Swift (S3 API), two API processes, two worker processes and HAProxy in front of the API
 * processes, with a second frontend of its own on loopback for their admin listeners (the admin API);
 * `npm run stack -- down` takes it all down. State and logs live in DATA_DIR/stack (or the directory given
 * after the command). Needs Swift and HAProxy from Debian: `bash scripts/swift.sh install`
 * and `apt-get install haproxy`; what is missing, or a port already taken, is said before anything starts,
 * and a start that fails half way stops what it started.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openPostgresStore } from '../src/store/postgres/index.js';
import { PROJECT_ROOT } from '../src/contract/paths.js';
import { SERVER_NODE_OPTIONS } from '../src/start/runtime.js';
import { AdminTokens } from '../src/platform/admin-tokens.js';
import { Tenants } from '../src/tenants/service.js';
import { systemClock } from '../src/kernel/time.js';
import { haproxyConfig } from './haproxy.js';
import { allPorts, PORT_BLOCK, type StackPorts, stackPorts } from './ports.js';
import { findPostgres, type LocalPostgres, startLocalPostgres, stopLocalPostgres } from './postgres.js';
import {
  busyPorts,
  describeHolders,
  installLine,
  missingPrograms,
  type Started,
  startAll,
} from './prerequisites.js';
import { createBucket, type LocalSwift, startLocalSwift, stopLocalSwift } from './swift.js';
import { runLifecycle } from '../src/runs/lifecycle.js';

const BUCKET = 'open-tenant';

interface StackState {
  pids: Record<string, number>;
  /** written once every part answered; a state without it is a start that did not finish */
  up?: boolean;
}

const [command = 'up', dirArg] = process.argv.slice(2);
const dir = path.resolve(dirArg ?? path.join(process.env.DATA_DIR ?? './data', 'stack'));
const stateFile = path.join(dir, 'stack.json');
const postgresDir = path.join(dir, 'postgres');
const swiftDir = path.join(dir, 'swift');

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const readState = (): StackState | undefined =>
  existsSync(stateFile) ? (JSON.parse(readFileSync(stateFile, 'utf8')) as StackState) : undefined;
const writeState = (state: StackState) =>
  writeFileSync(stateFile, `${JSON.stringify(state satisfies StackState, null, 2)}\n`);

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

/** SIGTERM, and SIGKILL for what still runs 10 s later. */
async function stopProcesses(pids: number[]): Promise<void> {
  for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + 10_000;
  while (pids.some(alive) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGKILL');
}

/** Stops every server of this directory that runs: the processes, Swift, PostgreSQL. */
async function stopEverything(state: StackState | undefined): Promise<void> {
  if (state) await stopProcesses(Object.values(state.pids));
  rmSync(stateFile, { force: true });
  if (existsSync(swiftDir)) stopLocalSwift(swiftDir);
  if (existsSync(path.join(postgresDir, 'data', 'postmaster.pid'))) {
    try {
      await stopLocalPostgres(postgresDir);
    } catch (error) {
      // a pid file left by a server that died: nothing runs to stop
      if (existsSync(path.join(postgresDir, 'data', 'postmaster.pid'))) throw error;
    }
  }
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

/** Everything `up` needs, checked before anything starts: one line says what to install or free. */
async function checkPrerequisites(ports: StackPorts): Promise<void> {
  const missing = missingPrograms();
  try {
    await findPostgres();
  } catch {
    missing.push({
      what: 'PostgreSQL server binaries',
      install: 'npm install (or apt-get install postgresql)',
    });
  }
  if (missing.length > 0) throw new Error(installLine(missing));
  const busy = await busyPorts(allPorts(ports));
  if (busy.length > 0) {
    const holders = describeHolders(busy);
    throw new Error(
      `npm run stack needs ports ${busy.join(', ')} on 127.0.0.1, and something else listens there` +
        `${holders ? ` (${holders})` : ''}: stop it, or give the stack ${PORT_BLOCK} free ports from ` +
        `another base, e.g. STACK_PORT_BASE=20000 npm run stack`,
    );
  }
}

async function up(): Promise<void> {
  const PORTS = stackPorts();
  const previous = readState();
  if (previous?.up && Object.values(previous.pids).some(alive))
    throw new Error(`the stack in ${dir} is up already: npm run stack -- down`);
  // what a start that did not finish left running (it was killed, or an older version left it): ours to stop
  await stopEverything(previous);
  await checkPrerequisites(PORTS);
  mkdirSync(path.join(dir, 'logs'), { recursive: true });

  const pids: Record<string, number> = {};
  let postgres: LocalPostgres | undefined;
  let swift: LocalSwift | undefined;
  let demo: { tenant_id: string; token: string } | undefined;
  let adminToken: { admin_token_id: string; token: string } | undefined;
  const env = (): Record<string, string> => ({
    ...swift!.env,
    DATABASE_URL: postgres!.url,
    BLOB_STORE: 's3',
    S3_BUCKET: BUCKET,
    DATA_DIR: path.join(dir, 'scratch'),
    SEED_DEMO_TENANT: 'false',
  });
  await startAll([
    async () => {
      postgres = await startLocalPostgres(postgresDir, PORTS.postgres);
      return { name: 'PostgreSQL', stop: () => stopLocalPostgres(postgresDir) };
    },
    async () => {
      // started before its bucket is made, so that a failed bucket still stops it
      try {
        swift = startLocalSwift(swiftDir, PORTS.swift);
      } catch (error) {
        stopLocalSwift(swiftDir);
        throw error;
      }
      return { name: 'Swift', stop: () => stopLocalSwift(swiftDir) };
    },
    async () => {
      await createBucket(swift!, BUCKET);
      // one process applies the migrations before the others start
      const store = await openPostgresStore(
        {
          url: postgres!.url,
          poolSize: 1,
          statementTimeoutMs: 30_000,
          connectTimeoutMs: 5_000,
          applicationName: 'stack',
        },
        runLifecycle,
      );
      try {
        if ((await store.tenants.list()).length === 0)
          demo = await new Tenants(store, systemClock).create('demo');
        // like the demo tenant's token: the first start issues one admin token, shown once
        if ((await store.platform.listAdminTokens()).length === 0)
          adminToken = await new AdminTokens(store, systemClock).issue('stack');
      } finally {
        await store.close();
      }
      return { name: 'the bucket and the schema', stop: () => undefined };
    },
    async () => {
      const started: Started = {
        name: 'the API and worker processes',
        stop: () => stopProcesses(Object.values(pids)),
      };
      PORTS.apis.forEach((port, i) => {
        pids[`api${i + 1}`] = daemon(
          `api${i + 1}`,
          process.execPath,
          [...SERVER_NODE_OPTIONS, 'dist/src/start/server.js'],
          {
            ...env(),
            PORT: String(port),
            HOST: '127.0.0.1',
            EMBEDDED_WORKER: 'false',
            METRICS_PORT: String(PORTS.metrics[i]),
            // the admin API, on loopback, reached through HAProxy's admin frontend only
            ADMIN_PORT: String(PORTS.admins[i]),
            ADMIN_HOST: '127.0.0.1',
            // HAProxy sends X-Forwarded-For: each client is paced by its own address, not HAProxy's
            TRUST_PROXY: '127.0.0.1',
          },
        );
      });
      for (const name of ['worker1', 'worker2']) {
        pids[name] = daemon(name, process.execPath, [...SERVER_NODE_OPTIONS, 'dist/src/start/worker.js'], {
          ...env(),
          PARSER_THREADS: '1',
        });
      }
      // written now, so that a start killed from here on leaves pids the next start can stop
      writeState({ pids });
      try {
        for (const port of PORTS.apis) await waitFor(`http://127.0.0.1:${port}/readyz`, 'an API process');
        for (const port of PORTS.admins)
          await waitFor(`http://127.0.0.1:${port}/readyz`, "an API process's admin listener");
      } catch (error) {
        await started.stop();
        throw error;
      }
      return started;
    },
    async () => {
      const config = path.join(dir, 'haproxy.cfg');
      writeFileSync(
        config,
        haproxyConfig(
          PORTS.haproxy,
          PORTS.apis.map((port, i) => ({ name: `api${i + 1}`, port })),
          '127.0.0.1',
          undefined,
          {
            port: PORTS.adminHaproxy,
            backends: PORTS.admins.map((port, i) => ({ name: `admin${i + 1}`, port })),
          },
        ),
      );
      pids.haproxy = daemon('haproxy', 'haproxy', ['-db', '-f', config]);
      writeState({ pids });
      await waitFor(`http://127.0.0.1:${PORTS.haproxy}/healthz`, 'HAProxy');
      await waitFor(`http://127.0.0.1:${PORTS.adminHaproxy}/healthz`, "HAProxy's admin frontend");
      return { name: 'HAProxy', stop: () => stopProcesses([pids.haproxy!]) };
    },
  ]).catch((error: unknown) => {
    rmSync(stateFile, { force: true });
    throw error;
  });
  writeState({ pids, up: true });

  process.stdout.write(
    [
      `The stack is up (state and logs in ${dir}):`,
      `  API         http://127.0.0.1:${PORTS.haproxy}  (HAProxy -> API processes on ${PORTS.apis.join(', ')})`,
      `  admin API   http://127.0.0.1:${PORTS.adminHaproxy}  (HAProxy -> their admin listeners on ${PORTS.admins.join(', ')}), loopback only`,
      `  workers     2 processes (npm run worker)`,
      `  PostgreSQL  ${postgres!.url}`,
      `  S3 (Swift)  ${swift!.endpoint}, bucket ${BUCKET}`,
      ...(demo
        ? ['', `Tenant "demo" (${demo.tenant_id}); its API token, shown only now:`, '', `  ${demo.token}`]
        : []),
      ...(adminToken
        ? [
            '',
            `Admin token "stack" (${adminToken.admin_token_id}) for the admin API, shown only now:`,
            '',
            `  ${adminToken.token}`,
          ]
        : []),
      '',
      'Take it down with: npm run stack -- down',
      '',
    ].join('\n'),
  );
}

async function down(): Promise<void> {
  await stopEverything(readState());
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
