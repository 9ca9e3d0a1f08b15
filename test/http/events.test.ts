import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textPdf, uploadPdf, waitForRun } from '../helpers/files.js';
import { type Harness, startHarness } from '../helpers/harness.js';
import { startDnsServer } from '../helpers/dns-server.js';
import { type Received, sseEvents, startReceiver } from '../helpers/receiver.js';

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** Webhook settings as shipped: https only, no private networks. */
let strict: Harness;
/** Loopback receivers allowed, retries in milliseconds. */
let open: Harness;
let receiver: Receiver;
let pdf: Uint8Array;

const answers = new Map<
  string,
  (nth: number) => { status: number; headers?: Record<string, string> } | 'hang'
>();

beforeAll(async () => {
  receiver = await startReceiver((received, nth) => answers.get(received.path)?.(nth) ?? { status: 200 });
  [strict, open] = await Promise.all([
    startHarness(),
    startHarness({
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_RETRY_SCHEDULE: '200ms,300ms,400ms',
      WEBHOOK_TIMEOUT_MS: '3000',
      WEBHOOK_CONCURRENCY: '4',
      WEBHOOK_ENDPOINT_CONCURRENCY: '1',
      EVENT_POLL_MS: '50',
      EVENT_STREAM_HEARTBEAT_MS: '200',
      MAX_STREAMS_PER_TENANT: '2',
      MAX_WEBHOOK_ENDPOINTS_PER_TENANT: '6',
      WEBHOOK_SECRET_OVERLAP_SECONDS: '1',
    }),
  ]);
  pdf = await textPdf(1, 3);
});
afterAll(async () => {
  await Promise.all([strict?.close(), open?.close()]);
  await receiver?.close();
});

let paths = 0;
/** A fresh receiver path, so that each test reads only its own deliveries. */
const newPath = () => `/hook-${++paths}`;

async function addEndpoint(h: Harness, path: string, events?: string[], token?: string) {
  const created = await h.request('POST', '/api/open/webhook_endpoints', {
    json: { url: receiver.url(path), ...(events ? { events } : {}) },
    token,
  });
  expect(created.status, created.text).toBe(201);
  return created.body.data as { id: string; secret: string; url: string; events: string[]; status: string };
}

async function runOnce(h: Harness, token?: string) {
  const fileId = await uploadPdf(h, pdf, { token });
  const created = await h.request('POST', '/api/open/runs', { json: { file_id: fileId }, token });
  expect(created.status, created.text).toBe(201);
  return waitForRun(h, created.body.data.id, token);
}

const on = (path: string) => (all: Received[]) => all.filter((r) => r.path === path);

// what no engine takes part in (a URL refused before anything is stored, its name resolved) runs in the
// sqlite project only (vitest.config.ts)
const once = { tags: ['one-engine'] };

describe('webhook endpoints', () => {
  it('registers an endpoint with a Standard Webhooks secret shown once, and lists, gets and deletes it', async () => {
    const endpoint = await addEndpoint(open, newPath(), ['run.succeeded', 'run.failed']);
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    expect(Buffer.from(endpoint.secret.slice(6), 'base64').length).toBe(32);
    expect(endpoint.events).toEqual(['run.succeeded', 'run.failed']);
    expect(endpoint.status).toBe('enabled');
    const got = await open.request('GET', `/api/open/webhook_endpoints/${endpoint.id}`);
    expect(got.status).toBe(200);
    expect(got.body.data.secret).toBeUndefined();
    const listed = await open.request('GET', '/api/open/webhook_endpoints');
    expect(listed.body.data.map((e: { id: string }) => e.id)).toContain(endpoint.id);
    const every = await addEndpoint(open, newPath());
    expect(every.events).toEqual([
      'run.created',
      'run.requeued',
      'run.started',
      'run.succeeded',
      'run.failed',
      'run.cancelled',
      'upload.completed',
    ]);
    const deleted = await open.request('DELETE', `/api/open/webhook_endpoints/${endpoint.id}`);
    expect(deleted.body.data).toEqual({ id: endpoint.id, deleted: true });
    expect((await open.request('GET', `/api/open/webhook_endpoints/${endpoint.id}`)).status).toBe(404);
    expect((await open.request('DELETE', `/api/open/webhook_endpoints/${endpoint.id}`)).status).toBe(404);
    await open.request('DELETE', `/api/open/webhook_endpoints/${every.id}`);
  });

  it("is the tenant's own: another tenant's endpoint is not found on every operation", async () => {
    const endpoint = await addEndpoint(open, newPath());
    const theirs = open.other.token;
    for (const [method, route] of [
      ['GET', `/api/open/webhook_endpoints/${endpoint.id}`],
      ['DELETE', `/api/open/webhook_endpoints/${endpoint.id}`],
      ['POST', `/api/open/webhook_endpoints/${endpoint.id}/rotate_secret`],
      ['POST', `/api/open/webhook_endpoints/${endpoint.id}/enable`],
      ['GET', `/api/open/webhook_endpoints/${endpoint.id}/deliveries`],
    ] as const) {
      const answer = await open.request(method, route, { token: theirs });
      expect(answer.status, `${method} ${route}`).toBe(404);
    }
    expect((await open.request('GET', '/api/open/webhook_endpoints', { token: theirs })).body.data).toEqual(
      [],
    );
    expect((await open.request('GET', `/api/open/webhook_endpoints/${endpoint.id}`)).status).toBe(200);
    await open.request('DELETE', `/api/open/webhook_endpoints/${endpoint.id}`);
  });

  it('refuses bad requests with detail[], and a tenant past MAX_WEBHOOK_ENDPOINTS_PER_TENANT with 409', async () => {
    const bad = await open.request('POST', '/api/open/webhook_endpoints', {
      json: { url: '', events: ['run.exploded'], extra: 1 },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail.map((d: { loc: string[] }) => d.loc.join('.')).sort()).toEqual(
      ['body.events.0', 'body.extra', 'body.url'].sort(),
    );
    expect((await open.request('POST', '/api/open/webhook_endpoints', { json: { events: [] } })).status).toBe(
      422,
    );
    const token = (await open.server.services.tenants.create(`limits-${Date.now()}`)).token;
    for (let i = 0; i < 6; i++) await addEndpoint(open, newPath(), undefined, token);
    const over = await open.request('POST', '/api/open/webhook_endpoints', {
      json: { url: receiver.url(newPath()) },
      token,
    });
    expect(over.status).toBe(409);
    expect(over.body.error).toBe('too_many_webhook_endpoints');
    expect((await open.request('GET', '/api/open/webhook_endpoints', { token })).body.data).toHaveLength(6);
  });

  it(
    'refuses, with the settings as shipped, every URL that is not https to a public address',
    once,
    async () => {
      const refused = [
        'http://example.com/hook',
        'ftp://example.com/hook',
        'not a url',
        'https://user:pass@example.com/hook',
        'https://localhost/hook',
        'https://127.0.0.1/hook',
        'https://127.1.2.3:8443/hook',
        'https://[::1]/hook',
        'https://[::ffff:127.0.0.1]/hook',
        'https://[::ffff:7f00:1]/hook',
        'https://[::7f00:1]/hook',
        'https://[::127.0.0.1]/hook',
        'https://[2002:7f00:1::1]/hook',
        'https://[2001:db8::1]/hook',
        'https://10.0.0.1/hook',
        'https://172.16.5.4/hook',
        'https://192.168.1.1/hook',
        'https://169.254.169.254/latest/meta-data',
        'https://100.64.0.1/hook',
        'https://224.0.0.1/hook',
        'https://0.0.0.0/hook',
        'https://[::]/hook',
        'https://[fe80::1]/hook',
        'https://[fc00::1]/hook',
        'https://255.255.255.255/hook',
        'https://2130706433/hook',
        'https://0x7f.1/hook',
      ];
      for (const url of refused) {
        const answer = await strict.request('POST', '/api/open/webhook_endpoints', { json: { url } });
        expect(answer.status, url).toBe(422);
        expect(answer.body.error, url).toBe('webhook_url_not_allowed');
        expect(answer.body.detail[0].loc, url).toEqual(['body', 'url']);
      }
      expect((await strict.request('GET', '/api/open/webhook_endpoints')).body.data).toEqual([]);
    },
  );

  it(
    'resolves a name within WEBHOOK_TIMEOUT_MS on WEBHOOK_DNS_SERVERS, and tells nothing of the answer',
    once,
    async () => {
      const silent = await startDnsServer({}, true);
      const answering = await startDnsServer({ 'inside.example': ['10.0.0.7'] });
      const hosts = await Promise.all(
        [silent, answering].map((dns) =>
          startHarness({ WEBHOOK_TIMEOUT_MS: '700', WEBHOOK_DNS_SERVERS: dns.server }),
        ),
      );
      try {
        const started = performance.now();
        const slow = await hosts[0]!.request('POST', '/api/open/webhook_endpoints', {
          json: { url: 'https://hooks.example/h' },
        });
        const took = performance.now() - started;
        expect(slow.status).toBe(422);
        expect(took).toBeGreaterThanOrEqual(650);
        expect(took).toBeLessThan(3000);
        expect(silent.questions()).toBeGreaterThan(0);
        const inside = await hosts[1]!.request('POST', '/api/open/webhook_endpoints', {
          json: { url: 'https://inside.example/h' },
        });
        expect(inside.status).toBe(422);
        // the same words for a name that does not answer and one that points inside
        expect(inside.body.detail[0].msg).toBe(slow.body.detail[0].msg);
        expect(inside.text).not.toContain('10.0.0.7');
      } finally {
        await Promise.all(hosts.map((h) => h.close()));
        await Promise.all([silent.close(), answering.close()]);
      }
    },
  );
});

describe('deliveries', () => {
  it(
    'POSTs each event signed as Standard Webhooks says, verified by the standardwebhooks package',
    { tags: ['two-processes'] },
    async () => {
      const path = newPath();
      const endpoint = await addEndpoint(open, path);
      const run = await runOnce(open);
      const got = on(path)(
        await receiver.until((all) => on(path)(all).some((r) => JSON.parse(r.body).type === 'run.succeeded')),
      );
      const verifier = new Webhook(endpoint.secret);
      const types = got.map((r) => {
        expect(r.headers['content-type']).toBe('application/json');
        const event = verifier.verify(r.body, r.headers) as {
          id: string;
          type: string;
          data: { object: { id: string } };
        };
        expect(r.headers['webhook-id']).toBe(event.id);
        expect(Math.abs(Number(r.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
        return event;
      });
      const forRun = types.filter((e) => e.data.object.id === run.id);
      expect(forRun.map((e) => e.type)).toEqual(
        expect.arrayContaining(['run.created', 'run.started', 'run.succeeded']),
      );
      const succeeded = forRun.find((e) => e.type === 'run.succeeded')!;
      // the event's object is the run as GET answers it then
      const now = await open.request('GET', `/api/open/runs/${run.id}`);
      expect(succeeded.data).toEqual({ object: now.body.data });
      // a signature made with another secret is refused by the same judge
      const forged = new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`);
      expect(() => forged.verify(got[0]!.body, got[0]!.headers)).toThrow();
      await open.request('DELETE', `/api/open/webhook_endpoints/${endpoint.id}`);
    },
  );

  it('delivers only the types an endpoint takes, and upload.completed with the upload', async () => {
    const path = newPath();
    const endpoint = await addEndpoint(open, path, ['upload.completed']);
    const fileId = await uploadPdf(open, pdf);
    const [delivery] = on(path)(await receiver.until((all) => on(path)(all).length >= 1));
    const event = new Webhook(endpoint.secret).verify(delivery!.body, delivery!.headers) as {
      type: string;
      data: { object: { file_id: string; status: string } };
    };
    expect(event.type).toBe('upload.completed');
    expect(event.data.object).toMatchObject({ file_id: fileId, status: 'completed' });
    await runOnce(open);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(on(path)(receiver.received).every((r) => JSON.parse(r.body).type === 'upload.completed')).toBe(
      true,
    );
    await open.request('DELETE', `/api/open/webhook_endpoints/${endpoint.id}`);
  });

  it('retries a failed delivery with the same webhook-id and body, and logs every attempt', async () => {
    const path = newPath();
    answers.set(path, (nth) => (nth <= 2 ? { status: 500 } : { status: 204 }));
    const endpoint = await addEndpoint(open, path, ['upload.completed']);
    await uploadPdf(open, pdf);
    const got = on(path)(await receiver.until((all) => on(path)(all).length >= 3));
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(new Set(got.map((r) => r.body)).size).toBe(1);
    // the schedule's first two waits lie between the attempts
    expect(got[1]!.at - got[0]!.at).toBeGreaterThanOrEqual(150);
    const log = await waitForAttempts(endpoint.id, 3);
    expect(log.map((a) => [a.attempt, a.status_code])).toEqual([
      [3, 204],
      [2, 500],
      [1, 500],
    ]);
    expect(log[0]!.event_id).toBe(got[0]!.headers['webhook-id']);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(on(path)(receiver.received)).toHaveLength(3);
    await open.request('DELETE', `/api/open/webhook_endpoints/${endpoint.id}`);
  });

  it('disables an endpoint failing for WEBHOOK_DISABLE_AFTER_SECONDS with no success, not sooner', async () => {
    const h = await startHarness({
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_RETRY_SCHEDULE: '400ms,400ms,400ms,400ms,400ms,400ms,400ms,400ms',
      WEBHOOK_DISABLE_AFTER_SECONDS: '1',
      EVENT_POLL_MS: '50',
    });
    try {
      const path = newPath();
      answers.set(path, () => ({ status: 500 }));
      const endpoint = await addEndpoint(h, path, ['upload.completed']);
      await uploadPdf(h, pdf);
      const status = async () =>
        (await h.request('GET', `/api/open/webhook_endpoints/${endpoint.id}`)).body.data.status as string;
      await receiver.until((all) => on(path)(all).length >= 2);
      // failing for about 0.4 s: still enabled
      expect(await status()).toBe('enabled');
      const deadline = Date.now() + 10_000;
      while ((await status()) !== 'disabled' && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await status()).toBe('disabled');
      const got = on(path)(receiver.received);
      // disabled by the first attempt failing a second after the first failure, and nothing sent after it
      expect(got.at(-1)!.at - got[0]!.at).toBeGreaterThanOrEqual(1000);
      expect(got.length).toBeLessThan(8);
      await new Promise((resolve) => setTimeout(resolve, 900));
      expect(on(path)(receiver.received)).toHaveLength(got.length);
    } finally {
      await h.close();
    }
  });

  it('gives up after the last wait of the schedule, and a 410 disables the endpoint until enabled', async () => {
    const failing = newPath();
    answers.set(failing, () => ({ status: 503, body: 'x'.repeat(10_000) }) as never);
    const endpoint = await addEndpoint(open, failing, ['upload.completed']);
    await uploadPdf(open, pdf);
    const log = await waitForAttempts(endpoint.id, 4);
    expect(log.map((a) => a.attempt)).toEqual([4, 3, 2, 1]);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(on(failing)(receiver.received)).toHaveLength(4);

    const gone = newPath();
    answers.set(gone, () => ({ status: 410 }));
    const leaving = await addEndpoint(open, gone, ['upload.completed']);
    await uploadPdf(open, pdf);
    await waitForAttempts(leaving.id, 1);
    const disabled = await open.request('GET', `/api/open/webhook_endpoints/${leaving.id}`);
    expect(disabled.body.data.status).toBe('disabled');
    await uploadPdf(open, pdf);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(on(gone)(receiver.received)).toHaveLength(1);
    answers.set(gone, () => ({ status: 200 }));
    const enabled = await open.request('POST', `/api/open/webhook_endpoints/${leaving.id}/enable`);
    expect(enabled.body.data.status).toBe('enabled');
    await open.request('DELETE', `/api/open/webhook_endpoints/${endpoint.id}`);
    await open.request('DELETE', `/api/open/webhook_endpoints/${leaving.id}`);
  });

  it('keeps at most 4 KiB of an answer, and says why there was none', async () => {
    const path = newPath();
    answers.set(path, () => ({ status: 200, body: 'y'.repeat(10_000) }) as never);
    const endpoint = await addEndpoint(open, path, ['upload.completed']);
    await uploadPdf(open, pdf);
    const [attempt] = await waitForAttempts(endpoint.id, 1);
    expect(attempt!.status_code).toBe(200);
    expect(attempt!.response_body).toBe('y'.repeat(4096));
    await open.request('DELETE', `/api/open/webhook_endpoints/${endpoint.id}`);

    // a port nobody listens on: a connection error, retried
    const closed = await open.request('POST', '/api/open/webhook_endpoints', {
      json: { url: 'http://127.0.0.1:9/refused', events: ['upload.completed'] },
    });
    await uploadPdf(open, pdf);
    const [refused] = await waitForAttempts(closed.body.data.id, 1);
    expect(refused!.status_code).toBeNull();
    expect(refused!.error).toMatch(/ECONNREFUSED/);
    await open.request('DELETE', `/api/open/webhook_endpoints/${closed.body.data.id}`);
  });

  it('signs with the old and the new secret during WEBHOOK_SECRET_OVERLAP_SECONDS after a rotation, then the new one alone', async () => {
    const path = newPath();
    const endpoint = await addEndpoint(open, path, ['upload.completed']);
    const rotated = await open.request('POST', `/api/open/webhook_endpoints/${endpoint.id}/rotate_secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.secret).not.toBe(endpoint.secret);
    await uploadPdf(open, pdf);
    const [during] = on(path)(await receiver.until((all) => on(path)(all).length >= 1));
    expect(during!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(() => new Webhook(endpoint.secret).verify(during!.body, during!.headers)).not.toThrow();
    expect(() => new Webhook(rotated.body.data.secret).verify(during!.body, during!.headers)).not.toThrow();
    // the overlap (1 s here) is over: the old secret no longer signs
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await uploadPdf(open, pdf);
    const after = on(path)(await receiver.until((all) => on(path)(all).length >= 2))[1]!;
    expect(after.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(() => new Webhook(rotated.body.data.secret).verify(after.body, after.headers)).not.toThrow();
    expect(() => new Webhook(endpoint.secret).verify(after.body, after.headers)).toThrow();
    await open.request('DELETE', `/api/open/webhook_endpoints/${endpoint.id}`);
  });

  it("does not let one tenant's hanging receiver delay another tenant's deliveries", async () => {
    const stuck = newPath();
    answers.set(stuck, () => 'hang');
    const fine = newPath();
    const hanging = await addEndpoint(open, stuck, ['upload.completed']);
    const theirs = await addEndpoint(open, fine, ['upload.completed'], open.other.token);
    // three deliveries for the hanging endpoint: one in flight (WEBHOOK_ENDPOINT_CONCURRENCY=1), two waiting
    for (let i = 0; i < 3; i++) await uploadPdf(open, pdf);
    await receiver.until((all) => on(stuck)(all).length >= 1);
    const sent = Date.now();
    await uploadPdf(open, pdf, { token: open.other.token });
    const [arrived] = on(fine)(await receiver.until((all) => on(fine)(all).length >= 1, 2_500));
    expect(arrived!.at - sent).toBeLessThan(2_000);
    expect(on(stuck)(receiver.received)).toHaveLength(1);
    // WEBHOOK_TIMEOUT_MS (3 s here) ends the hanging attempt as a failure, and the next one goes out
    const [timedOut] = await waitForAttempts(hanging.id, 1);
    expect(timedOut).toMatchObject({ status_code: null, error: 'No answer within 3000 ms' });
    expect(timedOut!.duration_ms).toBeGreaterThanOrEqual(2900);
    await open.request('DELETE', `/api/open/webhook_endpoints/${hanging.id}`);
    await open.request('DELETE', `/api/open/webhook_endpoints/${theirs.id}`, { token: open.other.token });
  });
});

async function waitForAttempts(endpointId: string, n: number, token?: string) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const log = await open.request('GET', `/api/open/webhook_endpoints/${endpointId}/deliveries?limit=100`, {
      token,
    });
    expect(log.status).toBe(200);
    if (log.body.data.length >= n) {
      return log.body.data as {
        event_id: string;
        attempt: number;
        status_code: number | null;
        error: string | null;
        duration_ms: number;
        response_body: string;
      }[];
    }
    if (Date.now() > deadline) throw new Error(`only ${log.body.data.length} attempts`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the events list', () => {
  it('lists events newest first with a cursor and a type filter, per tenant', async () => {
    const run = await runOnce(open);
    const all = await open.request('GET', '/api/open/events?limit=100');
    expect(all.status).toBe(200);
    const mine = all.body.data.filter(
      (e: { data: { object: { id: string } } }) => e.data.object.id === run.id,
    );
    expect(mine.map((e: { type: string }) => e.type)).toEqual([
      'run.succeeded',
      'run.started',
      'run.created',
    ]);
    const firstPage = await open.request('GET', '/api/open/events?limit=2');
    expect(firstPage.body.data).toHaveLength(2);
    expect(firstPage.body.next_cursor).toBe(firstPage.body.data[1].id);
    const second = await open.request(
      'GET',
      `/api/open/events?limit=2&starting_after=${firstPage.body.next_cursor}`,
    );
    expect(second.body.data[0].id).toBe(all.body.data[2].id);
    const typed = await open.request('GET', '/api/open/events?type=run.started&limit=100');
    expect(typed.body.data.every((e: { type: string }) => e.type === 'run.started')).toBe(true);
    expect(
      typed.body.data.some((e: { data: { object: { id: string } } }) => e.data.object.id === run.id),
    ).toBe(true);
    const theirs = await open.request('GET', '/api/open/events?limit=100', { token: open.other.token });
    expect(
      theirs.body.data.some((e: { data: { object: { id: string } } }) => e.data.object.id === run.id),
    ).toBe(false);
    const foreignCursor = await open.request('GET', `/api/open/events?starting_after=${mine[0].id}`, {
      token: open.other.token,
    });
    expect(foreignCursor.status).toBe(404);
    expect((await open.request('GET', '/api/open/events?type=run.exploded')).status).toBe(422);
    expect((await open.request('GET', '/api/open/events?limit=101')).status).toBe(422);
  });
});

describe('the live stream', () => {
  const openStream = async (headers: Record<string, string> = {}, token = open.tenant.token, query = '') => {
    const controller = new AbortController();
    const response = await fetch(`${open.url}/api/open/events/stream${query}`, {
      headers: { authorization: `Bearer ${token}`, ...headers },
      signal: controller.signal,
    });
    return { response, close: () => controller.abort() };
  };

  it(
    'streams live events, resumes after Last-Event-ID, and keeps tenants apart',
    { tags: ['two-processes'] },
    async () => {
      const mine = await openStream();
      expect(mine.response.status).toBe(200);
      expect(mine.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const theirs = await openStream({}, open.other.token);
      const run = await runOnce(open);
      const seen: { id?: string; event?: string; data: string }[] = [];
      for await (const message of sseEvents(mine.response.body!)) {
        seen.push(message);
        if (message.event === 'run.succeeded' && JSON.parse(message.data).data.object.id === run.id) break;
      }
      mine.close();
      const forRun = seen.filter((m) => JSON.parse(m.data).data.object.id === run.id);
      expect(forRun.map((m) => m.event)).toEqual(['run.created', 'run.started', 'run.succeeded']);
      for (const m of forRun) expect(JSON.parse(m.data).id).toBe(m.id);

      // resuming after the first event gives the two that followed it, then live ones
      const resumed = await openStream({ 'Last-Event-ID': forRun[0]!.id! });
      const replay: string[] = [];
      for await (const message of sseEvents(resumed.response.body!)) {
        replay.push(message.id!);
        if (replay.length === 2) break;
      }
      resumed.close();
      expect(replay).toEqual([forRun[1]!.id, forRun[2]!.id]);

      // the other tenant's stream saw none of it: it gets its own event first
      await uploadPdf(open, pdf, { token: open.other.token });
      for await (const message of sseEvents(theirs.response.body!)) {
        expect(JSON.parse(message.data).data.object.id).not.toBe(run.id);
        expect(message.event).toBe('upload.completed');
        break;
      }
      theirs.close();
    },
  );

  it('shows operators deliveries by outcome, the backlog, and the open streams with their unread bytes', async () => {
    const metric = async (name: string) => {
      const text = await open.server.services.metrics.registry.metrics();
      return text
        .split('\n')
        .filter((line) => line.startsWith(name))
        .map((line) => line.trim());
    };
    const stream = await openStream();
    const path = newPath();
    await addEndpoint(open, path, ['upload.completed']);
    await uploadPdf(open, pdf);
    await receiver.until((all) => on(path)(all).length >= 1);
    const value = (lines: string[], match: string) =>
      Number(
        lines
          .find((line) => line.includes(match))
          ?.split(' ')
          .at(-1),
      );
    expect(value(await metric('ota_event_streams_open'), 'ota_event_streams_open')).toBeGreaterThanOrEqual(1);
    expect(value(await metric('ota_event_stream_unread_bytes'), 'of="sum"')).toBeGreaterThanOrEqual(0);
    expect(value(await metric('ota_event_stream_reader_age_seconds'), 'seconds')).toBeLessThan(5);
    const deadline = Date.now() + 10_000;
    while (
      !(value(await metric('ota_webhook_attempt_duration_seconds_count'), 'outcome="succeeded"') >= 1) &&
      Date.now() < deadline
    )
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(
      value(await metric('ota_webhook_attempt_duration_seconds_count'), 'outcome="succeeded"'),
    ).toBeGreaterThanOrEqual(1);
    for (const name of [
      'ota_webhook_deliveries_pending',
      'ota_webhook_deliveries_due',
      'ota_webhook_oldest_due_age_seconds',
    ])
      expect(value(await metric(name), name), name).toBeGreaterThanOrEqual(0);
    stream.close();
  });

  it(
    'allows MAX_STREAMS_PER_TENANT streams per tenant, and refuses bad resume ids',
    { tags: ['two-processes'] },
    async () => {
      const token = (await open.server.services.tenants.create(`streams-${Date.now()}`)).token;
      const first = await openStream({}, token);
      const second = await openStream({}, token);
      // behind HAProxy the third stream may reach the other server: the limit is per server process
      if (open.servers.length === 1) {
        const third = await open.request('GET', '/api/open/events/stream', { token });
        expect(third.status).toBe(429);
        expect(third.body.error).toBe('too_many_streams');
        expect(third.headers.get('retry-after')).toBe('5');
      }
      first.close();
      second.close();
      const bad = await open.request('GET', '/api/open/events/stream', {
        token,
        headers: { 'Last-Event-ID': 'not-an-id' },
      });
      expect(bad.status).toBe(422);
      expect(bad.body.detail[0].loc).toEqual(['header', 'Last-Event-ID']);
      expect((await open.request('GET', '/api/open/events/stream?type=nope', { token })).status).toBe(422);
      expect((await open.request('GET', '/api/open/events/stream', { token: null })).status).toBe(401);
    },
  );
});
