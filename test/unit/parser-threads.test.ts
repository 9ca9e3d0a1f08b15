import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { defaultParserThreads, loadConfig } from '../../src/config.js';

describe('parser threads (WORKER_THREADS)', () => {
  it('unset: a server leaves one core to its event loop, a worker takes every core, never fewer than one', () => {
    expect(defaultParserThreads('server', 8)).toBe(7);
    expect(defaultParserThreads('server', 2)).toBe(1);
    expect(defaultParserThreads('server', 1)).toBe(1);
    expect(defaultParserThreads('worker', 8)).toBe(8);
    expect(defaultParserThreads('worker', 1)).toBe(1);
    expect(loadConfig({}).workerThreads).toBe(Math.max(1, availableParallelism() - 1));
    expect(loadConfig({}, 'worker').workerThreads).toBe(availableParallelism());
  });

  it('set: the operator decides, 0 included (no diagnosis inside the server)', () => {
    expect(loadConfig({ WORKER_THREADS: '0' }).workerThreads).toBe(0);
    expect(loadConfig({ WORKER_THREADS: '3' }, 'worker').workerThreads).toBe(3);
    expect(() => loadConfig({ WORKER_THREADS: 'many' })).toThrow(/WORKER_THREADS/);
  });
});

describe('the embedded worker (EMBEDDED_WORKER)', () => {
  it('npm start executes runs unless told not to, whatever the pool size', () => {
    expect(loadConfig({}).embeddedWorker).toBe(true);
    expect(loadConfig({ EMBEDDED_WORKER: 'false', WORKER_THREADS: '4' })).toMatchObject({
      embeddedWorker: false,
      workerThreads: 4,
      deprecated: [],
    });
    expect(() => loadConfig({ EMBEDDED_WORKER: 'no' })).toThrow(/EMBEDDED_WORKER/);
  });

  it('WORKER_THREADS=0, the old way to say no, still works and is named deprecated', () => {
    const config = loadConfig({ WORKER_THREADS: '0' });
    expect(config.embeddedWorker).toBe(false);
    expect(config.deprecated).toEqual([
      'WORKER_THREADS=0 is deprecated: set EMBEDDED_WORKER=false to run no worker inside npm start',
    ]);
  });
});
