/**
 * The upload lease as UPLOAD_LEASE_MS sets it, against an in-memory lease table: how long a lease taken by
 * this process lasts, and how long a lease left by a process that died blocks the upload.
 */
import { describe, expect, it } from 'vitest';
import { UploadLock } from '../../src/uploads/upload-lock.js';
import { loadConfig } from '../../src/kernel/config.js';
import { systemClock } from '../../src/kernel/time.js';
import { newTestService } from '../helpers/fakes.js';

/** One upload's lease, as the engines keep it in its row (ISO times compare as strings). */
function leaseTable() {
  const taken: { holder: string; until: string }[] = [];
  let current: { holder: string; until: string } | undefined;
  const { sut: store, mocks } = newTestService(({ store }) => store);
  mocks.store.uploads.lease.mockImplementation(async (_uploadId, holder, until, now) => {
    if (current && current.holder !== holder && current.until > now) return 'busy';
    current = { holder, until };
    taken.push(current);
    return 'held';
  });
  mocks.store.uploads.release.mockImplementation(async (_uploadId, holder) => {
    if (current?.holder === holder) current = undefined;
  });
  return {
    store,
    taken,
    leftBy: (holder: string, until: Date) => void (current = { holder, until: until.toISOString() }),
  };
}

describe('UPLOAD_LEASE_MS', () => {
  it('is 5 s unless set, at least 100 ms', () => {
    expect(loadConfig({}).uploadLeaseMs).toBe(5_000);
    expect(loadConfig({ UPLOAD_LEASE_MS: '100' }).uploadLeaseMs).toBe(100);
    expect(() => loadConfig({ UPLOAD_LEASE_MS: '99' })).toThrow(/UPLOAD_LEASE_MS/);
  });

  it('is how long the lease this process takes lasts', async () => {
    const table = leaseTable();
    const lock = new UploadLock(table.store, systemClock, 1_000, 1_234);
    const before = Date.now();
    await lock.run('u1', async () => undefined);
    const until = Date.parse(table.taken[0]!.until);
    expect(until - before).toBeGreaterThanOrEqual(1_234);
    expect(until - Date.now()).toBeLessThanOrEqual(1_234);
  });

  it('a lease left by a process that died blocks the upload until it lapses, and no longer', async () => {
    const table = leaseTable();
    const lock = new UploadLock(table.store, systemClock, 5_000, 300);
    const lapses = new Date(Date.now() + 300);
    table.leftBy('dead-process', lapses);
    await lock.run('u1', async () => {
      const now = Date.now();
      expect(now).toBeGreaterThanOrEqual(lapses.getTime());
      // the lock polls every 25 ms: it goes through at most a poll or two after the lapse
      expect(now - lapses.getTime()).toBeLessThan(250);
    });
  });
});
