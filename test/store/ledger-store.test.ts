/**
 * The ledger store's contract, run once per engine (vitest.config.ts): what LedgerRepo in
 * src/store/types.ts promises, through the repository alone.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LedgerEntry, LedgerRangeError, type Store } from '../../src/store/types.js';
import { Tenants } from '../../src/tenants/service.js';
import { systemClock } from '../../src/kernel/time.js';
import { openTestStore, type TestStore } from '../helpers/engine.js';

let opened: TestStore;
let store: Store;
beforeAll(async () => {
  opened = await openTestStore();
  store = opened.store;
});
afterAll(async () => {
  await opened.close();
});

const newTenant = async () => (await new Tenants(store, systemClock).create(`t-${randomUUID()}`)).tenant_id;

function entry(tenantId: string, over: Partial<LedgerEntry> = {}): LedgerEntry {
  return {
    id: randomUUID(),
    tenant_id: tenantId,
    type: 'tech',
    amount: 100,
    currency: 'USD',
    description: 'entry',
    source: 'import',
    run_id: null,
    external_id: null,
    occurred_at: '2026-11-20T10:00:00.000Z',
    created_at: '2026-11-26T10:00:00.000Z',
    ...over,
  };
}

const ids = (items: string[]) => items.map((text) => (JSON.parse(text) as { id: string }).id);

describe('appending', () => {
  it("skips entries whose external_id the tenant already has, and only that tenant's", async () => {
    const tenantId = await newTenant();
    const first = entry(tenantId, { external_id: 'settlement-1' });
    expect(await store.ledger.append([first, entry(tenantId)])).toEqual({ inserted: 2, skipped: 0 });
    expect(await store.ledger.append([entry(tenantId, { external_id: 'settlement-1' })])).toEqual({
      inserted: 0,
      skipped: 1,
    });
    const other = await newTenant();
    expect(await store.ledger.append([entry(other, { external_id: 'settlement-1' })])).toEqual({
      inserted: 1,
      skipped: 0,
    });
  });

  it('writes nothing when the sum of |amount| would pass 2^53 - 1', async () => {
    const tenantId = await newTenant();
    await store.ledger.append([entry(tenantId, { amount: Number.MAX_SAFE_INTEGER - 10 })]);
    await expect(
      store.ledger.append([
        entry(tenantId, { amount: 5 }),
        entry(tenantId, { amount: -6, type: 'ecosystem' }),
      ]),
    ).rejects.toBeInstanceOf(LedgerRangeError);
    expect((await store.ledger.list(tenantId, {}, 10, 0)).total).toBe(1);
  });
});

describe('reading', () => {
  it('lists newest first, by type and by inclusive UTC days, per tenant', async () => {
    const tenantId = await newTenant();
    const a = entry(tenantId, { occurred_at: '2026-11-01T23:59:59.999Z' });
    const b = entry(tenantId, { occurred_at: '2026-11-02T00:00:00.000Z', type: 'ecosystem' });
    const c = entry(tenantId, { occurred_at: '2026-11-03T12:00:00.000Z' });
    await store.ledger.append([a, b, c]);
    await store.ledger.append([entry(await newTenant())]);
    const all = await store.ledger.list(tenantId, {}, 10, 0);
    expect(ids(all.items)).toEqual([c.id, b.id, a.id]);
    expect(all.total).toBe(3);
    expect(ids((await store.ledger.list(tenantId, { type: 'tech' }, 10, 0)).items)).toEqual([c.id, a.id]);
    const days = await store.ledger.list(tenantId, { startDate: '2026-11-02', endDate: '2026-11-02' }, 10, 0);
    expect(ids(days.items)).toEqual([b.id]);
    const paged = await store.ledger.list(tenantId, {}, 1, 1);
    expect(ids(paged.items)).toEqual([b.id]);
    expect(paged.total).toBe(3);
  });

  it('pages shallow and deep (past 200 rows) alike: newest first, ties by id, with the exact total', async () => {
    const tenantId = await newTenant();
    // 260 entries over 130 times, two at each: the order's tie-break (id, descending) matters on every page
    const entries = Array.from({ length: 260 }, (_, i) =>
      entry(tenantId, {
        occurred_at: new Date(Date.UTC(2026, 10, 1) + Math.floor(i / 2) * 60_000).toISOString(),
        type: i % 3 === 0 ? 'ecosystem' : 'tech',
      }),
    );
    await store.ledger.append(entries);
    await store.ledger.append([entry(await newTenant())]);
    const expected = [...entries]
      .sort((x, y) =>
        x.occurred_at === y.occurred_at ? (x.id < y.id ? 1 : -1) : x.occurred_at < y.occurred_at ? 1 : -1,
      )
      .map((e) => e.id);
    for (const offset of [0, 20, 190, 199, 200, 220, 250, 260]) {
      const page = await store.ledger.list(tenantId, {}, 20, offset);
      expect(ids(page.items), `offset ${offset}`).toEqual(expected.slice(offset, offset + 20));
      expect(page.total).toBe(260);
    }
    const ecosystem = expected.filter((id) => entries.find((e) => e.id === id)!.type === 'ecosystem');
    const deep = await store.ledger.list(tenantId, { type: 'ecosystem', startDate: '2026-11-01' }, 5, 80);
    expect(ids(deep.items)).toEqual(ecosystem.slice(80, 85));
    expect(deep.total).toBe(ecosystem.length);
  });

  it('the overview: the currency, sums of all time, daily sums in the range oldest first, the count and the latest entry', async () => {
    const tenantId = await newTenant();
    await store.ledger.append([
      entry(tenantId, { occurred_at: '2026-11-01T10:00:00.000Z', amount: 100 }),
      entry(tenantId, { occurred_at: '2026-11-03T10:00:00.000Z', amount: 40 }),
      entry(tenantId, { occurred_at: '2026-11-03T11:00:00.000Z', amount: -15, type: 'ecosystem' }),
      entry(tenantId, { occurred_at: '2026-11-05T09:00:00.000Z', amount: 7, type: 'ecosystem' }),
    ]);
    expect(await store.ledger.overview(tenantId, '2026-11-02', '2026-11-05')).toEqual({
      currency: 'USD',
      allTime: { tech: 140, ecosystem: -8 },
      daily: [
        { day: '2026-11-03', tech: 40, ecosystem: -15 },
        { day: '2026-11-05', tech: 0, ecosystem: 7 },
      ],
      count: 4,
      latestOccurredAt: '2026-11-05T09:00:00.000Z',
    });
    expect(await store.ledger.overview(await newTenant(), '2026-11-02', '2026-11-05')).toEqual({
      currency: 'USD',
      allTime: { tech: 0, ecosystem: 0 },
      daily: [],
      count: 0,
      latestOccurredAt: null,
    });
    // an entry that comes late but happened earlier does not move the latest time back
    await store.ledger.append([entry(tenantId, { occurred_at: '2026-11-04T09:00:00.000Z', amount: 1 })]);
    expect((await store.ledger.overview(tenantId, '2026-11-02', '2026-11-05')).latestOccurredAt).toBe(
      '2026-11-05T09:00:00.000Z',
    );
    await store.ledger.append([entry(tenantId, { occurred_at: '2026-11-06T09:00:00.000Z', amount: 1 })]);
    expect((await store.ledger.overview(tenantId, '2026-11-02', '2026-11-05')).latestOccurredAt).toBe(
      '2026-11-06T09:00:00.000Z',
    );
    // no such tenant: no currency
    expect((await store.ledger.overview(randomUUID(), '2026-11-02', '2026-11-05')).currency).toBeNull();
  });
});
