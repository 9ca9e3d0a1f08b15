import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../../src/paths.js';

const run = promisify(execFile);

/** Real processes from the TypeScript sources, as an operator runs them. */
export function tempDataDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'ota-proc-'));
}

export async function admin(
  dataDir: string,
  ...args: string[]
): Promise<{ code: number; json: Record<string, unknown>; stdout: string }> {
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/cli/admin.ts', ...args], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, DATA_DIR: dataDir },
    });
    return { code: 0, stdout, json: args.includes('--json') ? JSON.parse(stdout) : {} };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return {
      code: failed.code,
      stdout: failed.stdout,
      json: args.includes('--json') ? JSON.parse(failed.stdout) : {},
    };
  }
}

export interface Started {
  child: ChildProcess;
  url: string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

async function untilReady(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`process exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('server did not become ready');
}

function start(entry: string, env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return child;
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
  const child = start('src/start/server.ts', {
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    SEED_DEMO_TENANT: 'false',
    ...env,
  });
  const url = `http://127.0.0.1:${port}`;
  await untilReady(url, child);
  return { child, url, kill: killer(child) };
}

export function startWorkerProcess(dataDir: string, env: Record<string, string> = {}): Started {
  const child = start('src/start/worker.ts', { DATA_DIR: dataDir, ...env });
  return { child, url: '', kill: killer(child) };
}
