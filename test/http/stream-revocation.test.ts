import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendUpload, textPdf } from '../helpers/files.js';
import { type Harness, startHarness } from '../helpers/harness.js';
import { sseEvents } from '../helpers/receiver.js';

/**
 * An open event stream answers for its token as a request does: once the token is revoked, expires or its
 * tenant is suspended, the stream ends and sends nothing more. Each test opens a stream, sees an event
 * arrive, makes the change, writes another event at once, and checks that the stream ended without it.
 * With two servers (the haproxy project), the stream is on the second and the change and the event are
 * made on the first: the stream learns of them through the database.
 */
let h: Harness;
let pdf: Uint8Array;

beforeAll(async () => {
  h = await startHarness();
  pdf = await textPdf(1, 3);
});
afterAll(async () => {
  await h?.close();
});

/** How long a stream may take to end after the change: a second is the promise, the rest is a slow machine. */
const ENDS_WITHIN_MS = 10_000;

interface Watched {
  /** The upload ids of the upload.completed events the stream sent. */
  uploads: string[];
  /** Resolves when the stream ended (its body ended or was cut), with when. */
  ended: Promise<number>;
  close(): void;
}

/** A stream opened on the last server (the second one behind HAProxy), read in the background. */
async function watch(token: string): Promise<Watched> {
  const controller = new AbortController();
  const response = await fetch(`${h.servers.at(-1)!.url}/api/open/events/stream`, {
    headers: { authorization: `Bearer ${token}` },
    signal: controller.signal,
  });
  if (response.status !== 200)
    throw new Error(`the stream answered ${response.status}: ${await response.text()}`);
  const uploads: string[] = [];
  const ended = (async () => {
    try {
      for await (const message of sseEvents(response.body!)) {
        const event = JSON.parse(message.data) as { type: string; data: { object: { upload_id: string } } };
        if (event.type === 'upload.completed') uploads.push(event.data.object.upload_id);
      }
    } catch {
      // the connection was cut rather than ended: the stream ended all the same
    }
    return Date.now();
  })();
  return { uploads, ended, close: () => controller.abort() };
}

async function until(what: string, done: () => boolean, timeoutMs = ENDS_WITHIN_MS) {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A fresh tenant with two uploads ready to complete: one before the change, one after it. */
async function tenantWithUploads(name: string) {
  const created = await h.server.services.tenants.create(`${name}-${Date.now()}`);
  const before = await sendUpload(h, pdf, { token: created.token });
  const after = await sendUpload(h, pdf, { token: created.token });
  return { created, before: before.upload_id, after: after.upload_id };
}

/**
 * Opens a stream with `token`, sees `before`'s event arrive, makes the change, completes `after` on the
 * first server at once (its event is written whatever the token's state), and checks that the stream ended
 * within ENDS_WITHIN_MS without `after`'s event, which the tenant's log holds all the same.
 */
async function expectStreamEndsAt(
  tenantId: string,
  token: string,
  uploads: { before: string; after: string },
  change: () => Promise<void>,
) {
  const stream = await watch(token);
  try {
    await h.server.services.uploads.complete(tenantId, uploads.before);
    await until('the event before the change', () => stream.uploads.includes(uploads.before));
    await change();
    const changedAt = Date.now();
    await h.server.services.uploads.complete(tenantId, uploads.after);
    const endedAt = await Promise.race([
      stream.ended,
      new Promise<number>((resolve) => setTimeout(() => resolve(Number.NaN), ENDS_WITHIN_MS)),
    ]);
    expect(stream.uploads, 'the events the stream sent').toEqual([uploads.before]);
    expect(endedAt - changedAt, 'the stream ended after the change').toBeLessThan(ENDS_WITHIN_MS);
    const logged = await h.query<{ type: string }>('SELECT type FROM events WHERE tenant_id = ?', [tenantId]);
    expect(logged.filter((event) => event.type === 'upload.completed')).toHaveLength(2);
  } finally {
    stream.close();
  }
}

describe('an open event stream answers for its token', () => {
  it(
    "ends, sending nothing more, when its token is revoked; the tenant's other streams go on",
    { tags: ['two-processes'] },
    async () => {
      const { created, before, after } = await tenantWithUploads('revoked');
      const other = await h.server.services.tenants.issueToken(created.tenant_id, 'other');
      const going = await watch(other.token);
      await expectStreamEndsAt(created.tenant_id, created.token, { before, after }, async () => {
        const revoked = await h.admin(
          'POST',
          `/api/admin/tenants/${created.tenant_id}/tokens/${created.token_id}/revoke`,
        );
        expect(revoked.status, revoked.text).toBe(200);
      });
      // a stream of another token of the tenant's got both events and is still open
      await until('the other stream to get both events', () => going.uploads.length === 2);
      expect(going.uploads).toEqual([before, after]);
      const stillOpen = await Promise.race([
        going.ended,
        new Promise((r) => setTimeout(() => r('open'), 1500)),
      ]);
      expect(stillOpen).toBe('open');
      going.close();
      const again = await h.request('GET', '/api/open/events/stream', { token: created.token });
      expect(again.status).toBe(401);
      expect(again.body.error).toBe('invalid_token');
    },
  );

  it('ends, sending nothing more, when its tenant is suspended', { tags: ['two-processes'] }, async () => {
    const { created, before, after } = await tenantWithUploads('suspended');
    await expectStreamEndsAt(created.tenant_id, created.token, { before, after }, async () => {
      const suspended = await h.admin('POST', `/api/admin/tenants/${created.tenant_id}/suspend`);
      expect(suspended.status, suspended.text).toBe(200);
    });
    const again = await h.request('GET', '/api/open/events/stream', { token: created.token });
    expect(again.status).toBe(403);
    expect(again.body.error).toBe('tenant_suspended');
  });

  it('ends, sending nothing more, when its token expires', async () => {
    const { created, before, after } = await tenantWithUploads('expiring');
    // long enough to open a stream and see an event on a slow machine; the test waits it out
    const lifetimeMs = 4_000;
    const expiring = await h.server.services.tenants.issueToken(
      created.tenant_id,
      'expiring',
      lifetimeMs / 86_400_000,
    );
    await expectStreamEndsAt(created.tenant_id, expiring.token, { before, after }, async () => {
      const wait = Date.parse(expiring.expires_at!) - Date.now();
      expect(wait, "the stream and its first event took the token's whole lifetime").toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, wait + 50));
    });
    const again = await h.request('GET', '/api/open/events/stream', { token: expiring.token });
    expect(again.status).toBe(401);
    expect(again.body.error).toBe('token_expired');
  });
});
