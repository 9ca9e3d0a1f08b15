/**
 * The idempotency and rate bucket contract of src/store/types.ts, run once per engine (vitest.config.ts).
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type HeldKey, HeldKeyLostError } from '../../src/store/held-key.js';
import type { Store, UploadRow } from '../../src/store/types.js';
import { IdempotencyKeys } from '../../src/idempotency/keys.js';
import { Tenants } from '../../src/tenants/service.js';
import { systemClock } from '../../src/kernel/time.js';
import { engine, openTestStore, type TestStore } from '../helpers/engine.js';
import { inUnits } from '../helpers/store-rows.js';

let opened: TestStore;
let store: Store;
let tenantId: string;
let otherTenantId: string;

const T0 = '2026-11-24T10:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();
const DAY = 86_400;

beforeEach(async () => {
  opened = await openTestStore();
  store = opened.store;
  tenantId = (await new Tenants(store, systemClock).create('t')).tenant_id;
  otherTenantId = (await new Tenants(store, systemClock).create('u')).tenant_id;
});
afterEach(async () => {
  await opened.close();
});

const held = (key: string, tenant = tenantId): HeldKey => ({ tenantId: tenant, key, token: randomUUID() });
const claim = (h: HeldKey, fingerprint = 'fp', now = T0) =>
  store.idempotency.claim(h, fingerprint, now, at(10), at(DAY));

function upload(): UploadRow {
  return {
    id: randomUUID(),
    tenant_id: tenantId,
    file_name: 'a.pdf',
    size_bytes: 1,
    content_type: 'application/pdf',
    sha256: null,
    part_size: 1,
    part_count: 1,
    status: 'pending',
    file_id: null,
    created_at: T0,
    expires_at: '9999-01-01T00:00:00.000Z',
    multipart_id: randomUUID(),
  };
}
const limits = { count: 100, bytes: 1000, now: T0 };

describe('idempotency keys', () => {
  it('claims a new key, replays its answer, refuses another fingerprint, and is per tenant', async () => {
    const first = held('k');
    expect(await claim(first)).toEqual({ outcome: 'claimed', resourceId: null });
    expect(await claim(held('k'), 'fp', at(1))).toEqual({ outcome: 'in_use', lockedUntil: at(10) });
    const answer = { status: 201, headers: { 'content-type': 'application/json' }, body: '{"a":1}' };
    expect(await store.idempotency.saveAnswer(first, answer)).toBe(true);
    expect(await claim(held('k'), 'fp', at(2))).toEqual({ outcome: 'replay', answer });
    expect(await claim(held('k'), 'other', at(2))).toEqual({ outcome: 'mismatch' });
    expect(await claim(held('k', otherTenantId))).toEqual({ outcome: 'claimed', resourceId: null });
  });

  it("records the effect in the effect's transaction, and a dead holder's effect is handed to the next", async () => {
    const first = held('k');
    await claim(first);
    const row = upload();
    expect(await inUnits(store).uploads.create(row, limits, first)).toBe('created');
    // the holder died: its lock ran out, and the next request takes the key over with the effect on it
    expect(await claim(held('k'), 'fp', at(11))).toEqual({ outcome: 'claimed', resourceId: row.id });
  });

  it('fences a holder that lost its key: its effect rolls back', async () => {
    const first = held('k');
    await claim(first);
    const second = held('k');
    expect((await claim(second, 'fp', at(11))).outcome).toBe('claimed');
    const row = upload();
    await expect(inUnits(store).uploads.create(row, limits, first)).rejects.toBeInstanceOf(HeldKeyLostError);
    expect(await store.uploads.get(tenantId, row.id)).toBeUndefined();
    // and the lost holder can neither renew nor answer
    expect(await store.idempotency.renew(first, at(20))).toBe(false);
    expect(await store.idempotency.saveAnswer(first, { status: 201, headers: {}, body: '' })).toBe(false);
  });

  it('release deletes a key without effect, and unlocks one with an effect', async () => {
    const plain = held('plain');
    await claim(plain);
    await store.idempotency.release(plain, at(1));
    expect(await claim(held('plain'), 'other', at(2))).toEqual({ outcome: 'claimed', resourceId: null });

    const withEffect = held('effect');
    await claim(withEffect);
    const row = upload();
    await inUnits(store).uploads.create(row, limits, withEffect);
    await store.idempotency.release(withEffect, at(1));
    expect(await claim(held('effect'), 'fp', at(2))).toEqual({ outcome: 'claimed', resourceId: row.id });
  });

  it('renews the lock of its holder', async () => {
    const first = held('k');
    await claim(first);
    expect(await store.idempotency.renew(first, at(30))).toBe(true);
    expect(await claim(held('k'), 'fp', at(20))).toEqual({ outcome: 'in_use', lockedUntil: at(30) });
  });

  it('sweeps expired keys in batches, and an expired key starts afresh', async () => {
    for (let i = 0; i < 5; i++) {
      const h = held(`k${i}`);
      await claim(h);
      await store.idempotency.saveAnswer(h, { status: 200, headers: {}, body: '' });
    }
    expect(await store.idempotency.claim(held('k0'), 'new', at(DAY + 1), at(DAY + 11), at(2 * DAY))).toEqual({
      outcome: 'claimed',
      resourceId: null,
    });
    expect(await store.idempotency.sweep(at(DAY + 1), 3)).toBe(3);
    expect(await store.idempotency.sweep(at(DAY + 1), 3)).toBe(1);
    expect(await store.idempotency.sweep(at(DAY + 1), 3)).toBe(0);
    const rows = await opened.query<{ n: number | string }>('SELECT COUNT(*) AS n FROM idempotency_keys');
    expect(Number(rows[0]!.n)).toBe(1);
  });
});

describe.runIf(engine === 'postgres')('shared rate buckets', () => {
  it('starts full, never grants more than it holds, and refills by the clock', async () => {
    const buckets = store.rateBuckets!;
    const first = await buckets.take('t', 30, 10, 40);
    expect(first.granted).toBe(30);
    const second = await buckets.take('t', 30, 10, 40);
    expect(second.granted).toBeGreaterThanOrEqual(10);
    expect(second.granted).toBeLessThan(12);
    const dry = await buckets.take('t', 5, 10, 40);
    expect(dry.granted).toBeLessThanOrEqual(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const refilled = await buckets.take('t', 5, 10, 40);
    expect(refilled.granted).toBeGreaterThanOrEqual(2);
  });

  it('grants exactly the burst to concurrent takers from two stores', async () => {
    const other = await opened.another();
    const takes = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? other : store).rateBuckets!.take('shared', 2, 0.001, 50)),
    );
    expect(takes.reduce((sum, t) => sum + t.granted, 0)).toBe(50);
  });
});

describe.runIf(engine === 'sqlite')('rate buckets on SQLite', () => {
  it("are the process's own (one process serves the database)", () => {
    expect(store.rateBuckets).toBeNull();
  });
});

describe('a key lease', () => {
  it('is marked lost when a renewal finds the key taken over, and its effect is fenced off', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const clock = { now: () => new Date(now) };
    const keys = new IdempotencyKeys(store, clock, {
      idempotencyLockMs: 300,
      idempotencyKeyTtlMs: 86_400_000,
    });
    const first = await keys.claim(tenantId, 'lease', 'fp');
    if (first.outcome !== 'claimed') throw new Error(first.outcome);
    // the holder stalls past its lock; a retry takes the key over
    now += 1000;
    const second = await keys.claim(tenantId, 'lease', 'fp');
    expect(second.outcome).toBe('claimed');
    await vi.waitFor(() => expect(first.lease.isLost).toBe(true), { timeout: 2000, interval: 20 });
    // the work was not interrupted: what it commits now rolls back, so a retry's effect is the only one
    const row = upload();
    await expect(inUnits(store).uploads.create(row, limits, first.lease.held)).rejects.toBeInstanceOf(
      HeldKeyLostError,
    );
    expect(await store.uploads.get(tenantId, row.id)).toBeUndefined();
    if (second.outcome === 'claimed') {
      expect(second.lease.isLost).toBe(false);
      await second.lease.release();
    }
    first.lease.stop();
  });
});
