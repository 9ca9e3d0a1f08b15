/**
 * The unit of work (src/store/repos/unit-of-work.ts), run once per engine: what a service changes, the
 * events it emits and the effect it records commit together or not at all; hooks and the publishing of
 * events come after the commit, never after a rollback.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HeldKeyLostError, type HeldKey } from '../../src/store/held-key.js';
import type { EventDataJson, Store } from '../../src/store/types.js';
import { Tenants } from '../../src/tenants/service.js';
import { systemClock } from '../../src/kernel/time.js';
import type { TestStore } from '../helpers/engine.js';
import { queuedRun, storeWithFile } from '../helpers/store-rows.js';

let opened: TestStore;
let store: Store;
let ids: { tenantId: string; userId: string; fileId: string };

beforeEach(async () => {
  const made = await storeWithFile();
  opened = made.opened;
  store = made.store;
  ids = { tenantId: made.tenantId, userId: made.userId, fileId: made.fileId };
});
afterEach(async () => {
  await opened.close();
});

const count = async (sql: string, params: unknown[] = []) =>
  Number((await opened.query<{ n: number }>(`SELECT COUNT(*) AS n FROM ${sql}`, params))[0]!.n);
const data = JSON.stringify({ note: 'unit' }) as EventDataJson;

/** A key claimed as the idempotency step claims it, held by this request. */
async function heldKey(): Promise<HeldKey> {
  const held = { tenantId: ids.tenantId, key: randomUUID(), token: randomUUID() };
  const now = new Date();
  const later = new Date(now.getTime() + 60_000).toISOString();
  const claim = await store.idempotency.claim(held, 'fp', now.toISOString(), later, later);
  expect(claim.outcome).toBe('claimed');
  return held;
}

describe('a unit of work', () => {
  it('commits its changes, its events and its effect together, then runs its hooks and publishes', async () => {
    const held = await heldKey();
    const run = queuedRun(ids);
    let published = 0;
    const unwatch = store.events.watch(() => published++);
    const order: string[] = [];
    const outcome = await store.transaction(
      ids.tenantId,
      async (tx) => {
        expect(tx.tenantId).toBe(ids.tenantId);
        const created = await tx.runs.create(run, 10);
        await tx.emit('upload.completed', run.created_at, data);
        await tx.recordEffect(run.id);
        tx.afterCommit(() => order.push('hook'));
        order.push('work');
        return created;
      },
      held,
    );
    expect(outcome).toBe('created');
    expect(order).toEqual(['work', 'hook']);
    expect(await count('runs WHERE id = ?', [run.id])).toBe(1);
    // run.created from the run's change, upload.completed from the service
    expect(await count("events WHERE type IN ('run.created', 'upload.completed')")).toBe(3);
    const [key] = await opened.query<{ resource_id: string }>(
      'SELECT resource_id FROM idempotency_keys WHERE key = ?',
      [held.key],
    );
    expect(key?.resource_id).toBe(run.id);
    // the engine's publish step ran after the commit: this process's watchers heard it
    await expect.poll(() => published).toBeGreaterThan(0);
    unwatch();
  });

  it('rolls all of it back when the work throws: no run, no event, no effect, no hook', async () => {
    const held = await heldKey();
    const run = queuedRun(ids);
    const events = await count('events');
    let hooked = false;
    const failed = store.transaction(
      ids.tenantId,
      async (tx) => {
        await tx.runs.create(run, 10);
        await tx.emit('upload.completed', run.created_at, data);
        await tx.recordEffect(run.id);
        tx.afterCommit(() => (hooked = true));
        throw new Error('the service refused after all');
      },
      held,
    );
    await expect(failed).rejects.toThrow('the service refused after all');
    expect(hooked).toBe(false);
    expect(await count('runs WHERE id = ?', [run.id])).toBe(0);
    expect(await count('run_queue WHERE run_id = ?', [run.id])).toBe(0);
    expect(await count('events')).toBe(events);
    const [key] = await opened.query<{ resource_id: string | null }>(
      'SELECT resource_id FROM idempotency_keys WHERE key = ?',
      [held.key],
    );
    expect(key?.resource_id).toBeNull();
  });

  it('rolls back a change whose key a retry took over meanwhile (HeldKeyLostError)', async () => {
    const held = await heldKey();
    const run = queuedRun(ids);
    await opened.query('UPDATE idempotency_keys SET lock_token = ? WHERE key = ?', ['the-retry', held.key]);
    const lost = store.transaction(
      ids.tenantId,
      async (tx) => {
        await tx.runs.create(run, 10);
        await tx.recordEffect(run.id);
      },
      held,
    );
    await expect(lost).rejects.toBeInstanceOf(HeldKeyLostError);
    expect(await count('runs WHERE id = ?', [run.id])).toBe(0);
  });

  it("is the tenant's: another tenant's rows and keys are refused, and its runs are not found", async () => {
    const run = queuedRun(ids);
    await store.transaction(ids.tenantId, (tx) => tx.runs.create(run, 10));
    const other = await new Tenants(store, systemClock).create('other');
    await expect(
      store.transaction(other.tenant_id, (tx) => tx.runs.create(queuedRun(ids), 10)),
    ).rejects.toThrow(/not of the unit's tenant/);
    expect(
      await store.transaction(other.tenant_id, (tx) => tx.runs.cancel(run.id, new Date().toISOString())),
    ).toBeUndefined();
    const held = await heldKey();
    await expect(store.transaction(other.tenant_id, async () => undefined, held)).rejects.toThrow(
      /not of the unit/,
    );
  });
});
