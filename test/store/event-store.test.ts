/**
 * The outbox and webhook store contract, run once per engine: what src/store/types.ts promises for events,
 * endpoints and deliveries, checked against the engine's own tables.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AttemptRecord, ClaimedDelivery, Store, WebhookEndpointRow } from '../../src/store/types.js';
import { Tenants } from '../../src/tenants/service.js';
import { systemClock } from '../../src/kernel/time.js';
import { openTestStore, type TestStore } from '../helpers/engine.js';
import { completedUpload as completeThroughStore, queuedRun, inUnits } from '../helpers/store-rows.js';

let opened: TestStore;
let store: Store;
let tenantId: string;
let otherId: string;
let userId: string;

beforeEach(async () => {
  opened = await openTestStore();
  store = opened.store;
  const tenants = new Tenants(store, systemClock);
  const created = await tenants.create('t');
  tenantId = created.tenant_id;
  userId = created.user_id;
  otherId = (await tenants.create('o')).tenant_id;
});
afterEach(async () => {
  await opened.close();
});

/** One attempt recorded alone: its answer in `recordMany`. */
const record = async (
  delivery: ClaimedDelivery,
  workerId: string,
  attempt: AttemptRecord['attempt'],
  verdict: AttemptRecord['verdict'],
  disable: boolean,
  disableIfFailingBefore: string,
) =>
  (
    await store.webhooks.recordMany([
      { delivery, workerId, attempt, verdict, disable, disableIfFailingBefore },
    ])
  )[0];

const at = (offsetMs = 0) => new Date(Date.now() + offsetMs).toISOString();

function endpoint(tenant: string, overrides: Partial<WebhookEndpointRow> = {}): WebhookEndpointRow {
  return {
    id: randomUUID(),
    tenant_id: tenant,
    url: 'https://hooks.example/x',
    events: null,
    description: null,
    status: 'enabled',
    secret: 'whsec_AAAA',
    previous_secret: null,
    previous_secret_until: null,
    failing_since: null,
    api_version: '2026-11-29',
    created_at: at(),
    ...overrides,
  };
}

/** Completes an upload of `tenant`: one upload.completed event, written by the store itself. */
const completedUpload = async (tenant: string, createdAt = at()) =>
  (await completeThroughStore(store, tenant, createdAt)).fileId;

const newRun = (fileId: string) => queuedRun({ tenantId, userId, fileId });

const types = async (tenant: string) =>
  (await store.events.list(tenant, undefined, 100))!.items.map(
    (e) => (JSON.parse(e) as { type: string }).type,
  );

describe('the outbox', () => {
  it('writes one event per state change, in the same transaction, with the record as it was then', async () => {
    const fileId = await completedUpload(tenantId);
    const run = newRun(fileId);
    await inUnits(store).runs.create(run, 10);
    const claim = (await store.runs.claim('w', at(), at(60_000)))!;
    await store.runs.finish(
      claim.queueMessageId,
      'w',
      {
        ...claim.run,
        status: 'succeeded',
        points_consumed: 0,
        output_files: [],
        error: null,
        completed_at: at(),
      },
      null,
    );
    // a finish repeated, or by a worker without the lease, changes nothing and tells nothing
    await store.runs.finish(
      claim.queueMessageId,
      'w',
      {
        ...claim.run,
        status: 'failed',
        points_consumed: 0,
        output_files: [],
        error: 'x',
        completed_at: at(),
      },
      null,
    );
    expect(await types(tenantId)).toEqual([
      'run.succeeded',
      'run.started',
      'run.created',
      'upload.completed',
    ]);
    const [succeeded, started, created] = (await store.events.list(tenantId, undefined, 3))!.items.map(
      (e) => JSON.parse(e) as { data: { status: string; id: string } },
    );
    expect([created!.data.status, started!.data.status, succeeded!.data.status]).toEqual([
      'queued',
      'running',
      'succeeded',
    ]);
    expect(succeeded!.data.id).toBe(run.id);
    // a cancel of a finished run is a conflict: no event
    expect(await inUnits(store).runs.cancel(tenantId, run.id, at())).toBe('conflict');
    expect(await types(tenantId)).toHaveLength(4);
    expect(await types(otherId)).toEqual([]);
  });

  it('pages newest first by cursor and type, resumes after an id, and sweeps what is past retention', async () => {
    for (let i = 0; i < 5; i++) await completedUpload(tenantId, at(-10 * 86_400_000 + i));
    for (let i = 0; i < 3; i++) await completedUpload(tenantId);
    const first = (await store.events.list(tenantId, undefined, 3))!;
    expect(first.items).toHaveLength(3);
    expect(first.lastId).not.toBeNull();
    const rest = (await store.events.list(tenantId, 'upload.completed', 100, first.lastId!))!;
    expect(rest.items).toHaveLength(5);
    expect(rest.lastId).toBeNull();
    expect(await store.events.list(tenantId, undefined, 3, randomUUID())).toBeUndefined();
    expect(await store.events.list(otherId, undefined, 3, first.lastId!)).toBeUndefined();
    expect(await store.events.list(tenantId, 'run.failed', 3)).toEqual({ items: [], lastId: null });
    const oldest = JSON.parse(rest.items[4]!) as { id: string };
    const from = (await store.events.positionOf(tenantId, oldest.id))!;
    expect(await store.events.positionOf(otherId, oldest.id)).toBeUndefined();
    const after = await store.events.since([tenantId], from, 100);
    expect(after.events.map((e) => e.id)).toEqual(
      [...rest.items.slice(0, 4).reverse(), ...first.items.reverse()].map((e) => JSON.parse(e).id),
    );
    expect(after.upTo).toBe(await store.events.head());
    // a full page ends at its last event; the log's end is never before where the read started
    const paged = await store.events.since([tenantId], from, 2);
    expect(paged.upTo).toBe(paged.events[1]!.position);
    expect((await store.events.since([otherId], from, 100)).events).toEqual([]);
    expect((await store.events.since([otherId], from, 100)).upTo).toBe(await store.events.head());
    expect(await store.events.since([], from, 100)).toEqual({ events: [], upTo: from });

    const hook = endpoint(tenantId);
    await inUnits(store).webhooks.create(hook, 16);
    await completedUpload(tenantId, at(-10 * 86_400_000));
    // the sweep takes what is older than `before`, in batches, with the deliveries of those events
    expect((await store.events.sweep(at(-5 * 86_400_000), 4)).events).toBe(4);
    expect((await store.events.sweep(at(-5 * 86_400_000), 4)).events).toBe(2);
    expect(await store.events.sweep(at(-5 * 86_400_000), 4)).toEqual({ events: 0, attempts: 0 });
    expect(await types(tenantId)).toHaveLength(3);
    const [deliveries] = await opened.query<{ n: number }>('SELECT COUNT(*) AS n FROM webhook_deliveries');
    expect(Number(deliveries!.n)).toBe(0);
  });
});

describe('webhook endpoints and deliveries', () => {
  const claimAll = (worker: string, perEndpoint = 4, max = 100) =>
    store.webhooks.claim(worker, at(), at(60_000), perEndpoint, max);

  it('creates up to the limit, fans out only to enabled endpoints that take the type, per tenant', async () => {
    const every = endpoint(tenantId);
    const runsOnly = endpoint(tenantId, { events: ['run.succeeded'], created_at: at(1) });
    const theirs = endpoint(otherId);
    for (const e of [every, runsOnly, theirs])
      expect(await inUnits(store).webhooks.create(e, 2)).toBe('created');
    expect(await inUnits(store).webhooks.create(endpoint(tenantId), 2)).toBe('over_limit');
    expect((await store.webhooks.list(tenantId)).map((e) => e.id)).toEqual([every.id, runsOnly.id]);
    expect(await store.webhooks.get(otherId, every.id)).toBeUndefined();
    expect((await store.webhooks.get(tenantId, runsOnly.id))!.events).toEqual(['run.succeeded']);
    await completedUpload(tenantId);
    const claimed = await claimAll('w');
    expect(claimed.map((d) => d.endpoint.id)).toEqual([every.id]);
    expect(claimed[0]!.attempt).toBe(1);
    expect(JSON.parse(claimed[0]!.body)).toMatchObject({ type: 'upload.completed' });
    expect(await claimAll('w2')).toEqual([]);
    expect(await store.webhooks.delete(otherId, every.id)).toBe(false);
    expect(await store.webhooks.delete(tenantId, every.id)).toBe(true);
    expect(await store.webhooks.renewLease(every.id, claimed[0]!.eventId, 'w', at(60_000))).toBe(false);
  });

  it('claims fairly across tenants, never past perEndpoint, and records attempts only under the lease', async () => {
    const mine = endpoint(tenantId);
    const theirs = endpoint(otherId);
    await inUnits(store).webhooks.create(mine, 16);
    await inUnits(store).webhooks.create(theirs, 16);
    for (let i = 0; i < 4; i++) await completedUpload(tenantId);
    await completedUpload(otherId);
    const first = await claimAll('w', 2, 3);
    // two of the first tenant's at most, and the other tenant's one is among the first taken
    expect(first.filter((d) => d.endpoint.id === mine.id)).toHaveLength(2);
    expect(first.filter((d) => d.endpoint.id === theirs.id)).toHaveLength(1);
    expect(await claimAll('w', 2, 10)).toEqual([]);

    const attempt = (d: ClaimedDelivery, status: number | null) => ({
      event_id: d.eventId,
      attempt: d.attempt,
      attempted_at: at(),
      status_code: status,
      error: status === null ? 'ECONNREFUSED' : null,
      duration_ms: 5,
      response_body: '',
    });
    const [a, b] = first.filter((d) => d.endpoint.id === mine.id);
    expect(await record(a!, 'intruder', attempt(a!, 200), { outcome: 'succeeded' }, false, at(-1))).toBe(
      false,
    );
    expect(await record(a!, 'w', attempt(a!, 200), { outcome: 'succeeded' }, false, at(-1e9))).toBe(true);
    expect(await record(a!, 'w', attempt(a!, 200), { outcome: 'succeeded' }, false, at(-1e9))).toBe(false);
    // a failure to retry later: not due now, then due again as attempt 2
    const retryAt = at(200);
    expect(
      await record(b!, 'w', attempt(b!, 500), { outcome: 'retry', nextAttemptAt: retryAt }, false, at(-1e9)),
    ).toBe(true);
    expect((await store.webhooks.get(tenantId, mine.id))!.failing_since).not.toBeNull();
    const again = await store.webhooks.claim('w', at(300), at(60_000), 4, 10);
    expect(again.find((d) => d.eventId === b!.eventId)!.attempt).toBe(2);
    expect((await store.webhooks.attempts(tenantId, mine.id, 10)).map((x) => x.status_code)).toEqual([
      500, 200,
    ]);
    expect(await store.webhooks.attempts(otherId, mine.id, 10)).toEqual([]);
  });

  it('disables an endpoint failing since before the cut-off, or told to; enabling resumes it', async () => {
    const hook = endpoint(tenantId);
    await inUnits(store).webhooks.create(hook, 16);
    await completedUpload(tenantId);
    await completedUpload(tenantId);
    const [d1, d2] = await claimAll('w');
    const fail = (d: ClaimedDelivery, cutoff: string) =>
      record(
        d,
        'w',
        {
          event_id: d.eventId,
          attempt: 1,
          attempted_at: at(),
          status_code: 503,
          error: null,
          duration_ms: 1,
          response_body: '',
        },
        { outcome: 'retry', nextAttemptAt: at() },
        false,
        cutoff,
      );
    // failing since now, cut-off an hour ago: still enabled
    await fail(d1!, at(-3_600_000));
    expect((await store.webhooks.get(tenantId, hook.id))!.status).toBe('enabled');
    // failing since a moment ago, cut-off in the future: disabled
    await fail(d2!, at(3_600_000));
    expect((await store.webhooks.get(tenantId, hook.id))!.status).toBe('disabled');
    expect(await claimAll('w')).toEqual([]);
    const enabled = (await inUnits(store).webhooks.enable(tenantId, hook.id))!;
    expect(enabled).toMatchObject({ status: 'enabled', failing_since: null });
    expect(await claimAll('w')).toHaveLength(2);
    expect(await inUnits(store).webhooks.enable(otherId, hook.id)).toBeUndefined();
  });

  it("records a batch in its order: endpoints' failures and successes, leases lost, attempts past one statement", async () => {
    const hook = endpoint(tenantId);
    const other = endpoint(tenantId, { created_at: at(1) });
    await inUnits(store).webhooks.create(hook, 16);
    await inUnits(store).webhooks.create(other, 16);
    for (let i = 0; i < 70; i++) await completedUpload(tenantId);
    const claimed = await claimAll('w', 100, 1000);
    const ofHook = claimed.filter((d) => d.endpoint.id === hook.id);
    const ofOther = claimed.filter((d) => d.endpoint.id === other.id);
    expect([ofHook.length, ofOther.length]).toEqual([70, 70]);
    const entry = (
      d: ClaimedDelivery,
      status: number,
      workerId = 'w',
      cutoff = at(-3_600_000),
    ): AttemptRecord => ({
      delivery: d,
      workerId,
      attempt: {
        event_id: d.eventId,
        attempt: d.attempt,
        attempted_at: at(),
        status_code: status,
        error: null,
        duration_ms: 1,
        response_body: String(status),
      },
      verdict: status === 204 ? { outcome: 'succeeded' } : { outcome: 'retry', nextAttemptAt: at(60_000) },
      disable: false,
      disableIfFailingBefore: cutoff,
    });
    // hook: successes, a failure, successes again (it ends cleared); other: a success, then failures, one of
    // them past its cut-off (it ends failing and disabled); an intruder's attempt in the middle changes nothing
    const batch = [
      ...ofHook.slice(0, 30).map((d) => entry(d, 204)),
      entry(ofHook[30]!, 503),
      ...ofHook.slice(31, 69).map((d) => entry(d, 204)),
      entry(ofHook[69]!, 204, 'intruder'),
      entry(ofOther[0]!, 204),
      entry(ofOther[1]!, 503),
      entry(ofOther[2]!, 204, 'intruder'),
      entry(ofOther[3]!, 503, 'w', at(3_600_000)),
    ];
    const recorded = await store.webhooks.recordMany(batch);
    expect(recorded.filter((r) => !r)).toHaveLength(2);
    expect(recorded[69]).toBe(false);
    expect(recorded[72]).toBe(false);
    expect(await store.webhooks.get(tenantId, hook.id)).toMatchObject({
      status: 'enabled',
      failing_since: null,
    });
    expect(await store.webhooks.get(tenantId, other.id)).toMatchObject({ status: 'disabled' });
    expect((await store.webhooks.get(tenantId, other.id))!.failing_since).not.toBeNull();
    // every attempt kept, in the batch's order (newest first), the intruders' not at all
    const hooks = await store.webhooks.attempts(tenantId, hook.id, 100);
    expect(hooks.map((a) => a.event_id).reverse()).toEqual(ofHook.slice(0, 69).map((d) => d.eventId));
    expect(hooks.map((a) => a.response_body).reverse()).toEqual(
      batch.slice(0, 69).map((b) => b.attempt.response_body),
    );
    expect((await store.webhooks.attempts(tenantId, other.id, 100)).map((a) => a.event_id)).toEqual([
      ofOther[3]!.eventId,
      ofOther[1]!.eventId,
      ofOther[0]!.eventId,
    ]);
    // the intruder's deliveries are still the lease holder's to record
    expect(await store.webhooks.recordMany([entry(ofHook[69]!, 204)])).toEqual([true]);
    expect((await store.webhooks.get(tenantId, hook.id))!.failing_since).toBeNull();
  });

  it('rotates a secret, keeping the old one and when it stops signing', async () => {
    const hook = endpoint(tenantId, { secret: 'whsec_old' });
    await inUnits(store).webhooks.create(hook, 16);
    const until = at(86_400_000);
    const rotated = (await inUnits(store).webhooks.rotate(tenantId, hook.id, 'whsec_new', until))!;
    expect(rotated).toMatchObject({
      secret: 'whsec_new',
      previous_secret: 'whsec_old',
      previous_secret_until: until,
    });
    expect(await inUnits(store).webhooks.rotate(otherId, hook.id, 'whsec_x', until)).toBeUndefined();
  });
});
