import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runThreadJob } from '../../src/start/run-thread.js';
import { type Harness, startHarness } from '../helpers/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('the run thread of an API process', () => {
  it('a thread that fails is logged and started again a second later, until its job stops', async () => {
    const lines: { msg: string; err?: { message: string }; exit_code?: number }[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    // a data directory under a file: each start of the thread fails
    const file = path.join(h.dataDir, 'not-a-directory');
    writeFileSync(file, '');
    const config = { ...h.config, database: undefined, dataDir: path.join(file, 'data') };
    const job = runThreadJob({ ...h.server.services, config, logger });
    job.start();
    // the thread starts with the first run this process queues
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(lines).toEqual([]);
    h.server.services.runs.queued.emit();
    const restarts = () => lines.filter((line) => line.msg.startsWith('the run thread ended')).length;
    await expect.poll(restarts, { timeout: 15_000, interval: 100 }).toBeGreaterThanOrEqual(2);
    await job.stop();
    const settled = restarts();
    const failures = lines.filter((line) => line.msg === 'the run thread failed');
    expect(failures.length).toBeGreaterThanOrEqual(2);
    expect(failures[0]?.err?.message).toMatch(/ENOTDIR/);
    expect(lines.find((line) => line.exit_code !== undefined)?.exit_code).toBe(1);
    // stopped: no start after
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(restarts()).toBe(settled);
    expect(job.id).toBeUndefined();
  });
});
