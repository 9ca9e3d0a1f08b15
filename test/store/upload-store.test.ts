/**
 * The upload store's contract, run once per engine (vitest.config.ts): what UploadRepo in
 * src/store/types.ts promises, limits and leases included, through the repository alone.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventDataJson, FileRow, Store, UploadRow } from '../../src/store/types.js';
import { Tenants } from '../../src/tenants/service.js';
import { systemClock } from '../../src/kernel/time.js';
import { openTestStore, type TestStore } from '../helpers/engine.js';
import { inUnits } from '../helpers/store-rows.js';

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
const NOW = '2026-11-26T10:00:00.000Z';
const LATER = '2026-11-27T10:00:00.000Z';
const roomy = { count: 100, bytes: 1_000_000, now: NOW };

function upload(tenantId: string, over: Partial<UploadRow> = {}): UploadRow {
  return {
    id: randomUUID(),
    tenant_id: tenantId,
    file_name: 'a.pdf',
    size_bytes: 100,
    content_type: 'application/pdf',
    sha256: null,
    part_size: 100,
    part_count: 1,
    status: 'pending',
    file_id: null,
    created_at: NOW,
    expires_at: LATER,
    multipart_id: randomUUID(),
    ...over,
  };
}

function fileOf(row: UploadRow): FileRow {
  return {
    id: randomUUID(),
    tenant_id: row.tenant_id,
    upload_id: row.id,
    file_name: row.file_name,
    size_bytes: row.size_bytes,
    sha256: 'x',
    page_count: 1,
    pdf_version: '1.7',
    encrypted: false,
    storage_key: `files/${row.tenant_id}/${row.id}`,
    created_at: NOW,
  };
}
const event = JSON.stringify({ status: 'completed' }) as EventDataJson;

describe('pending limits', () => {
  it('refuses an upload past the count or the declared bytes; expired uploads no longer count', async () => {
    const tenantId = await newTenant();
    const limits = { count: 2, bytes: 250, now: NOW };
    expect(await inUnits(store).uploads.create(upload(tenantId), limits)).toBe('created');
    expect(await inUnits(store).uploads.create(upload(tenantId, { size_bytes: 200 }), limits)).toBe(
      'too_many_bytes',
    );
    expect(await inUnits(store).uploads.create(upload(tenantId), limits)).toBe('created');
    expect(await inUnits(store).uploads.create(upload(tenantId), limits)).toBe('too_many');
    // another tenant has limits of its own
    expect(await inUnits(store).uploads.create(upload(await newTenant()), limits)).toBe('created');
    // past the first two's expiry they do not count
    expect(
      await inUnits(store).uploads.create(upload(tenantId), { ...limits, now: '2026-11-28T00:00:00.000Z' }),
    ).toBe('created');
  });
});

describe('parts and completion', () => {
  it('stores a part only while pending; completes once, the second completion gets the winner', async () => {
    const tenantId = await newTenant();
    const row = upload(tenantId);
    await inUnits(store).uploads.create(row, roomy);
    const part = { upload_id: row.id, part_number: 1, size_bytes: 100, sha256: 'a', received_at: NOW };
    expect(await store.uploads.putPart(part)).toBe(true);
    expect(await store.uploads.putPart({ ...part, sha256: 'b' })).toBe(true);
    expect(await store.uploads.parts(row.id)).toEqual([{ ...part, sha256: 'b' }]);
    const first = fileOf(row);
    expect(await inUnits(store).uploads.complete(first, event)).toEqual({ file: first, created: true });
    const second = await inUnits(store).uploads.complete(fileOf(row), event);
    expect(second).toEqual({ file: first, created: false });
    expect(await store.uploads.get(tenantId, row.id)).toMatchObject({
      status: 'completed',
      file_id: first.id,
    });
    expect(await store.uploads.getFile(tenantId, first.id)).toEqual(first);
    expect(await store.uploads.putPart(part)).toBe(false);
    expect(await store.uploads.deletePending(tenantId, row.id)).toBe(false);
  });

  it("another tenant's upload and file are not found", async () => {
    const tenantId = await newTenant();
    const row = upload(tenantId);
    await inUnits(store).uploads.create(row, roomy);
    const file = fileOf(row);
    await inUnits(store).uploads.complete(file, event);
    const other = await newTenant();
    expect(await store.uploads.get(other, row.id)).toBeUndefined();
    expect(await store.uploads.getFile(other, file.id)).toBeUndefined();
    expect(await store.uploads.deletePending(other, row.id)).toBe(false);
  });

  it('deletes a pending upload with its parts', async () => {
    const tenantId = await newTenant();
    const row = upload(tenantId);
    await inUnits(store).uploads.create(row, roomy);
    await store.uploads.putPart({
      upload_id: row.id,
      part_number: 1,
      size_bytes: 100,
      sha256: 'a',
      received_at: NOW,
    });
    expect(await store.uploads.deletePending(tenantId, row.id)).toBe(true);
    expect(await store.uploads.get(tenantId, row.id)).toBeUndefined();
    expect(await store.uploads.parts(row.id)).toEqual([]);
  });
});

describe('listing', () => {
  it('lists unexpired pending uploads, soonest to expire first, by offset and by cursor', async () => {
    const tenantId = await newTenant();
    const rows = [3, 1, 2].map((day) => upload(tenantId, { expires_at: `2026-12-0${day}T00:00:00.000Z` }));
    for (const row of rows) await inUnits(store).uploads.create(row, roomy);
    await inUnits(store).uploads.create(upload(tenantId, { expires_at: '2026-11-26T09:00:00.000Z' }), {
      ...roomy,
      now: '2026-11-26T08:00:00.000Z',
    });
    const order = [rows[1]!, rows[2]!, rows[0]!].map((r) => r.id);
    const all = (await store.uploads.listPending(tenantId, NOW, 10, 0))!;
    expect(all.items.map((r) => r.id)).toEqual(order);
    expect(all).toMatchObject({ total: 3, lastId: null });
    const first = (await store.uploads.listPending(tenantId, NOW, 2, 0))!;
    expect(first.items.map((r) => r.id)).toEqual(order.slice(0, 2));
    expect(first.lastId).toBe(order[1]);
    const next = (await store.uploads.listPending(tenantId, NOW, 2, 0, first.lastId!))!;
    expect(next.items.map((r) => r.id)).toEqual(order.slice(2));
    expect(await store.uploads.listPending(tenantId, NOW, 2, 0, randomUUID())).toBeUndefined();
    expect((await store.uploads.listPending(await newTenant(), NOW, 10, 0))!.total).toBe(0);
  });

  it('finds the pending uploads that expired, oldest first', async () => {
    const tenantId = await newTenant();
    const old = upload(tenantId, { expires_at: '2000-01-02T00:00:00.000Z' });
    const older = upload(tenantId, { expires_at: '2000-01-01T00:00:00.000Z' });
    for (const row of [old, older])
      await inUnits(store).uploads.create(row, { ...roomy, now: '1999-12-31T00:00:00.000Z' });
    const expired = (await store.uploads.expired('2000-06-01T00:00:00.000Z', 1000)).filter(
      (r) => r.tenant_id === tenantId,
    );
    expect(expired.map((r) => r.id)).toEqual([older.id, old.id]);
  });
});

describe('leases', () => {
  it('one holder at a time; renewed by its holder; free again once released or lapsed; gone with no upload', async () => {
    const tenantId = await newTenant();
    const row = upload(tenantId);
    await inUnits(store).uploads.create(row, roomy);
    const until = (s: number) => new Date(Date.parse(NOW) + s * 1000).toISOString();
    expect(await store.uploads.lease(row.id, 'a', until(30), NOW)).toBe('held');
    expect(await store.uploads.lease(row.id, 'b', until(30), NOW)).toBe('busy');
    expect(await store.uploads.lease(row.id, 'a', until(60), until(10))).toBe('held');
    // a's renewed lease runs to 60 s: b waits past 30 s too
    expect(await store.uploads.lease(row.id, 'b', until(90), until(40))).toBe('busy');
    expect(await store.uploads.lease(row.id, 'b', until(90), until(61))).toBe('held');
    await store.uploads.release(row.id, 'a');
    expect(await store.uploads.lease(row.id, 'c', until(90), until(62))).toBe('busy');
    await store.uploads.release(row.id, 'b');
    expect(await store.uploads.lease(row.id, 'c', until(90), until(62))).toBe('held');
    expect(await store.uploads.lease(randomUUID(), 'a', until(30), NOW)).toBe('gone');
  });
});
