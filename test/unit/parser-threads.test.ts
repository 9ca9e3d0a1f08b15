import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { defaultParserThreads, loadConfig } from '../../src/config.js';

describe('parser threads (PARSER_THREADS)', () => {
  it('unset: a server leaves one core to its event loop, a worker takes every core, never fewer than one', () => {
    expect(defaultParserThreads('api', 8)).toBe(7);
    expect(defaultParserThreads('api', 2)).toBe(1);
    expect(defaultParserThreads('api', 1)).toBe(1);
    expect(defaultParserThreads('worker', 8)).toBe(8);
    expect(defaultParserThreads('worker', 1)).toBe(1);
    expect(loadConfig({}).parserThreads).toBe(Math.max(1, availableParallelism() - 1));
    expect(loadConfig({}, 'worker').parserThreads).toBe(availableParallelism());
  });

  it('set: the operator decides, 0 included (no diagnosis inside the server)', () => {
    expect(loadConfig({ PARSER_THREADS: '0' }).parserThreads).toBe(0);
    expect(loadConfig({ PARSER_THREADS: '3' }, 'worker').parserThreads).toBe(3);
    expect(() => loadConfig({ PARSER_THREADS: 'many' })).toThrow(/PARSER_THREADS/);
  });

  it('WORKER_THREADS, its old name, still works and is named deprecated; PARSER_THREADS wins over it', () => {
    expect(loadConfig({ WORKER_THREADS: '3' })).toMatchObject({
      parserThreads: 3,
      deprecated: ['WORKER_THREADS is deprecated: it is now PARSER_THREADS'],
    });
    expect(loadConfig({ WORKER_THREADS: '3', PARSER_THREADS: '2' })).toMatchObject({
      parserThreads: 2,
      deprecated: [],
    });
    expect(() => loadConfig({ WORKER_THREADS: 'many' })).toThrow(/WORKER_THREADS/);
  });
});

describe('the embedded worker (EMBEDDED_WORKER)', () => {
  it('npm start executes runs unless told not to, whatever the pool size', () => {
    expect(loadConfig({}).embeddedWorker).toBe(true);
    expect(loadConfig({ EMBEDDED_WORKER: 'false', PARSER_THREADS: '4' })).toMatchObject({
      embeddedWorker: false,
      parserThreads: 4,
      deprecated: [],
    });
    expect(() => loadConfig({ EMBEDDED_WORKER: 'no' })).toThrow(/EMBEDDED_WORKER/);
  });

  it('PARSER_THREADS=0 (or WORKER_THREADS=0), the old way to say no, still works and is named deprecated', () => {
    const config = loadConfig({ PARSER_THREADS: '0' });
    expect(config.embeddedWorker).toBe(false);
    expect(config.deprecated).toEqual([
      'PARSER_THREADS=0 is deprecated: set EMBEDDED_WORKER=false to run no worker inside npm start',
    ]);
    expect(loadConfig({ WORKER_THREADS: '0' }).deprecated).toEqual([
      'WORKER_THREADS is deprecated: it is now PARSER_THREADS',
      'WORKER_THREADS=0 is deprecated: set EMBEDDED_WORKER=false to run no worker inside npm start',
    ]);
  });
});
