import { describe, expect, it } from 'vitest';
import { AttemptLog } from '../../src/events/delivering/attempt-log.js';
import type { AttemptRecord, ClaimRequest } from '../../src/store/types.js';

/** The log over a store that records every batch it is given and claims nothing. */
function logWith(inFlight: () => number) {
  const batches: number[] = [];
  const log = new AttemptLog(
    {
      async recordAndClaim(entries) {
        batches.push(entries.length);
        return { recorded: entries.map(() => true), claimed: [] };
      },
    },
    (free): ClaimRequest => ({ workerId: 'w', now: '', leaseUntil: '', perEndpoint: 1, max: free }),
    () => undefined,
    inFlight,
  );
  return { log, batches };
}

// the log passes records through without reading them
const entry = {} as AttemptRecord;

describe('the attempt log', () => {
  it('writes the batch at once when every delivery in flight is waiting for it', async () => {
    const { log, batches } = logWith(() => 3);
    const records = [log.record(entry), log.record(entry)];
    expect(batches, 'a third delivery is still being sent').toEqual([]);
    records.push(log.record(entry));
    expect(batches, 'no timer waited for').toEqual([3]);
    expect(await Promise.all(records)).toEqual([true, true, true]);
  });

  it('gathers the answers of deliveries still being sent for a few milliseconds', async () => {
    const { log, batches } = logWith(() => 32);
    const records = [log.record(entry), log.record(entry)];
    expect(batches).toEqual([]);
    expect(await Promise.all(records)).toEqual([true, true]);
    expect(batches).toEqual([2]);
  });
});
