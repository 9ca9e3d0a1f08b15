import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/contract/paths.js';
import { admin, deploymentEnv, port, tempDataDir, built } from '../helpers/processes.js';

/** The server's start-up as an operator meets it: one clear line per problem and exit 1, or the URL at once. */
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function startServer(env: Record<string, string>, untilStdout?: RegExp) {
  const dataDir = await tempDataDir();
  dirs.push(dataDir);
  const child = spawn(process.execPath, [built('src/start/server.ts')], {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      ...deploymentEnv(dataDir),
      HOST: '127.0.0.1',
      METRICS_PORT: '0',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string; dataDir: string; stop(): void }>(
    (resolve) => {
      const done = () => resolve({ code: child.exitCode, stdout, stderr, dataDir, stop: () => child.kill() });
      child.on('exit', done);
      if (untilStdout) {
        child.stdout.on('data', () => {
          if (untilStdout.test(stdout)) done();
        });
      }
    },
  );
}

// a configuration refused before anything is opened, and a port taken, are no engine's: in the sqlite project
// only (vitest.config.ts)
const once = { tags: ['one-engine'] };

describe('start-up errors: one line each, exit 1', () => {
  it.each([
    ['PORT=abc', { PORT: 'abc' }, 'configuration: PORT must be a whole number from 0 to 65535, got "abc"'],
    [
      'LOG_LEVEL=verbose',
      { LOG_LEVEL: 'verbose' },
      'configuration: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"',
    ],
    [
      'SEED_DEMO_TENANT=yes',
      { SEED_DEMO_TENANT: 'yes' },
      'configuration: SEED_DEMO_TENANT must be one of true, false, got "yes"',
    ],
  ])('%s', once, async (_name, env, line) => {
    const result = await startServer(env);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`${line}\n`);
    expect(result.stdout).toBe('');
  });

  it('every problem of the configuration at once', once, async () => {
    const result = await startServer({ PORT: '-1', TASK_MEMORY_MB: '1', MAX_PAGES: 'many' });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      'configuration: PORT must be a whole number from 0 to 65535, got "-1"',
      'configuration: TASK_MEMORY_MB must be a whole number >= 64, got "1"',
      'configuration: MAX_PAGES must be a whole number >= 1, got "many"',
    ]);
  });

  it('a port in use: one line, exit 1, and the demo tenant is not created (its token would be lost)', async () => {
    const taken = createServer();
    const busy = port();
    await new Promise<void>((resolve) => taken.listen(busy, '127.0.0.1', () => resolve()));
    try {
      const result = await startServer({ PORT: String(busy), SEED_DEMO_TENANT: 'true' });
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `start-up: port ${busy} is already in use; stop what listens there or set PORT to another port\n`,
      );
      expect(result.stdout).not.toMatch(/token/i);
      const tenants = await admin(result.dataDir, 'tenants', 'list', '--json');
      expect(tenants.json).toEqual({ data: [], total: 0 });
    } finally {
      taken.close();
    }
  });

  it('the metrics port in use names METRICS_PORT, the setting to change', once, async () => {
    const taken = createServer();
    const busy = port();
    await new Promise<void>((resolve) => taken.listen(busy, '127.0.0.1', () => resolve()));
    try {
      const result = await startServer({ PORT: String(port()), METRICS_PORT: String(busy) });
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `start-up: port ${busy} is already in use; stop what listens there or set METRICS_PORT to another port\n`,
      );
    } finally {
      taken.close();
    }
  });
});

describe('a good start', () => {
  it('prints the URL and the docs URL as soon as it listens, then the demo token', async () => {
    const started = performance.now();
    const result = await startServer({ PORT: String(port()), SEED_DEMO_TENANT: 'true' }, /ota_\S+/);
    result.stop();
    expect(result.stdout).toMatch(
      /^Open Tenant API listening on http:\/\/127\.0\.0\.1:\d+ \(reference: http:\/\/127\.0\.0\.1:\d+\/docs\)\n/,
    );
    expect(result.stdout).toMatch(
      /Created tenant "demo" \([0-9a-f-]{36}\)\. Its API token, shown only now:\n\n {2}ota_/,
    );
    expect(performance.now() - started).toBeLessThan(15_000);
  });
});
