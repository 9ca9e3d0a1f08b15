/**
 * The live stream under one tenant's burst, black-box, on the engine of the project: the probe of
 * test/helpers/event-probe.ts against a server process with its embedded worker and rate limits off
 * (PROBE_RUNS sets the burst; `npm run probe:events` runs the same probe against any server).
 */
import { describe, expect, it } from 'vitest';
import { probeEventStream } from '../helpers/event-probe.js';
import { textPdf } from '../helpers/files.js';
import { cleanedAfterEach, port, startServerProcess, tempDataDir, newTenant } from '../helpers/processes.js';

const { started, dirs } = cleanedAfterEach();
const runs = Number(process.env.PROBE_RUNS ?? 300);

describe('the live stream under a burst', () => {
  it(`delivers every event of a tenant creating ${runs} runs at once, none twice, and delays no other tenant`, async () => {
    const dataDir = await tempDataDir();
    dirs.push(dataDir);
    const server = await startServerProcess(dataDir, port(), {
      MAX_QUEUED_RUNS_PER_TENANT: String(runs * 2),
      EVENT_POLL_MS: '250',
    });
    started.push(server);
    const [a, b] = await Promise.all(
      ['quiet', 'bursting'].map(async (name) => await newTenant(dataDir, name)),
    );
    const result = await probeEventStream({
      url: server.url,
      tokenA: a!.token,
      tokenB: b!.token,
      pdf: await textPdf(1, 3),
      runs,
      settleMs: 60_000,
    });
    expect(result.created).toBe(runs);
    expect(result.listed).toBeGreaterThanOrEqual(runs);
    expect(result).toMatchObject({ missing: 0, duplicates: 0, outOfOrder: false });
    expect(result.resumeExpected).toBeGreaterThan(0);
    expect(result).toMatchObject({ resumeMissing: 0, resumeDuplicates: 0 });
    expect(result.aDelaysMs.length).toBeGreaterThan(0);
    for (const delay of result.aDelaysMs) {
      expect(delay).not.toBeNull();
      expect(delay!).toBeLessThanOrEqual(10_000);
    }
  });
});
