import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { PROJECT_ROOT } from '../src/contract/paths.js';
import { SERVER_NODE_OPTIONS } from '../src/start/runtime.js';
import { pinnedServerCores } from './load.js';

export interface Proc {
  child: ChildProcess;
  url: string;
  /** Peak resident memory since the last reset, in MB (Linux /proc). */
  peakRssMb(): number;
  /** Resident memory now, in MB. */
  rssMb(): number;
  resetPeak(): void;
  stop(): Promise<void>;
}

const running = new Set<Proc>();

/** Everything the bench starts, it stops: also on Ctrl-C or a failure. */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((p) => p.stop()));
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void stopAll().finally(() => process.exit(130));
  });
}

function statusField(pid: number, field: string): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(
      readFileSync(`/proc/${pid}/status`, 'utf8'),
    );
    return match ? Number(match[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

async function waitFor(url: string, child: ChildProcess, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: process exited with ${child.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.status < 500) return;
    } catch {
      // not yet
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

function track(child: ChildProcess, url: string): Proc {
  const proc: Proc = {
    child,
    url,
    peakRssMb: () => statusField(child.pid!, 'VmHWM'),
    rssMb: () => statusField(child.pid!, 'VmRSS'),
    resetPeak: () => {
      try {
        writeFileSync(`/proc/${child.pid}/clear_refs`, '5');
      } catch {
        // not Linux, or not allowed: the peak then counts from the start
      }
    },
    stop: () =>
      new Promise<void>((resolve) => {
        running.delete(proc);
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
        child.once('exit', () => {
          clearTimeout(force);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
  running.add(proc);
  return proc;
}

/** `node args`, on the server core when `pinned` (taskset execs node, so the pid is node's). */
function spawnNode(args: string[], pinned: boolean, node = process.execPath) {
  return pinned && pinnedServerCores
    ? (['taskset', ['-c', pinnedServerCores, node, ...args]] as const)
    : ([node, args] as const);
}

/**
 * Our server, compiled (`npm run build` first), as `npm start` runs it (its Node.js options too); `pinned`
 * for the HTTP scenarios.
 */
export async function startApi(
  dataDir: string,
  port: number,
  env: Record<string, string> = {},
  {
    pinned = false,
    node = process.execPath,
    nodeArgs = [] as string[],
  }: {
    pinned?: boolean;
    /** Another Node.js binary than the bench's own (scenario 12), with its own options. */
    node?: string;
    nodeArgs?: string[];
  } = {},
): Promise<Proc & { startupMs: number }> {
  const started = performance.now();
  const [command, args] = spawnNode(
    [...SERVER_NODE_OPTIONS, ...nodeArgs, 'dist/src/start/server.js'],
    pinned,
    node,
  );
  const child = spawn(command, args, {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      // the default level: every request writes its access-log line, as in production
      LOG_LEVEL: 'info',
      SEED_DEMO_TENANT: 'false',
      METRICS_PORT: '0',
      // the limiter counts every request, but a scenario's one tenant sends thousands a second, far past
      // the default limit: scenario 11 measures what the counting costs against limits off
      RATE_LIMIT_PER_SECOND: '1000000',
      RATE_LIMIT_BURST: '1000000',
      RATE_LIMIT_ANONYMOUS_PER_SECOND: '1000000',
      RATE_LIMIT_ANONYMOUS_BURST: '1000000',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/readyz`, child);
  return { ...track(child, url), startupMs: performance.now() - started };
}

/** A worker process (`npm run worker`), compiled: it has no port, so it is ready when it is started. */
export function startWorker(dataDir: string, env: Record<string, string> = {}): Proc {
  const child = spawn(process.execPath, [...SERVER_NODE_OPTIONS, 'dist/src/start/worker.js'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return track(child, '');
}

export async function startReference(dataDir: string, port: number, { pinned = false } = {}): Promise<Proc> {
  const [command, args] = spawnNode(
    ['--import', 'tsx', 'bench/reference-server.ts', dataDir, String(port)],
    pinned,
  );
  const child = spawn(command, args, { cwd: PROJECT_ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/ping`, child);
  return track(child, url);
}

/** The bare node:http + pg ceiling on the same PostgreSQL database (bench/reference-postgres.ts). */
export async function startReferencePostgres(
  databaseUrl: string,
  port: number,
  { pinned = false } = {},
): Promise<Proc> {
  const [command, args] = spawnNode(
    ['--import', 'tsx', 'bench/reference-postgres.ts', databaseUrl, String(port)],
    pinned,
  );
  const child = spawn(command, args, { cwd: PROJECT_ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/ping`, child);
  return track(child, url);
}
