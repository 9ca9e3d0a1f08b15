/**
 * `npm run stack` on a machine that lacks part of the stack: it says what to install before it starts
 * anything, and a start that fails half way stops what it started. Its ports, and the admin API's frontend
 * kept apart from the public one.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haproxyConfig, haproxyInstalled } from '../../stack/haproxy.js';
import { ALL_PORTS, PORTS } from '../../stack/ports.js';
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

  // an API process's public port, the admin frontend's, an API process's admin listener
  it.runIf(missingPrograms().length === 0).each([8082, 8090, 8091])(
    'with a port of the stack taken (%i), names it and starts nothing',
    async (taken) => {
      const holder = net.createServer();
      await new Promise<void>((resolve, reject) => {
        holder.once('error', reject);
        holder.listen(taken, '127.0.0.1', resolve);
      }).catch(() => undefined); // held already by something else: busy all the same
      try {
        expect(await busyPorts([taken])).toEqual([taken]);
        const stackDir = path.join(dir, `port-taken-${taken}`);
        const result = stack(stackDir, process.env.PATH ?? '');
        expect(result.status, result.stderr).toBe(1);
        expect(result.stderr).toMatch(new RegExp(`needs ports .*${taken}`));
        expect(existsSync(path.join(stackDir, 'postgres'))).toBe(false);
      } finally {
        holder.close();
      }
    },
  );
});

describe('the ports of the stack', () => {
  it('are checked all, each once: the public and the admin frontends, and each process its own admin port', () => {
    expect(new Set(ALL_PORTS).size).toBe(ALL_PORTS.length);
    for (const port of [PORTS.haproxy, ...PORTS.apis, PORTS.adminHaproxy, ...PORTS.admins])
      expect(ALL_PORTS).toContain(port);
    expect(PORTS.admins).toHaveLength(PORTS.apis.length);
    expect(PORTS.admins).not.toContain(PORTS.haproxy);
    expect(PORTS.apis).not.toContain(PORTS.adminHaproxy);
  });
});

describe("HAProxy's configuration", () => {
  const publicServers = [
    { name: 'api1', port: 8081 },
    { name: 'api2', port: 8082 },
  ];
  const admin = {
    port: 8090,
    backends: [
      { name: 'admin1', port: 8091 },
      { name: 'admin2', port: 8092 },
    ],
  };
  /** The lines of one section (`frontend api`, `backend admins`, ...), up to the next blank line. */
  const section = (config: string, header: string) => {
    const lines = config.split('\n');
    const start = lines.indexOf(header);
    expect(start, header).toBeGreaterThanOrEqual(0);
    const end = lines.findIndex((line, i) => i > start && line.trim() === '');
    return lines.slice(start, end === -1 ? undefined : end).join('\n');
  };

  it('puts the admin API behind a frontend of its own, on loopback, that reaches the admin listeners only', () => {
    // even a public frontend on every interface leaves the admin one on loopback
    const config = haproxyConfig(8080, publicServers, '0.0.0.0', 1000, admin);
    expect(section(config, 'frontend api')).toContain('bind 0.0.0.0:8080');
    expect(section(config, 'frontend api')).toContain('default_backend apis');
    expect(section(config, 'frontend admin')).toContain('bind 127.0.0.1:8090');
    expect(section(config, 'frontend admin')).toContain('default_backend admins');
    // the public frontend has no way to the admin listeners: its one backend holds the public ports
    expect(config.match(/default_backend admins|use_backend/g)).toEqual(['default_backend admins']);
    const apis = section(config, 'backend apis');
    expect(apis).toMatch(/127\.0\.0\.1:8081 check/);
    expect(apis).not.toMatch(/:809\d/);
    const admins = section(config, 'backend admins');
    expect(admins).toMatch(/server admin1 127\.0\.0\.1:8091 check/);
    expect(admins).toMatch(/server admin2 127\.0\.0\.1:8092 check/);
    expect(admins).not.toMatch(/:808\d/);
    expect(admins).toContain('option httpchk GET /healthz');
  });

  it('without an admin frontend is the public one alone (the tests and the bench)', () => {
    const config = haproxyConfig(8080, publicServers);
    expect(config).not.toContain('admin');
    expect(config.trimEnd().endsWith('server api2 127.0.0.1:8082 check')).toBe(true);
  });

  it.runIf(haproxyInstalled())('is a configuration HAProxy accepts', () => {
    const file = path.join(dir, 'haproxy-check.cfg');
    writeFileSync(file, haproxyConfig(8080, publicServers, '127.0.0.1', 1000, admin));
    const checked = spawnSync('haproxy', ['-c', '-f', file], { encoding: 'utf8' });
    expect(checked.status, checked.stderr + checked.stdout).toBe(0);
  });
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
