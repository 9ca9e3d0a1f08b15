/**
 * The store contract, run once per engine (vitest.config.ts): what src/store/types.ts promises, checked
 * against exact COUNT(*) and SUM over the engine's own tables.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LedgerEntry, RunOutcome, RunRow, RunStatus, Store } from '../../src/store/types.js';
import { Tenants } from '../../src/tenants/service.js';
import { systemClock } from '../../src/kernel/time.js';
import { engine, type TestStore } from '../helpers/engine.js';
import { queuedRun, storeWithFile, inUnits } from '../helpers/store-rows.js';

let opened: TestStore;
let store: Store;
let tenantId: string;
let userId: string;
let fileId: string;

beforeEach(async () => {
  ({ opened, store, tenantId, userId, fileId } = await storeWithFile('t'));
});
afterEach(async () => {
  await opened.close();
});

const newRun = (target: RunRow['target'] = 'pdf-preflight') =>
  queuedRun({ tenantId, userId, fileId }, target);

const outcome = (status: 'succeeded' | 'failed' = 'succeeded'): RunOutcome => ({
  status,
  total_tasks: 2,
  completed_tasks: 2,
  failed_tasks: 0,
  progress: 100,
  points_consumed: 4,
  output_files: ['report.json'],
  error: status === 'failed' ? 'The file does not open' : null,
  error_code: status === 'failed' ? 'invalid_pdf' : null,
  completed_at: new Date().toISOString(),
});

const booking = (runId: string): LedgerEntry => ({
  id: randomUUID(),
  tenant_id: tenantId,
  type: 'tech',
  amount: 40,
  currency: 'USD',
  description: 'run',
  source: 'run',
  run_id: runId,
  external_id: null,
  occurred_at: new Date().toISOString(),
  created_at: new Date().toISOString(),
});

const future = (ms: number) => new Date(Date.now() + ms).toISOString();
const now = () => new Date().toISOString();

async function exactCounts(): Promise<Record<string, number>> {
  const rows = await opened.query<{ status: string; target: string; n: number }>(
    'SELECT status, target, COUNT(*) AS n FROM runs WHERE tenant_id = ? GROUP BY status, target',
    [tenantId],
  );
  return Object.fromEntries(rows.map((r) => [`${r.status}/${r.target}`, r.n]));
}

async function countedTotals(): Promise<Record<string, number>> {
  const result: Record<string, number> = {};
  for (const status of ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as RunStatus[]) {
    for (const target of ['pdf-preflight', 'pdf-text']) {
      const { total } = (await store.runs.list(tenantId, { status, target }, 1, 0))!;
      if (total > 0) result[`${status}/${target}`] = total;
    }
  }
  return result;
}

describe('finishing a run books its revenue exactly once', () => {
  it('a repeated finish is a no-op', async () => {
    const run = newRun();
    await inUnits(store).runs.create(run, 1000);
    const claim = (await store.runs.claim('w1', now(), future(60_000)))!;
    expect(await store.runs.finish(claim.queueMessageId, 'w1', outcome(), booking(run.id))).toBe(true);
    expect(await store.runs.finish(claim.queueMessageId, 'w1', outcome(), booking(run.id))).toBe(false);
    const ledger = await store.ledger.list(tenantId, {}, 10, 0);
    const entries = ledger.items.map((item) => JSON.parse(item) as { run_id: string | null });
    expect(entries.filter((e) => e.run_id === run.id)).toHaveLength(1);
    expect(ledger.total).toBe(1);
  });

  it('a worker whose lease lapsed and was taken over cannot finish; the new holder books once', async () => {
    const run = newRun();
    await inUnits(store).runs.create(run, 1000);
    const first = (await store.runs.claim('dead', now(), future(-1)))!;
    const second = (await store.runs.claim('alive', now(), future(60_000)))!;
    expect(second.queueMessageId).toBe(first.queueMessageId);
    expect(second.claims).toBe(2);
    expect(await store.runs.renewLease(first.queueMessageId, 'dead', future(60_000))).toBe(false);
    expect(await store.runs.finish(first.queueMessageId, 'dead', outcome(), booking(run.id))).toBe(false);
    expect(await store.runs.finish(second.queueMessageId, 'alive', outcome(), booking(run.id))).toBe(true);
    expect((await store.ledger.list(tenantId, {}, 10, 0)).total).toBe(1);
    expect((await store.runs.get(tenantId, run.id))!.status).toBe('succeeded');
  });

  it("a suspended tenant's queued run waits, and is claimed once the tenant is resumed", async () => {
    const run = newRun();
    await inUnits(store).runs.create(run, 1000);
    await store.platform.change((tx) => tx.tenants.setSuspended(tenantId, now()));
    expect(await store.runs.claim('w1', now(), future(60_000))).toBeUndefined();
    expect((await store.runs.get(tenantId, run.id))!.status).toBe('queued');
    await store.platform.change((tx) => tx.tenants.setSuspended(tenantId, null));
    const claim = (await store.runs.claim('w1', now(), future(60_000)))!;
    expect(claim.run.id).toBe(run.id);
  });

  it('a released lease is claimed again at once and the release does not count as a crash', async () => {
    const run = newRun();
    await inUnits(store).runs.create(run, 1000);
    const first = (await store.runs.claim('stopping', now(), future(60_000)))!;
    expect(await store.runs.claim('other', now(), future(60_000))).toBeUndefined();
    await store.runs.releaseLease(first.queueMessageId, 'stopping');
    const second = (await store.runs.claim('other', now(), future(60_000)))!;
    expect(second).toMatchObject({ queueMessageId: first.queueMessageId, claims: 1 });
    expect(await store.runs.finish(first.queueMessageId, 'stopping', outcome(), booking(run.id))).toBe(false);
  });

  it('a lease released until a time to come is not claimed before it, and the release does not count', async () => {
    const run = newRun();
    await inUnits(store).runs.create(run, 1000);
    const first = (await store.runs.claim('w', now(), future(60_000)))!;
    await store.runs.releaseLease(first.queueMessageId, 'w', future(30_000));
    expect(await store.runs.claim('w', now(), future(60_000))).toBeUndefined();
    expect(await store.runs.claim('w', future(31_000), future(90_000))).toMatchObject({
      queueMessageId: first.queueMessageId,
      claims: 1,
    });
  });

  it('each rerun is an execution of its own and books again', async () => {
    const run = newRun();
    await inUnits(store).runs.create(run, 1000);
    for (let attempt = 1; attempt <= 3; attempt++) {
      const claim = (await store.runs.claim('w', now(), future(60_000)))!;
      expect(claim.run.attempt).toBe(attempt);
      await store.runs.finish(claim.queueMessageId, 'w', outcome(), booking(run.id));
      if (attempt < 3)
        expect(await inUnits(store).runs.rerun(tenantId, run.id, randomUUID(), now(), 1000)).toMatchObject({
          status: 'queued',
        });
    }
    expect((await store.ledger.list(tenantId, { type: 'tech' }, 10, 0)).total).toBe(3);
  });
});

describe('the daily ledger sums never drift from the ledger', () => {
  it('after appends, skipped duplicates and run bookings', async () => {
    const day = (d: number) => `2026-11-${String(d).padStart(2, '0')}T10:00:00.000Z`;
    const entries = Array.from({ length: 40 }, (_, i) => ({
      ...booking(randomUUID()),
      type: (i % 3 ? 'ecosystem' : 'tech') as LedgerEntry['type'],
      source: 'import' as const,
      run_id: null,
      external_id: `x-${i % 30}`,
      amount: (i % 7) * 100 - 250,
      occurred_at: day(1 + (i % 5)),
    }));
    // ten external ids repeat: they are skipped, and must not be counted either
    const first = await store.ledger.append(entries.slice(0, 30));
    const second = await store.ledger.append(entries.slice(30));
    expect([first.inserted, second.inserted, second.skipped]).toEqual([30, 0, 10]);
    const run = newRun();
    await inUnits(store).runs.create(run, 1000);
    const claim = (await store.runs.claim('w', now(), future(60_000)))!;
    await store.runs.finish(claim.queueMessageId, 'w', outcome(), {
      ...booking(run.id),
      occurred_at: day(3),
    });

    const exact = await opened.query(
      `SELECT substr(occurred_at, 1, 10) AS day,
         COALESCE(SUM(amount) FILTER (WHERE type = 'tech'), 0) AS tech,
         COALESCE(SUM(amount) FILTER (WHERE type = 'ecosystem'), 0) AS ecosystem,
         COUNT(*) FILTER (WHERE type = 'tech') AS tech_count,
         COUNT(*) FILTER (WHERE type = 'ecosystem') AS ecosystem_count
       FROM ledger WHERE tenant_id = ? GROUP BY 1 ORDER BY 1`,
      [tenantId],
    );
    const kept = await opened.query(
      'SELECT day, tech, ecosystem, tech_count, ecosystem_count FROM ledger_days WHERE tenant_id = ? ORDER BY 1',
      [tenantId],
    );
    expect(kept).toEqual(exact);
    const totals = await opened.query(
      'SELECT type, amount, tx_count AS n FROM ledger_totals WHERE tenant_id = ? ORDER BY type',
      [tenantId],
    );
    const exactTotals = await opened.query(
      'SELECT type, SUM(amount) AS amount, COUNT(*) AS n FROM ledger WHERE tenant_id = ? GROUP BY type ORDER BY type',
      [tenantId],
    );
    expect(totals).toEqual(exactTotals);
    const overview = await store.ledger.overview(tenantId, '2026-11-01', '2026-11-05');
    expect(overview.count).toBe(31);
    expect(overview.daily.map((d) => d.day)).toEqual([
      '2026-11-01',
      '2026-11-02',
      '2026-11-03',
      '2026-11-04',
      '2026-11-05',
    ]);
    const { total } = await store.ledger.list(tenantId, {}, 1, 0);
    expect(total).toBe(31);
  });
});

describe('run totals are counters that never drift from COUNT(*)', () => {
  it('after concurrent creates, claims, finishes, reruns and lapsed leases', async () => {
    const runs = Array.from({ length: 60 }, (_, i) => newRun(i % 3 === 0 ? 'pdf-text' : 'pdf-preflight'));
    await Promise.all(runs.map((r) => inUnits(store).runs.create(r, 1000)));
    const claims = [];
    for (let i = 0; i < 40; i++)
      claims.push((await store.runs.claim(`w${i % 4}`, now(), future(i % 5 === 0 ? -1 : 60_000)))!);
    await Promise.all(
      claims.map((c, i) =>
        store.runs.finish(c.queueMessageId, `w${i % 4}`, outcome(i % 2 ? 'failed' : 'succeeded'), null),
      ),
    );
    // a crashed worker's run is claimed again by another
    for (let i = 0; i < 5; i++) await store.runs.claim('rescuer', now(), future(60_000));
    await Promise.all(
      runs.slice(0, 20).map((r) => inUnits(store).runs.rerun(tenantId, r.id, randomUUID(), now(), 1000)),
    );
    expect(await countedTotals()).toEqual(await exactCounts());
    const { total } = (await store.runs.list(tenantId, {}, 1, 0))!;
    expect(total).toBe(60);
  });

  it('filtered pages, shallow and deep, return what a plain OFFSET would', async () => {
    const runs = Array.from({ length: 450 }, (_, i) => newRun(i % 2 ? 'pdf-text' : 'pdf-preflight'));
    for (const r of runs) await inUnits(store).runs.create(r, 1000);
    const text = runs
      .filter((r) => r.target === 'pdf-text')
      .map((r) => r.id)
      .reverse();
    for (const offset of [0, 4, 199, 200, 201, 221, 224, 225, 300]) {
      const page = (await store.runs.list(tenantId, { target: 'pdf-text' }, 4, offset))!;
      expect(page.items.map((r) => (JSON.parse(r) as RunRow).id)).toEqual(text.slice(offset, offset + 4));
      expect(page.total).toBe(225);
    }
  });

  it('deep filtered pages that jump by block counts return what a plain OFFSET would, across blocks', async () => {
    // 3,000 runs span three blocks of 1,024 sequence numbers; cancelling and finishing some moves counts
    // between statuses inside blocks
    const runs = Array.from({ length: 3000 }, (_, i) => newRun(i % 3 ? 'pdf-preflight' : 'pdf-text'));
    for (const r of runs) await inUnits(store).runs.create(r, 10_000);
    for (let i = 0; i < runs.length; i += 7) await inUnits(store).runs.cancel(tenantId, runs[i]!.id, now());
    for (let i = 0; i < 300; i++) {
      const c = await store.runs.claim('w', now(), future(60_000));
      await store.runs.finish(c!.queueMessageId, 'w', outcome(i % 2 ? 'failed' : 'succeeded'), null);
    }
    const plain = async (where: string, params: unknown[]) =>
      (
        await opened.query<{ id: string }>(
          `SELECT id FROM runs WHERE tenant_id = ? AND ${where} ORDER BY seq DESC`,
          [tenantId, ...params],
        )
      ).map((r) => r.id);
    // each engine's block counts against an exact GROUP BY of its own layout
    const [blocks, exact] =
      engine === 'sqlite'
        ? await Promise.all([
            opened.query(
              'SELECT status, target, block, n FROM run_blocks WHERE tenant_id = ? AND n <> 0 ORDER BY 1, 2, 3',
              [tenantId],
            ),
            opened.query(
              `SELECT status, target, seq >> 10 AS block, COUNT(*) AS n FROM runs WHERE tenant_id = ?
               GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
              [tenantId],
            ),
          ])
        : await Promise.all([
            opened.query(
              'SELECT block, SUM(n) AS n FROM run_blocks WHERE tenant_id = ? AND level = 1 GROUP BY 1 ORDER BY 1',
              [tenantId],
            ),
            opened.query(
              'SELECT seq >> 10 AS block, COUNT(*) AS n FROM runs WHERE tenant_id = ? GROUP BY 1 ORDER BY 1',
              [tenantId],
            ),
          ]);
    const cases = [
      { filter: {}, ids: await plain('1 = 1', []) },
      { filter: { status: 'cancelled' as RunStatus }, ids: await plain('status = ?', ['cancelled']) },
      { filter: { status: 'queued' as RunStatus }, ids: await plain('status = ?', ['queued']) },
      { filter: { target: 'pdf-text' }, ids: await plain('target = ?', ['pdf-text']) },
      {
        filter: { status: 'queued' as RunStatus, target: 'pdf-preflight' },
        ids: await plain('status = ? AND target = ?', ['queued', 'pdf-preflight']),
      },
    ];
    expect(blocks).toEqual(exact);
    for (const { filter, ids } of cases) {
      for (const offset of [199, 200, 250, 700, 701, 900, 1500, 1800, 2500, ids.length - 3, ids.length]) {
        const page = (await store.runs.list(tenantId, filter, 5, offset))!;
        expect(
          page.items.map((r) => (JSON.parse(r) as RunRow).id),
          `${JSON.stringify(filter)} offset ${offset}`,
        ).toEqual(ids.slice(offset, offset + 5));
        expect(page.total).toBe(ids.length);
      }
    }
  });

  it('the unfiltered page walks the same rows as OFFSET would', async () => {
    const runs = Array.from({ length: 25 }, () => newRun());
    for (const r of runs) await inUnits(store).runs.create(r, 1000);
    const newestFirst = runs.map((r) => r.id).reverse();
    for (const offset of [0, 7, 20, 24, 25, 30]) {
      const page = (await store.runs.list(tenantId, {}, 5, offset))!;
      expect(page.items.map((r) => (JSON.parse(r) as RunRow).id)).toEqual(
        newestFirst.slice(offset, offset + 5),
      );
    }
  });
});

describe('claiming is fair across tenants', () => {
  it('the tenant with the fewest runs under lease goes first, whatever its backlog', async () => {
    const other = (await new Tenants(store, systemClock).create('other')).tenant_id;
    const backlog = Array.from({ length: 5 }, () => newRun());
    for (const r of backlog) await inUnits(store).runs.create(r, 1000);
    const first = (await store.runs.claim('w', now(), future(60_000)))!;
    expect(first.run.tenant_id).toBe(tenantId);
    // the other tenant queues later than the whole backlog, yet is claimed next: it has nothing running
    const late = { ...newRun(), tenant_id: other };
    await inUnits(store).runs.create(late, 1000);
    const second = (await store.runs.claim('w', now(), future(60_000)))!;
    expect(second.run.id).toBe(late.id);
    // with one running each, the older waiting entry wins
    const third = (await store.runs.claim('w', now(), future(60_000)))!;
    expect(third.run.id).toBe(backlog[1]!.id);
  });
});

describe('queue statistics', () => {
  it('count the entries waiting at the time given: a lease counts as waiting once that time is past it', async () => {
    const run = newRun();
    await inUnits(store).runs.create(run, 1000);
    const leaseUntil = future(60_000);
    await store.runs.claim('w', now(), leaseUntil);
    const during = await store.runs.queueStats(now());
    expect(during.waiting).toBe(0);
    expect(during.byStatus.running).toBe(1);
    const after = await store.runs.queueStats(new Date(Date.parse(leaseUntil) + 1000).toISOString());
    expect(after.waiting).toBe(1);
    expect(after.oldestWaitingAt).not.toBeNull();
  });
});

describe('progress after a takeover', () => {
  it('never goes backwards while the new worker catches up, and the finish writes the exact figures', async () => {
    const run = newRun();
    await inUnits(store).runs.create(run, 1000);
    const dead = (await store.runs.claim('dead', now(), future(-1)))!;
    await store.runs.saveProgress(dead.queueMessageId, 'dead', {
      total_tasks: 10,
      completed_tasks: 6,
      failed_tasks: 0,
      progress: 60,
    });
    const alive = (await store.runs.claim('alive', now(), future(60_000)))!;
    await store.runs.saveProgress(alive.queueMessageId, 'alive', {
      total_tasks: 10,
      completed_tasks: 2,
      failed_tasks: 0,
      progress: 20,
    });
    expect(await store.runs.get(tenantId, run.id)).toMatchObject({ progress: 60, completed_tasks: 6 });
    await store.runs.saveProgress(alive.queueMessageId, 'alive', {
      total_tasks: 10,
      completed_tasks: 8,
      failed_tasks: 0,
      progress: 80,
    });
    expect(await store.runs.get(tenantId, run.id)).toMatchObject({ progress: 80, completed_tasks: 8 });
  });
});

describe('keyword search', () => {
  it('folds ASCII letters only, on both engines, and treats % and _ literally', async () => {
    const names = ['Ärger-Report.pdf', 'ärger-notes.pdf', 'plain_100%.pdf'];
    for (const input_file_name of names)
      await inUnits(store).runs.create({ ...newRun(), input_file_name }, 1000);
    const found = async (keyword: string) =>
      (await store.runs.list(tenantId, { keyword }, 10, 0))!.items
        .map((r) => (JSON.parse(r) as RunRow).input_file_name)
        .sort();
    expect(await found('REPORT')).toEqual(['Ärger-Report.pdf']);
    expect(await found('ärger')).toEqual(['ärger-notes.pdf']);
    expect(await found('ÄRGER')).toEqual(['Ärger-Report.pdf']);
    expect(await found('äRGER')).toEqual(['ärger-notes.pdf']);
    expect(await found('_100%')).toEqual(['plain_100%.pdf']);
    expect(await found('%')).toEqual(['plain_100%.pdf']);
    expect((await store.runs.list(tenantId, { keyword: 'RGER' }, 10, 0))!.total).toBe(2);
    // an unknown cursor is no cursor, whatever the filter
    expect(await store.runs.list(tenantId, { keyword: '\0' }, 10, 0, randomUUID())).toBeUndefined();
    expect(await store.runs.list(tenantId, { keyword: '\0' }, 10, 0)).toEqual({
      items: [],
      total: 0,
      lastId: null,
    });
    expect(await store.runs.list(tenantId, { target: 'pdf-text\0' }, 10, 0)).toEqual({
      items: [],
      total: 0,
      lastId: null,
    });
  });
});

describe('cursor pages', () => {
  const ids = (page: { items: string[] }) => page.items.map((r) => (JSON.parse(r) as RunRow).id);

  it('walking by next cursor visits every run once, in the order of offset pages, for every filter', async () => {
    const runs = Array.from({ length: 57 }, (_, i) => newRun(i % 3 ? 'pdf-text' : 'pdf-preflight'));
    for (const r of runs) await inUnits(store).runs.create(r, 1000);
    // a few runs leave `queued`, so that the status filter has rows to skip
    for (let i = 0; i < 9; i++) {
      const claim = (await store.runs.claim('w', now(), future(60_000)))!;
      await store.runs.finish(claim.queueMessageId, 'w', outcome(), null);
    }
    for (const filter of [{}, { target: 'pdf-text' }, { status: 'queued' as const }, { keyword: 'a.pdf' }]) {
      const all = (await store.runs.list(tenantId, filter, 100, 0))!;
      const walked: string[] = [];
      let cursor: string | undefined;
      for (let guard = 0; guard < 100; guard++) {
        const page = (await store.runs.list(tenantId, filter, 5, 0, cursor))!;
        expect(page.total, JSON.stringify(filter)).toBe(all.total);
        walked.push(...ids(page));
        if (!page.lastId) break;
        expect(page.lastId).toBe(ids(page).at(-1));
        cursor = page.lastId;
      }
      expect(walked, JSON.stringify(filter)).toEqual(ids(all));
      // offset counts from the cursor
      const third = ids(all)[2]!;
      const afterThird = (await store.runs.list(tenantId, filter, 3, 2, third))!;
      expect(ids(afterThird)).toEqual(ids(all).slice(5, 8));
    }
  });

  it("an unknown run or another tenant's run is no cursor", async () => {
    const other = (await new Tenants(store, systemClock).create('other')).tenant_id;
    const theirs = { ...newRun(), tenant_id: other };
    await inUnits(store).runs.create(theirs, 1000);
    expect(await store.runs.list(tenantId, {}, 5, 0, theirs.id)).toBeUndefined();
    expect(await store.runs.list(tenantId, {}, 5, 0, randomUUID())).toBeUndefined();
    const mine = newRun();
    await inUnits(store).runs.create(mine, 1000);
    expect(await store.runs.list(tenantId, {}, 5, 0, mine.id)).toEqual({ items: [], total: 1, lastId: null });
  });
});

describe('listed records', () => {
  it('are the run as get returns it after every kind of write: create, claim, progress, finish, rerun, cancel', async () => {
    const listed = async (runId: string) => {
      for (const filter of [{}, { status: (await store.runs.get(tenantId, runId))!.status }]) {
        const { items } = (await store.runs.list(tenantId, filter, 100, 0))!;
        const found = items.map((item) => JSON.parse(item) as RunRow).find((r) => r.id === runId);
        expect(found, JSON.stringify(filter)).toEqual(await store.runs.get(tenantId, runId));
      }
    };
    const run = newRun();
    await inUnits(store).runs.create(run, 1000);
    await listed(run.id);
    const claim = (await store.runs.claim('w1', now(), future(60_000)))!;
    await listed(run.id);
    await store.runs.saveProgress(claim.queueMessageId, 'w1', {
      total_tasks: 3,
      completed_tasks: 1,
      failed_tasks: 1,
      progress: 66,
    });
    await listed(run.id);
    await store.runs.finish(
      claim.queueMessageId,
      'w1',
      { ...outcome('failed'), error: 'a "quoted" error\n' },
      null,
    );
    await listed(run.id);
    await inUnits(store).runs.rerun(tenantId, run.id, randomUUID(), now(), 1000);
    await listed(run.id);
    await inUnits(store).runs.cancel(tenantId, run.id, now());
    await listed(run.id);
  });
});

describe('several processes at once', () => {
  it('claimers in parallel on several stores never claim the same entry; every run is claimed and booked once', async () => {
    const stores = [store, await opened.another(), await opened.another()];
    const runs = Array.from({ length: 60 }, () => newRun());
    await Promise.all(runs.map((r) => inUnits(store).runs.create(r, 1000)));
    const claimed: string[] = [];
    await Promise.all(
      stores.flatMap((s, i) =>
        Array.from({ length: 4 }, async (_, j) => {
          const worker = `w${i}.${j}`;
          for (;;) {
            const claim = await s.runs.claim(worker, now(), future(60_000));
            if (!claim) return;
            claimed.push(claim.run.id);
            expect(await s.runs.finish(claim.queueMessageId, worker, outcome(), booking(claim.run.id))).toBe(
              true,
            );
          }
        }),
      ),
    );
    expect(claimed.sort()).toEqual(runs.map((r) => r.id).sort());
    expect(
      await opened.query(
        'SELECT COUNT(*) AS n, COUNT(DISTINCT run_id) AS runs FROM ledger WHERE tenant_id = ?',
        [tenantId],
      ),
    ).toEqual([{ n: 60, runs: 60 }]);
    expect(await countedTotals()).toEqual(await exactCounts());
  });

  it('8 creators at once in one tenant: every run is counted exactly and listed once', async () => {
    const stores = [store, await opened.another()];
    const created: string[] = [];
    await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        for (let k = 0; k < 40; k++) {
          const run = newRun(k % 2 ? 'pdf-text' : 'pdf-preflight');
          expect(await inUnits(stores[i % 2]!).runs.create(run, 100_000)).toBe('created');
          created.push(run.id);
        }
      }),
    );
    expect(await countedTotals()).toEqual(await exactCounts());
    const listed: string[] = [];
    for (let offset = 0; offset < 320; offset += 100) {
      const page = (await store.runs.list(tenantId, {}, 100, offset))!;
      expect(page.total).toBe(320);
      listed.push(...page.items.map((r) => (JSON.parse(r) as RunRow).id));
    }
    expect(new Set(listed).size).toBe(320);
    expect(listed.sort()).toEqual(created.sort());
  });

  it('the queued-run cap holds exactly under concurrent creators', async () => {
    const stores = [store, await opened.another()];
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => inUnits(stores[i % 2]!).runs.create(newRun(), 10)),
    );
    expect(answers.filter((a) => a === 'created')).toHaveLength(10);
    expect(answers.filter((a) => a === 'over_limit')).toHaveLength(30);
    expect((await store.runs.list(tenantId, { status: 'queued' }, 1, 0))!.total).toBe(10);
  });

  it('two finishes of one claim at once: one wins, the run is booked once', async () => {
    const run = newRun();
    await inUnits(store).runs.create(run, 1000);
    const other = await opened.another();
    const claim = (await store.runs.claim('w', now(), future(60_000)))!;
    const results = await Promise.all([
      store.runs.finish(claim.queueMessageId, 'w', outcome(), booking(run.id)),
      other.runs.finish(claim.queueMessageId, 'w', outcome(), booking(run.id)),
    ]);
    expect(results.sort()).toEqual([false, true]);
    expect(await opened.query('SELECT COUNT(*) AS n FROM ledger WHERE run_id = ?', [run.id])).toEqual([
      { n: 1 },
    ]);
  });

  it('a cancel racing a finish: the run ends one way, counted once, booked only if it finished', async () => {
    const other = await opened.another();
    for (let i = 0; i < 10; i++) {
      const run = newRun();
      await inUnits(store).runs.create(run, 1000);
      const claim = (await store.runs.claim('w', now(), future(60_000)))!;
      const [finished] = await Promise.all([
        store.runs.finish(claim.queueMessageId, 'w', outcome(), booking(run.id)),
        inUnits(other).runs.cancel(tenantId, run.id, now()),
      ]);
      const final = (await store.runs.get(tenantId, run.id))!;
      expect(final.status).toBe(finished ? 'succeeded' : 'cancelled');
      const booked = await opened.query<{ n: number }>('SELECT COUNT(*) AS n FROM ledger WHERE run_id = ?', [
        run.id,
      ]);
      expect(booked[0]!.n).toBe(finished ? 1 : 0);
    }
    expect(await countedTotals()).toEqual(await exactCounts());
  });
});
