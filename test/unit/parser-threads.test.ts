import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { defaultParserThreads, defaultParserThreadsServing, loadConfig } from '../../src/kernel/config.js';

describe('parser threads (PARSER_THREADS, PARSER_THREADS_SERVING)', () => {
  it('unset: every core parses, and a server leaves one core to its event loop while it serves requests', () => {
    expect(defaultParserThreads(8)).toBe(8);
    expect(defaultParserThreads(1)).toBe(1);
    expect(defaultParserThreadsServing(8)).toBe(7);
    expect(defaultParserThreadsServing(2)).toBe(1);
    expect(defaultParserThreadsServing(1)).toBe(1);
    const cores = availableParallelism();
    expect(loadConfig({})).toMatchObject({
      parserThreads: cores,
      parserThreadsServing: Math.max(1, cores - 1),
    });
  });

  it('PARSER_THREADS_SERVING is at least 1 and at most PARSER_THREADS', () => {
    expect(loadConfig({ PARSER_THREADS: '4', PARSER_THREADS_SERVING: '3' }).parserThreadsServing).toBe(3);
    expect(loadConfig({ PARSER_THREADS: '2', PARSER_THREADS_SERVING: '6' }).parserThreadsServing).toBe(2);
    expect(loadConfig({ PARSER_THREADS: '0' }).parserThreadsServing).toBe(1);
    expect(() => loadConfig({ PARSER_THREADS_SERVING: '0' })).toThrow(/PARSER_THREADS_SERVING/);
    expect(() => loadConfig({ PARSER_THREADS_SERVING: 'half' })).toThrow(/PARSER_THREADS_SERVING/);
  });

  it('set: the operator decides, 0 included (no diagnosis inside the server)', () => {
    expect(loadConfig({ PARSER_THREADS: '0' }).parserThreads).toBe(0);
    expect(loadConfig({ PARSER_THREADS: '3' }).parserThreads).toBe(3);
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
