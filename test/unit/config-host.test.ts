import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { connect } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/kernel/config.js';
import { PROJECT_ROOT } from '../../src/contract/paths.js';

/**
 * The first `npm start` creates a demo tenant and prints its token: it must not be reachable from the
 * network unless the operator asked (HOST), and its banner must say where it really listens.
 */
const dirs: string[] = [];

beforeAll(async () => {
  const build = spawn(process.execPath, ['scripts/build-if-stale.mjs'], {
    cwd: PROJECT_ROOT,
    stdio: 'ignore',
  });
  const [code] = (await once(build, 'exit')) as [number | null];
  expect(code).toBe(0);
}, 240_000);

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The built server with `env` over the test's own (HOST removed), until its banner; then stopped. */
async function banner(
  env: Record<string, string>,
): Promise<{ line: string; port: number; stop(): Promise<void> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ota-host-'));
  dirs.push(dataDir);
  const childEnv: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: '0', METRICS_PORT: '0' };
  delete childEnv.HOST;
  delete childEnv.DATABASE_URL;
  const child = spawn(process.execPath, ['dist/src/start/server.js'], {
    cwd: PROJECT_ROOT,
    env: { ...childEnv, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  const line = await new Promise<string>((resolve, reject) => {
    child.once('exit', (status) => reject(new Error(`the server exited (${status}): ${stdout}`)));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const first = stdout.split('\n');
      if (first.length > 1) resolve(first[0] ?? '');
    });
  });
  const port = Number(/:(\d+) \(reference:/.exec(line)?.[1]);
  return {
    line,
    port,
    stop: async () => {
      child.kill();
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}

function reaches(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('HOST', () => {
  it('is loopback unless set', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
  });

  it('unset: the server answers on loopback only, and its banner says so', async () => {
    const started = await banner({});
    try {
      expect(started.line).toMatch(/^Open Tenant API listening on http:\/\/127\.0\.0\.1:\d+ \(reference: /);
      expect(await reaches('127.0.0.1', started.port)).toBe(true);
      // another address of this machine, where it has one, reaches nothing
      const other = Object.values(networkInterfaces())
        .flat()
        .find((address) => address && address.family === 'IPv4' && !address.internal);
      if (other) expect(await reaches(other.address, started.port)).toBe(false);
    } finally {
      await started.stop();
    }
  });

  it('0.0.0.0: the banner says every interface, then where to reach it here', async () => {
    const started = await banner({ HOST: '0.0.0.0' });
    try {
      expect(started.line).toMatch(
        /^Open Tenant API listening on every interface \(HOST=0\.0\.0\.0, port \d+\), here at http:\/\/127\.0\.0\.1:\d+ \(reference: /,
      );
    } finally {
      await started.stop();
    }
  });
});
