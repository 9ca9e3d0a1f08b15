/**
 * The contract JSON kept beside runs' and transactions' columns is written by the views in src/records, and
 * a copy an older view wrote is rewritten when a store opens: a view changes without a migration.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runView } from '../../src/records/run.js';
import { transactionView } from '../../src/records/transaction.js';
import type { LedgerEntry, Store } from '../../src/store/types.js';
import type { TestStore } from '../helpers/engine.js';
import { queuedRun, storeWithFile, inUnits } from '../helpers/store-rows.js';

let opened: TestStore;
let store: Store;
let tenantId: string;
let userId: string;
let fileId: string;

beforeEach(async () => {
  ({ opened, store, tenantId, userId, fileId } = await storeWithFile('views'));
});
afterEach(async () => {
  await opened.close();
});

const entry = (n: number): LedgerEntry => ({
  id: randomUUID(),
  tenant_id: tenantId,
  type: 'ecosystem',
  amount: 100 + n,
  currency: 'USD',
  description: `settlement "${n}"`,
  source: 'import',
  run_id: null,
  external_id: `ext-${n}`,
  occurred_at: `2026-01-0${1 + (n % 9)}T00:00:00.000Z`,
  created_at: '2026-01-10T00:00:00.000Z',
});

describe('stored views', () => {
  it('a run listed is the view of the run as get returns it, error code included', async () => {
    const run = queuedRun({ tenantId, userId, fileId });
    await inUnits(store).runs.create(run, 10);
    await inUnits(store).runs.cancel(tenantId, run.id, new Date().toISOString());
    const got = (await store.runs.get(tenantId, run.id))!;
    expect(got.error_code).toBe('cancelled');
    const { items } = (await store.runs.list(tenantId, {}, 10, 0))!;
    expect(items.map((item) => JSON.parse(item))).toEqual([runView(got)]);
  });

  it('copies an older view wrote are rewritten when a store opens, and only those', async () => {
    const runs = Array.from({ length: 3 }, () => queuedRun({ tenantId, userId, fileId }));
    for (const run of runs) await inUnits(store).runs.create(run, 10);
    const entries = [0, 1, 2].map(entry);
    await store.ledger.append(entries);
    // as if an older view had written the first two of each, and a view bump were pending
    await opened.query('UPDATE runs SET record = \'{"id":"stale"}\', record_view = 0 WHERE id IN (?, ?)', [
      runs[0]!.id,
      runs[1]!.id,
    ]);
    await opened.query(
      "UPDATE ledger SET record = '{}', record_view = 0 WHERE external_id IN ('ext-0', 'ext-1')",
    );
    await opened.query('DELETE FROM stored_views');
    const reopened = await opened.another();
    const { items } = (await reopened.runs.list(tenantId, {}, 10, 0))!;
    const expected = await Promise.all([...runs].reverse().map((run) => store.runs.get(tenantId, run.id)));
    expect(items.map((item) => JSON.parse(item))).toEqual(expected.map((run) => runView(run!)));
    const ledger = await reopened.ledger.list(tenantId, {}, 10, 0);
    const byExternalId = (a: { external_id: string | null }, b: { external_id: string | null }) =>
      (a.external_id ?? '').localeCompare(b.external_id ?? '');
    expect(ledger.items.map((item) => JSON.parse(item) as LedgerEntry).sort(byExternalId)).toEqual(
      entries.map(transactionView).sort(byExternalId),
    );
    const versions = await opened.query<{ name: string; version: number }>(
      'SELECT name, version FROM stored_views ORDER BY name',
    );
    expect(versions.map((v) => v.name)).toEqual(['run', 'transaction']);
  });
});
