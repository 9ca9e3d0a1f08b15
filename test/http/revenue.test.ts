import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, monthStart, previousMonth, utcDay } from '../../src/revenue/dates.js';
import type { LedgerEntry } from '../../src/store/types.js';
import { type Harness, startHarness } from '../helpers/harness.js';

let h: Harness;
const today = utcDay(new Date());

function entry(overrides: Partial<LedgerEntry>): LedgerEntry {
  return {
    id: randomUUID(),
    tenant_id: h.tenant.tenant_id,
    type: 'ecosystem',
    amount: 100,
    currency: 'USD',
    description: 'test',
    source: 'import',
    run_id: null,
    external_id: randomUUID(),
    occurred_at: `${today}T12:00:00.000Z`,
    created_at: new Date().toISOString(),
    ...overrides,
  };
}

/** The ledger rows beforeAll books, as written. */
let booked: LedgerEntry[] = [];

/** Amounts of the rows booked for our tenant on `day`, of `type` or of both types. */
const bookedOn = (day: string, type?: LedgerEntry['type']) =>
  booked
    .filter(
      (e) =>
        e.tenant_id === h.tenant.tenant_id && e.occurred_at.startsWith(day) && (!type || e.type === type),
    )
    .map((e) => e.amount);

beforeAll(async () => {
  h = await startHarness({ PARSER_THREADS: '0' });
  const lastMonth = previousMonth(today);
  booked = [
    entry({ amount: 1234, occurred_at: `${today}T00:00:00.000Z` }),
    entry({
      type: 'tech',
      source: 'run',
      external_id: null,
      amount: 40,
      occurred_at: `${today}T23:59:59.999Z`,
    }),
    entry({ amount: -500, description: 'refund', occurred_at: `${monthStart(today)}T08:00:00.000Z` }),
    entry({
      type: 'tech',
      source: 'run',
      external_id: null,
      amount: 20,
      occurred_at: `${lastMonth.first}T00:00:00.000Z`,
    }),
    entry({ amount: 9_007_199_254_740, occurred_at: `${lastMonth.last}T23:59:59.999Z` }),
    entry({ amount: 77, occurred_at: `${addDays(today, -29)}T10:00:00.000Z` }),
    entry({ amount: 88, occurred_at: `${addDays(today, -30)}T10:00:00.000Z` }),
    entry({ amount: 5, occurred_at: '2020-02-29T10:00:00.000Z' }),
    // another tenant's money must never show
    entry({ tenant_id: h.other.tenant_id, amount: 999_999 }),
  ];
  await h.server.services.store.ledger.append(booked);
});
afterAll(async () => {
  await h.close();
});

interface Tx {
  id: string;
  type: 'tech' | 'ecosystem';
  amount: number;
  occurred_at: string;
}

async function allTransactions(query = '', token?: string): Promise<Tx[]> {
  const items: Tx[] = [];
  for (let page = 1; ; page++) {
    const res = await h.request('GET', `/api/open/finance/transactions?page_size=3&page=${page}${query}`, {
      token,
    });
    expect(res.status).toBe(200);
    items.push(...res.body.data);
    if (page >= res.body.total_pages) {
      expect(items).toHaveLength(res.body.total);
      return items;
    }
  }
}

const addUp = (amounts: number[]) => amounts.reduce((s, a) => s + a, 0);

const sum = (items: Tx[], type?: string) =>
  addUp(items.filter((t) => !type || t.type === type).map((t) => t.amount));

describe('transactions', () => {
  it('lists newest first with the list envelope', async () => {
    const res = await h.request('GET', '/api/open/finance/transactions');
    expect(res.body).toMatchObject({ code: 0, page: 1, page_size: 20, total: 8, total_pages: 1 });
    const times = res.body.data.map((t: Tx) => t.occurred_at);
    expect(times).toEqual([...times].sort().reverse());
    expect(
      res.body.data.every(
        (t: { currency: string; tenant_id: string }) =>
          t.currency === 'USD' && t.tenant_id === h.tenant.tenant_id,
      ),
    ).toBe(true);
  });

  it('filters by type', async () => {
    expect((await allTransactions('&transaction_type=tech')).map((t) => t.amount).sort()).toEqual([20, 40]);
    expect(await allTransactions('&transaction_type=ecosystem')).toHaveLength(6);
    expect(await allTransactions('&transaction_type=all')).toHaveLength(8);
  });

  it('includes the whole end_date and nothing of the next day', async () => {
    const todayOnly = await allTransactions(`&start_date=${today}&end_date=${today}`);
    // 40 and 1234 at the day's first and last millisecond; on the 1st of a month the month's refund too
    const byValue = (a: number, b: number) => a - b;
    expect(bookedOn(today)).toEqual(expect.arrayContaining([40, 1234]));
    expect(todayOnly.map((t) => t.amount).sort(byValue)).toEqual(bookedOn(today).sort(byValue));
    const yesterday = await allTransactions(`&end_date=${addDays(today, -1)}`);
    expect(yesterday.some((t) => t.occurred_at.startsWith(today))).toBe(false);
    const leap = await allTransactions('&start_date=2020-02-29&end_date=2020-02-29');
    expect(leap.map((t) => t.amount)).toEqual([5]);
  });

  it('a page past the end is empty with the right total', async () => {
    const res = await h.request('GET', '/api/open/finance/transactions?page=99&page_size=5');
    expect(res.body).toMatchObject({ data: [], total: 8, page: 99, total_pages: 2 });
  });

  it('another tenant sees only its own transactions', async () => {
    const other = await allTransactions('', h.other.token);
    expect(other.map((t) => t.amount)).toEqual([999_999]);
  });
});

describe('dashboard', () => {
  it('every figure equals the sum of the matching transactions', async () => {
    const res = await h.request('GET', '/api/open/finance/dashboard');
    expect(res.status).toBe(200);
    const d = res.body.data;
    const all = await allTransactions();
    const totals = (items: Tx[]) => ({
      total: sum(items),
      tech: sum(items, 'tech'),
      ecosystem: sum(items, 'ecosystem'),
    });
    const prev = previousMonth(today);
    expect(d.currency).toBe('USD');
    expect(d.all_time).toEqual(totals(all));
    expect(d.today).toEqual(totals(await allTransactions(`&start_date=${today}&end_date=${today}`)));
    expect(d.month_to_date).toEqual(
      totals(await allTransactions(`&start_date=${monthStart(today)}&end_date=${today}`)),
    );
    expect(d.previous_month).toEqual(
      totals(await allTransactions(`&start_date=${prev.first}&end_date=${prev.last}`)),
    );
    expect(d.previous_month.ecosystem).toBeGreaterThanOrEqual(9_007_199_254_740);
    expect(d.transaction_count).toBe(all.length);
    expect(d.latest_transaction_at).toBe(`${today}T23:59:59.999Z`);
    expect(d.daily).toHaveLength(30);
    expect(d.daily[0].date).toBe(addDays(today, -29));
    expect(d.daily[29].date).toBe(today);
    for (const day of d.daily) {
      expect(day).toEqual({
        date: day.date,
        ...totals(await allTransactions(`&start_date=${day.date}&end_date=${day.date}`)),
      });
    }
    // the window's first day holds the 77 booked 29 days ago (the 88 of the day before stays out); on some
    // dates another row falls on that day too (the previous month's last, or this month's first)
    expect(bookedOn(d.daily[0].date, 'ecosystem')).toContain(77);
    expect(d.daily[0].ecosystem).toBe(addUp(bookedOn(d.daily[0].date, 'ecosystem')));
  });

  it("another tenant's dashboard shows only its own money", async () => {
    const res = await h.request('GET', '/api/open/finance/dashboard', { token: h.other.token });
    expect(res.body.data.all_time).toEqual({ total: 999_999, tech: 0, ecosystem: 999_999 });
    expect(res.body.data.transaction_count).toBe(1);
  });

  it('is all zeros for a tenant without transactions', async () => {
    const empty = await h.server.services.tenants.create('empty', 'JPY');
    const res = await h.request('GET', '/api/open/finance/dashboard', { token: empty.token });
    expect(res.body.data).toMatchObject({
      currency: 'JPY',
      all_time: { total: 0, tech: 0, ecosystem: 0 },
      transaction_count: 0,
      latest_transaction_at: null,
    });
    expect(res.body.data.daily.every((d: { total: number }) => d.total === 0)).toBe(true);
  });
});

describe('the ledger is append-only', () => {
  it('refuses updates and deletes at the database', async () => {
    await expect(h.query('UPDATE ledger SET amount = 0')).rejects.toThrow(/append-only/);
    await expect(h.query('DELETE FROM ledger')).rejects.toThrow(/append-only/);
  });
});
