/**
 * `npm run stack` on a machine where its ports are taken: STACK_PORT_BASE moves every port of the stack
 * into a block of its own, and a port that is taken is named with the process that holds it.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allPorts, PORT_BLOCK, PORTS, stackPorts } from '../../stack/ports.js';
import { busyPorts, describeHolders, missingPrograms, portHolders } from '../../stack/prerequisites.js';

const TSX = path.resolve('node_modules/tsx/dist/cli.mjs');
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'ota-stack-ports-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A process of its own listening on `port` (0: any) of 127.0.0.1: `node .../stack-port-holder.cjs PORT`. */
async function holder(port: number): Promise<{ child: ChildProcess; port: number }> {
  const script = path.join(dir, 'stack-port-holder.cjs');
  writeFileSync(
    script,
    "const s = require('node:net').createServer().listen(Number(process.argv[2]), '127.0.0.1', () => console.log(s.address().port));\n",
  );
  const child = spawn(process.execPath, [script, String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const listening = await new Promise<number>((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    child.once('exit', (code) => reject(new Error(`the holder exited with ${code}`)));
  });
  return { child, port: listening };
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill();
  });

describe('STACK_PORT_BASE', () => {
  it('unset, the ports are those of the README', () => {
    expect(stackPorts({})).toEqual(PORTS);
    expect(stackPorts({ STACK_PORT_BASE: '' })).toEqual(PORTS);
    expect(PORTS.haproxy).toBe(8080);
  });

  it('moves every port of the stack into a block of its own from the base up', () => {
    const ports = stackPorts({ STACK_PORT_BASE: '20000' });
    expect(ports).toEqual({
      haproxy: 20000,
      apis: [20001, 20002],
      adminHaproxy: 20010,
      admins: [20011, 20012],
      metrics: [20020, 20021],
      postgres: 20030,
      swift: 20040,
    });
    const all = allPorts(ports);
    expect(new Set(all).size).toBe(all.length);
    expect(Math.min(...all)).toBe(20000);
    expect(Math.max(...all)).toBe(20000 + PORT_BLOCK - 1);
    // the block's highest start still fits under 65536
    expect(Math.max(...allPorts(stackPorts({ STACK_PORT_BASE: String(65536 - PORT_BLOCK) })))).toBe(65535);
  });

  it.each(['abc', '80', '8080.5', '-1', String(65537 - PORT_BLOCK)])(
    'refuses %s, saying what it may be',
    (raw) => {
      expect(() => stackPorts({ STACK_PORT_BASE: raw })).toThrow(
        `STACK_PORT_BASE must be a port from 1024 to ${65536 - PORT_BLOCK}`,
      );
    },
  );
});

describe('who holds a port', () => {
  it("names another process's pid and command line, this one's too, and nothing for a free port", async () => {
    const held = await holder(0);
    const own = net.createServer();
    await new Promise<void>((resolve) => own.listen(0, '127.0.0.1', () => resolve()));
    const ownPort = (own.address() as net.AddressInfo).port;
    const free = net.createServer();
    await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', () => resolve()));
    const freePort = (free.address() as net.AddressInfo).port;
    await new Promise((resolve) => free.close(resolve));
    try {
      const holders = portHolders([held.port, ownPort, freePort]);
      expect(holders.get(held.port)).toEqual({
        pid: held.child.pid,
        command: `${process.execPath} ${path.join(dir, 'stack-port-holder.cjs')} 0`,
      });
      expect(holders.get(ownPort)?.pid).toBe(process.pid);
      expect(holders.has(freePort)).toBe(false);
      expect(describeHolders([held.port, freePort], holders)).toMatch(
        new RegExp(`^${held.port}: pid ${held.child.pid} \\S*node \\S*stack-port-holder\\.cjs 0$`),
      );
    } finally {
      own.close();
      await stop(held.child);
    }
  });
});

describe('npm run stack with STACK_PORT_BASE', () => {
  /** A base whose whole block is free now, well away from the README's ports and the ephemeral range. */
  async function freeBase(): Promise<number> {
    for (let base = 21000; base < 31000; base += 250) {
      if ((await busyPorts(allPorts(stackPorts({ STACK_PORT_BASE: String(base) })))).length === 0)
        return base;
    }
    throw new Error('no free block of ports between 21000 and 31000');
  }

  it.runIf(missingPrograms().length === 0)(
    'checks the ports of its block, and names the process that holds one; nothing is started',
    async () => {
      const base = await freeBase();
      // an admin listener's port of the moved stack (base + 11): not one of the README's
      const held = await holder(base + 11);
      try {
        const stackDir = path.join(dir, 'moved');
        const result = spawnSync(process.execPath, [TSX, 'stack/start.ts', 'up', stackDir], {
          encoding: 'utf8',
          env: { ...process.env, STACK_PORT_BASE: String(base) },
          timeout: 60_000,
        });
        expect(result.status, result.stderr).toBe(1);
        const lines = result.stderr.trim().split('\n');
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(
          new RegExp(
            `^npm run stack needs ports ${base + 11} on 127\\.0\\.0\\.1, and something else listens there ` +
              `\\(${base + 11}: pid ${held.child.pid} \\S*node \\S*stack-port-holder\\.cjs ${base + 11}\\): stop it, or give the ` +
              `stack ${PORT_BLOCK} free ports from another base, e\\.g\\. STACK_PORT_BASE=20000 npm run stack$`,
          ),
        );
        expect(existsSync(path.join(stackDir, 'postgres'))).toBe(false);
      } finally {
        await stop(held.child);
      }
    },
  );

  it('a base that is not a port is one line on stderr and exit 1', () => {
    const result = spawnSync(process.execPath, [TSX, 'stack/start.ts', 'up', path.join(dir, 'bad')], {
      encoding: 'utf8',
      env: { ...process.env, STACK_PORT_BASE: 'eighty' },
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      `STACK_PORT_BASE must be a port from 1024 to ${65536 - PORT_BLOCK} (the stack takes ${PORT_BLOCK} ports from there up), not "eighty"\n`,
    );
  });
});
