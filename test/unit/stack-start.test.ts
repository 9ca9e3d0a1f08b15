/**
 * `npm run stack` on a machine that lacks part of the stack: it says what to install before it starts
 * anything, and a start that fails half way stops what it started.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { busyPorts, missingPrograms, type Started, startAll } from '../../stack/prerequisites.js';

const TSX = path.resolve('node_modules/tsx/dist/cli.mjs');
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'ota-stack-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A PATH with every program of this one but those `hidden` names. */
function pathWithout(hidden: RegExp): string {
  const bin = path.join(dir, `bin-${Math.random().toString(36).slice(2)}`);
  mkdirSync(bin);
  for (const from of (process.env.PATH ?? '').split(':')) {
    if (!from || !existsSync(from)) continue;
    for (const name of readdirSync(from)) {
      if (hidden.test(name) || existsSync(path.join(bin, name))) continue;
      symlinkSync(path.join(from, name), path.join(bin, name));
    }
  }
  return bin;
}

const stack = (stackDir: string, PATH: string) =>
  spawnSync(process.execPath, [TSX, 'stack/start.ts', 'up', stackDir], {
    encoding: 'utf8',
    env: { ...process.env, PATH },
    timeout: 60_000,
  });

describe('npm run stack', () => {
  it('on a machine without Swift, says in one line what to install and starts nothing', () => {
    const stackDir = path.join(dir, 'no-swift');
    const result = stack(stackDir, pathWithout(/^(swift-.*|memcached)$/));
    expect(result.status, result.stderr).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('OpenStack Swift');
    expect(lines[0]).toContain('bash scripts/swift.sh install');
    // PostgreSQL was not started first (it used to be, and was left running)
    expect(existsSync(path.join(stackDir, 'postgres'))).toBe(false);
  });

  it('names every missing program at once', () => {
    const missing = missingPrograms(
      { PATH: pathWithout(/^(swift-.*|memcached|haproxy)$/) },
      '/nonexistent/swift.conf',
    );
    expect(missing.map((m) => m.what)).toEqual(['OpenStack Swift', 'HAProxy']);
    expect(missingPrograms({ PATH: process.env.PATH }, '/nonexistent/swift.conf')[0]?.what).toBe(
      'OpenStack Swift',
    );
  });

  it.runIf(missingPrograms().length === 0)(
    'with a port of the stack taken, names it and starts nothing',
    async () => {
      const holder = net.createServer();
      await new Promise<void>((resolve, reject) => {
        holder.once('error', reject);
        holder.listen(8082, '127.0.0.1', resolve);
      }).catch(() => undefined); // held already by something else: busy all the same
      try {
        expect(await busyPorts([8082])).toEqual([8082]);
        const stackDir = path.join(dir, 'port-taken');
        const result = stack(stackDir, process.env.PATH ?? '');
        expect(result.status, result.stderr).toBe(1);
        expect(result.stderr).toMatch(/needs ports .*8082/);
        expect(existsSync(path.join(stackDir, 'postgres'))).toBe(false);
      } finally {
        holder.close();
      }
    },
  );
});

describe('a start that fails half way', () => {
  it('stops what it started, the last first, and reports the failure', async () => {
    const stopped: string[] = [];
    const part = (name: string) => async (): Promise<Started> => ({
      name,
      stop: () => void stopped.push(name),
    });
    await expect(
      startAll([
        part('database'),
        part('object store'),
        () => Promise.reject(new Error('the API did not come up')),
        part('proxy'),
      ]),
    ).rejects.toThrow('the API did not come up');
    expect(stopped).toEqual(['object store', 'database']);
  });

  it('still stops the others when one of them cannot be stopped', async () => {
    const stopped: string[] = [];
    await expect(
      startAll([
        async () => ({ name: 'a', stop: () => void stopped.push('a') }),
        async () => ({
          name: 'b',
          stop: () => {
            throw new Error('stuck');
          },
        }),
        () => Promise.reject(new Error('c failed')),
      ]),
    ).rejects.toThrow('c failed');
    expect(stopped).toEqual(['a']);
  });

  it('starts everything when nothing fails', async () => {
    const started = await startAll([async () => ({ name: 'a', stop: () => undefined })]);
    expect(started.map((s) => s.name)).toEqual(['a']);
  });
});
