/**
 * Dated API versions (src/versions): a request at 2026-11-29 and one at 2026-12-01 each get their version's
 * shape of an event (the list, the stream, webhook deliveries), every answer is judged by the harness
 * against its own version's contract (the version it says in `Open-Tenant-Version`), a tenant's pin applies
 * without the header, and a version no request may ask for is 400 naming the supported ones.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textPdf, uploadPdf } from '../helpers/files.js';
import { type Harness, startHarness } from '../helpers/harness.js';
import { type Received, sseEvents, startReceiver } from '../helpers/receiver.js';

const OLD = '2026-11-29';
const NEW = '2026-12-01';
const at = (version: string) => ({ headers: { 'Open-Tenant-Version': version } });

let h: Harness;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let pdf: Uint8Array;

beforeAll(async () => {
  receiver = await startReceiver();
  h = await startHarness({
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    EVENT_POLL_MS: '50',
    EVENT_STREAM_HEARTBEAT_MS: '200',
  });
  pdf = await textPdf(1, 3);
});
afterAll(async () => {
  await h?.close();
  await receiver?.close();
});

/** A tenant made by the platform's admin API, pinned as asked (the newest when not). */
async function adminTenant(apiVersion?: string) {
  const created = await h.admin('POST', '/api/admin/tenants', {
    json: { name: `versions-${randomUUID()}`, ...(apiVersion ? { api_version: apiVersion } : {}) },
    headers: { 'Idempotency-Key': randomUUID() },
  });
  expect(created.status, created.text).toBe(201);
  return created.body.data as {
    tenant: { tenant_id: string; api_version: string };
    token: { token: string };
  };
}

/** The newest upload.completed event of the caller, at a version (or the caller's pin). */
async function lastUploadEvent(token: string, version?: string) {
  const listed = await h.request('GET', '/api/open/events?type=upload.completed&limit=1', {
    token,
    ...(version ? at(version) : {}),
  });
  expect(listed.status, listed.text).toBe(200);
  return { answer: listed, event: listed.body.data[0] as { id: string; data: Record<string, unknown> } };
}

// what is answered before anything is looked up, and the contracts themselves, run in the sqlite project only
// (vitest.config.ts)
const once = { tags: ['one-engine'] };

describe('the version of an answer', () => {
  it('is said by every answer: success, failure, unknown route, no token', async () => {
    const newest = await h.request('GET', '/api/open/runs');
    expect(newest.headers.get('open-tenant-version')).toBe(NEW);
    const old = await h.request('GET', '/api/open/runs', at(OLD));
    expect(old.status).toBe(200);
    expect(old.headers.get('open-tenant-version')).toBe(OLD);
    for (const answer of [
      await h.request('GET', '/api/open/runs', { token: null, ...at(OLD) }),
      await h.request('GET', '/api/open/no-such-route', at(OLD)),
      await h.request('GET', `/api/open/runs/${randomUUID()}`, at(OLD)),
      await h.request('GET', '/healthz', at(OLD)),
    ])
      expect(answer.headers.get('open-tenant-version'), `${answer.status}`).toBe(OLD);
  });

  it(
    'is 400 unsupported_version naming the supported ones for an unknown, future or malformed version',
    once,
    async () => {
      for (const asked of ['2020-01-01', '2099-12-31', 'latest', '2026-12-1', '']) {
        if (asked === '') continue;
        const refused = await h.request('GET', '/api/open/events', at(asked));
        expect(refused.status, asked).toBe(400);
        expect(refused.body).toMatchObject({ code: 400, error: 'unsupported_version', data: null });
        expect(refused.body.message).toContain(`${OLD}, ${NEW}`);
        expect(refused.headers.get('open-tenant-version')).toBe(NEW);
      }
      // before the body is looked at, and on every operation
      const post = await h.request('POST', '/api/open/runs', { json: {}, ...at('2099-01-01') });
      expect(post.status).toBe(400);
    },
  );

  it('lists the versions with their changelog, the newest, the pin and the answer’s own version', async () => {
    const listed = await h.request('GET', '/api/open/versions', at(OLD));
    expect(listed.status).toBe(200);
    expect(listed.body.data).toMatchObject({ newest: NEW, pinned: NEW, current: OLD });
    expect(
      listed.body.data.versions.map((v: { version: string; status: string }) => [v.version, v.status]),
    ).toEqual([
      [OLD, 'supported'],
      [NEW, 'newest'],
    ]);
    expect(listed.body.data.versions[1].changes[0]).toContain('data.object');
  });
});

describe('events at each version', () => {
  it('lists and streams an event with its object under data.object at 2026-12-01, as data at 2026-11-29', async () => {
    const open = async (version: string) => {
      const controller = new AbortController();
      const response = await fetch(`${h.url}/api/open/events/stream?type=upload.completed`, {
        headers: { authorization: `Bearer ${h.tenant.token}`, 'Open-Tenant-Version': version },
        signal: controller.signal,
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('open-tenant-version')).toBe(version);
      // the response is kept: undici cancels the body of a response that is garbage collected
      return { response, events: sseEvents(response.body!), close: () => controller.abort() };
    };
    const [oldStream, newStream] = [await open(OLD), await open(NEW)];
    const fileId = await uploadPdf(h, pdf);
    const first = async (stream: Awaited<ReturnType<typeof open>>) => {
      let data: string | undefined;
      for await (const message of stream.events) {
        data = message.data;
        break;
      }
      stream.close();
      if (data === undefined) throw new Error('the stream ended without an event');
      return JSON.parse(data) as { id: string; data: Record<string, unknown> };
    };
    const [oldStreamed, newStreamed] = [await first(oldStream), await first(newStream)];
    expect(newStreamed.data).toEqual({ object: expect.objectContaining({ file_id: fileId }) });
    expect(oldStreamed.data).toMatchObject({ file_id: fileId, status: 'completed' });
    expect(oldStreamed.data.object).toBeUndefined();
    expect(oldStreamed.id).toBe(newStreamed.id);

    // the list: each answer is judged against its own version's contract by the harness
    const newest = await lastUploadEvent(h.tenant.token, NEW);
    const old = await lastUploadEvent(h.tenant.token, OLD);
    expect(newest.event).toEqual(newStreamed);
    expect(old.event).toEqual(oldStreamed);
    expect(old.answer.headers.get('open-tenant-version')).toBe(OLD);
    // the same object in both: only where it sits changed
    expect(newest.event.data.object).toEqual(old.event.data);
  });

  it('follows the tenant’s pin without the header, and the platform moves the pin', async () => {
    const pinned = await adminTenant(OLD);
    expect(pinned.tenant.api_version).toBe(OLD);
    const token = pinned.token.token;
    await uploadPdf(h, pdf, { token });
    const before = await lastUploadEvent(token);
    expect(before.answer.headers.get('open-tenant-version')).toBe(OLD);
    expect(before.event.data.object).toBeUndefined();
    expect(before.event.data.status).toBe('completed');
    // the header wins over the pin
    expect((await lastUploadEvent(token, NEW)).event.data.object).toBeDefined();
    const versions = await h.request('GET', '/api/open/versions', { token });
    expect(versions.body.data).toMatchObject({ pinned: OLD, current: OLD });

    const moved = await h.admin('PATCH', `/api/admin/tenants/${pinned.tenant.tenant_id}`, {
      json: { api_version: NEW },
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.data.api_version).toBe(NEW);
    expect(
      (await h.admin('GET', `/api/admin/tenants/${pinned.tenant.tenant_id}`)).body.data.api_version,
    ).toBe(NEW);
    const after = await lastUploadEvent(token);
    expect(after.answer.headers.get('open-tenant-version')).toBe(NEW);
    expect(after.event.data.object).toEqual(before.event.data);

    // a tenant is made at the newest unless told; only a supported version is taken
    expect((await adminTenant()).tenant.api_version).toBe(NEW);
    const refused = await h.admin('PATCH', `/api/admin/tenants/${pinned.tenant.tenant_id}`, {
      json: { api_version: '2020-01-01' },
    });
    expect(refused.status).toBe(422);
  });
});

describe('webhook deliveries', () => {
  it('are rendered at the version their endpoint was created at', async () => {
    const tenant = await adminTenant();
    const token = tenant.token.token;
    const endpoints = [];
    for (const version of [OLD, NEW]) {
      const created = await h.request('POST', '/api/open/webhook_endpoints', {
        token,
        json: { url: receiver.url(`/hook-${version}`), events: ['upload.completed'] },
        ...at(version),
      });
      expect(created.status, created.text).toBe(201);
      expect(created.body.data.api_version).toBe(version);
      endpoints.push(created.body.data as { id: string; secret: string });
    }
    // the endpoint keeps its version whatever version it is read at
    const read = await h.request('GET', `/api/open/webhook_endpoints/${endpoints[0]!.id}`, { token });
    expect(read.body.data.api_version).toBe(OLD);

    const fileId = await uploadPdf(h, pdf, { token });
    const on = (version: string) => (all: Received[]) => all.filter((r) => r.path === `/hook-${version}`);
    await receiver.until((all) => on(OLD)(all).length >= 1 && on(NEW)(all).length >= 1);
    const [oldDelivery] = on(OLD)(receiver.received);
    const [newDelivery] = on(NEW)(receiver.received);
    // each signed over the bytes it carries
    const oldEvent = new Webhook(endpoints[0]!.secret).verify(oldDelivery!.body, oldDelivery!.headers) as {
      id: string;
      data: Record<string, unknown>;
    };
    const newEvent = new Webhook(endpoints[1]!.secret).verify(newDelivery!.body, newDelivery!.headers) as {
      id: string;
      data: { object: Record<string, unknown> };
    };
    expect(oldEvent.id).toBe(newEvent.id);
    expect(oldEvent.data).toMatchObject({ file_id: fileId, status: 'completed' });
    expect(oldEvent.data.object).toBeUndefined();
    expect(newEvent.data.object).toEqual(oldEvent.data);
  });
});

describe("each version's contract", once, () => {
  it('is served at /openapi.yaml?version=, the old one with the Event of its release', async () => {
    type Doc = { components: { schemas: Record<string, unknown> } };
    const fetchContract = async (query: string) => {
      const res = await fetch(`${h.url}/openapi.yaml${query}`);
      return { status: res.status, text: await res.text() };
    };
    const newest = load((await fetchContract('')).text) as Doc;
    const old = await fetchContract(`?version=${OLD}`);
    expect(old.status).toBe(200);
    const oldDoc = load(old.text) as Doc;
    const released = load(readFileSync('contract/versions/2026-11-29.yaml', 'utf8')) as Doc;
    expect(oldDoc.components.schemas.Event).toEqual(released.components.schemas.Event);
    expect(oldDoc.components.schemas.EventData).toBeUndefined();
    expect(newest.components.schemas.EventData).toBeDefined();
    expect(load((await fetchContract(`?version=${NEW}`)).text)).toEqual(newest);
    const unknown = await fetchContract('?version=2020-01-01');
    expect(unknown.status).toBe(400);
    expect(JSON.parse(unknown.text)).toMatchObject({ error: 'unsupported_version' });
  });
});
