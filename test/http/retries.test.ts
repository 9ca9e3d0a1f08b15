import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPdf, uploadPdf } from '../helpers/files.js';
import { type Harness, startHarness, throughHaproxy } from '../helpers/harness.js';

const BURST = 40;
const PER_SECOND = 20;

let h: Harness;
let fileId: string;
const pdf = readPdf('real/cups-filters__classified.pdf');
beforeAll(async () => {
  h = await startHarness({
    RATE_LIMIT_PER_SECOND: '100000',
    RATE_LIMIT_BURST: '100000',
    PARSER_THREADS: '0',
  });
  fileId = await uploadPdf(h, pdf);
});
afterAll(async () => {
  await h.close();
});

const createRun = (
  key: string | undefined,
  body: unknown = { file_id: fileId, target: 'pdf-text' },
  token?: string,
) =>
  h.request('POST', '/api/open/runs', {
    json: body,
    token,
    headers: key === undefined ? {} : { 'Idempotency-Key': key },
  });

async function runCount(tenantId: string): Promise<number> {
  const rows = await h.query<{ n: number | string }>('SELECT COUNT(*) AS n FROM runs WHERE tenant_id = ?', [
    tenantId,
  ]);
  return Number(rows[0]!.n);
}

describe('Idempotency-Key', () => {
  it('replays the first answer exactly, marked as a replay', async () => {
    const key = randomUUID();
    const first = await createRun(key);
    expect(first.status, first.text).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await createRun(key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(first.text);
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    // the body written differently (keys in another order) is the same request
    const reordered = await createRun(key, { target: 'pdf-text', file_id: fileId });
    expect(reordered.text).toBe(first.text);
  });

  it('gives one effect for 20 concurrent copies of one request', { tags: ['two-processes'] }, async () => {
    const before = await runCount(h.tenant.tenant_id);
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 20 }, () => createRun(key)));
    expect(await runCount(h.tenant.tenant_id)).toBe(before + 1);
    const created = answers.filter((a) => a.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((a) => a.body.data.id)).size).toBe(1);
    for (const busy of answers.filter((a) => a.status !== 201)) {
      expect(busy.status).toBe(409);
      expect(busy.body.error).toBe('idempotency_key_in_use');
      expect(Number(busy.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    // once the first is done, every retry gets its answer
    const late = await createRun(key);
    expect(late.status).toBe(201);
    expect(late.body.data.id).toBe(created[0]!.body.data.id);
  });

  it('refuses the same key with a different request (body or operation)', async () => {
    const key = randomUUID();
    expect((await createRun(key)).status).toBe(201);
    const otherBody = await createRun(key, { file_id: fileId, target: 'pdf-preflight' });
    expect(otherBody.status).toBe(422);
    expect(otherBody.body.error).toBe('idempotency_key_reused');
    const otherRoute = await h.request('POST', '/api/open/uploads', {
      json: { file_name: 'a.pdf', size_bytes: 10 },
      headers: { 'Idempotency-Key': key },
    });
    expect(otherRoute.status).toBe(422);
    expect(otherRoute.body.error).toBe('idempotency_key_reused');
  });

  it('keeps keys per tenant', async () => {
    const key = randomUUID();
    const mine = await createRun(key);
    expect(mine.status).toBe(201);
    const otherFile = await uploadPdf(h, readPdf('real/cups-filters__classified.pdf'), {
      token: h.other.token,
    });
    const theirs = await createRun(key, { file_id: otherFile, target: 'pdf-text' }, h.other.token);
    expect(theirs.status, theirs.text).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.data.id).not.toBe(mine.body.data.id);
    expect(theirs.body.data.tenant_id).toBe(h.other.tenant_id);
  });

  it('refuses a key that is empty, too long or not printable ASCII, at ["header","Idempotency-Key"]', async () => {
    for (const key of ['x'.repeat(256), 'caf\u00e9']) {
      const answer = await h.request('POST', '/api/open/runs', {
        json: { file_id: fileId, target: 'pdf-text' },
        headers: { 'Idempotency-Key': key },
      });
      expect(answer.status, key).toBe(422);
      expect(answer.body.detail.map((d: { loc: string[] }) => d.loc)).toContainEqual([
        'header',
        'Idempotency-Key',
      ]);
    }
    // 255 characters is the longest key
    expect((await createRun('k'.repeat(255))).status).toBe(201);
  });

  it('does not keep answers that changed nothing: a retry executes again', async () => {
    const key = randomUUID();
    const missing = await createRun(key, { file_id: randomUUID(), target: 'pdf-text' });
    expect(missing.status).toBe(404);
    const invalid = await createRun(key, { file_id: 'nope', target: 'pdf-text' });
    expect(invalid.status).toBe(422);
    expect(invalid.body.error).toBe('validation_error');
    // the key is free: the same key now executes a valid request
    const created = await createRun(key);
    expect(created.status).toBe(201);
    expect(created.headers.get('idempotent-replayed')).toBeNull();
  });

  it('keeps a state conflict: rerun and cancel retried tell "already done" by replay', async () => {
    const run = (await createRun(undefined)).body.data;
    const key = randomUUID();
    const cancelled = await h.request('POST', `/api/open/runs/${run.id}/cancel`, {
      headers: { 'Idempotency-Key': key },
    });
    expect(cancelled.status).toBe(200);
    const again = await h.request('POST', `/api/open/runs/${run.id}/cancel`, {
      headers: { 'Idempotency-Key': key },
    });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const rerunKey = randomUUID();
    const rerun = await h.request('POST', `/api/open/runs/${run.id}/rerun`, {
      headers: { 'Idempotency-Key': rerunKey },
    });
    expect(rerun.status).toBe(200);
    expect(rerun.body.data.attempt).toBe(2);
    const rerunAgain = await h.request('POST', `/api/open/runs/${run.id}/rerun`, {
      headers: { 'Idempotency-Key': rerunKey },
    });
    expect(rerunAgain.status).toBe(200);
    expect(rerunAgain.body.data.attempt).toBe(2);
    // a final conflict under a new key is kept too, and replayed with the retry's own request id: the
    // attempt it meant to cancel had ended
    expect((await h.request('POST', `/api/open/runs/${run.id}/cancel`)).status).toBe(200);
    const conflictKey = randomUUID();
    const conflict = await h.request('POST', `/api/open/runs/${run.id}/cancel`, {
      headers: { 'Idempotency-Key': conflictKey },
    });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error).toBe('run_finished');
    const replayed = await h.request('POST', `/api/open/runs/${run.id}/cancel`, {
      headers: { 'Idempotency-Key': conflictKey },
    });
    expect(replayed.status).toBe(409);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body.error).toBe(conflict.body.error);
    expect(replayed.body.request_id).not.toBe(conflict.body.request_id);
  });

  it('does not keep a conflict that passes: a rerun refused while the run was queued reruns it later', async () => {
    const run = (await createRun(undefined)).body.data;
    const key = randomUUID();
    const early = await h.request('POST', `/api/open/runs/${run.id}/rerun`, {
      headers: { 'Idempotency-Key': key },
    });
    expect(early.status).toBe(409);
    expect(early.body.error).toBe('run_not_finished');
    await h.request('POST', `/api/open/runs/${run.id}/cancel`);
    const later = await h.request('POST', `/api/open/runs/${run.id}/rerun`, {
      headers: { 'Idempotency-Key': key },
    });
    expect(later.status).toBe(200);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(later.body.data.attempt).toBe(2);
  });

  it('does not keep upload_incomplete: complete retried after the missing part completes', async () => {
    const started = await h.request('POST', '/api/open/uploads', {
      json: { file_name: 'late.pdf', size_bytes: pdf.length },
    });
    const uploadId = started.body.data.upload_id as string;
    const key = randomUUID();
    const early = await h.request('POST', '/api/open/uploads/complete', {
      json: { upload_id: uploadId },
      headers: { 'Idempotency-Key': key },
    });
    expect(early.status).toBe(409);
    expect(early.body.error).toBe('upload_incomplete');
    const part = await h.request('PUT', `/api/open/uploads/${uploadId}/parts/1`, {
      body: pdf,
      contentType: 'application/octet-stream',
    });
    expect(part.status).toBe(200);
    const done = await h.request('POST', '/api/open/uploads/complete', {
      json: { upload_id: uploadId },
      headers: { 'Idempotency-Key': key },
    });
    expect(done.status, done.text).toBe(200);
    expect(done.headers.get('idempotent-replayed')).toBeNull();
    expect(done.body.data.status).toBe('completed');
  });

  it('fingerprints the request as sent, not as defaults fill it in', async () => {
    // `target` has a default: leaving it out and spelling the default out are different requests as sent
    const key = randomUUID();
    const bare = await createRun(key, { file_id: fileId });
    expect(bare.status).toBe(201);
    const retried = await createRun(key, { file_id: fileId });
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    const spelled = await createRun(key, { file_id: fileId, target: bare.body.data.target });
    expect(spelled.status).toBe(422);
    expect(spelled.body.error).toBe('idempotency_key_reused');
  });

  it(
    'makes one upload for a retried createUpload and completeUpload',
    { tags: ['two-processes'] },
    async () => {
      const key = randomUUID();
      const body = { file_name: 'retry.pdf', size_bytes: 1000 };
      const first = await h.request('POST', '/api/open/uploads', {
        json: body,
        headers: { 'Idempotency-Key': key },
      });
      expect(first.status).toBe(201);
      const second = await h.request('POST', '/api/open/uploads', {
        json: body,
        headers: { 'Idempotency-Key': key },
      });
      expect(second.body.data.upload_id).toBe(first.body.data.upload_id);
      const pending = await h.query<{ n: number | string }>(
        "SELECT COUNT(*) AS n FROM uploads WHERE tenant_id = ? AND file_name = 'retry.pdf'",
        [h.tenant.tenant_id],
      );
      expect(Number(pending[0]!.n)).toBe(1);
    },
  );

  it('deletes expired keys in the sweep, in batches', async () => {
    const key = randomUUID();
    expect((await createRun(key)).status).toBe(201);
    const store = h.server.services.store;
    const far = new Date(Date.now() + 2 * 86_400_000).toISOString();
    let removed = 0;
    for (let n = await store.idempotency.sweep(far, 2); n > 0; n = await store.idempotency.sweep(far, 2)) {
      expect(n).toBeLessThanOrEqual(2);
      removed += n;
    }
    expect(removed).toBeGreaterThan(0);
    // the key is free again: a new request executes
    const fresh = await createRun(key);
    expect(fresh.headers.get('idempotent-replayed')).toBeNull();
  });
});

describe('rate limits', { tags: ['two-processes'] }, () => {
  let limited: Harness;
  beforeAll(async () => {
    limited = await startHarness({
      RATE_LIMIT_PER_SECOND: String(PER_SECOND),
      RATE_LIMIT_BURST: String(BURST),
      PARSER_THREADS: '0',
    });
  });
  afterAll(async () => {
    await limited.close();
  });

  it('tells every answer its limit, and refuses past the burst with 429 and Retry-After', async () => {
    // 4x the burst at once: behind HAProxy, half of it reaches each process
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: BURST * 4 }, () => limited.request('GET', '/api/open/runs?limit=1')),
    );
    const refilled = Math.ceil(((performance.now() - started) / 1000) * PER_SECOND);
    for (const answer of answers) {
      expect(answer.headers.get('ratelimit-policy')).toBe(`"default";q=${BURST};w=${BURST / PER_SECOND}`);
      expect(answer.headers.get('ratelimit')).toMatch(/^"default";r=\d+;t=\d+$/);
    }
    const refused = answers.filter((a) => a.status === 429);
    const served = answers.filter((a) => a.status === 200);
    expect(served.length + refused.length).toBe(BURST * 4);
    // a single process admits exactly the burst (plus what refilled meanwhile); behind HAProxy the shared
    // bucket admits no more than it holds, and a process may hold back a lease (5% of the burst) and what was
    // left of the one before, under half a lease, for a second
    const lease = Math.max(1, BURST / 20);
    expect(served.length).toBeGreaterThanOrEqual(
      throughHaproxy ? BURST - 2 * (lease + Math.ceil(lease / 2) - 1) : BURST,
    );
    // never more than the bucket held plus what it refilled while the requests were answered
    expect(served.length).toBeLessThanOrEqual(BURST + refilled + 1);
    for (const answer of refused) {
      expect(answer.body.error).toBe('rate_limited');
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(answer.headers.get('ratelimit')).toMatch(/^"default";r=0;t=[12]$/);
    }
  });

  it('never slows another tenant: its bucket is its own', async () => {
    const flood = Array.from({ length: BURST * 2 }, () => limited.request('GET', '/api/open/runs?limit=1'));
    const mine = await limited.request('GET', '/api/open/runs?limit=1', { token: limited.other.token });
    await Promise.all(flood);
    expect(mine.status).toBe(200);
  });

  it('puts the headers on answers without a token and on unknown paths; never on health or docs', async () => {
    const anonymous = await limited.request('GET', '/api/open/runs', { token: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('ratelimit')).toMatch(/^"anonymous";r=\d+;t=\d+$/);
    const unknown = await limited.request('GET', '/api/open/nothing-here');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('ratelimit-policy')).not.toBeNull();
    for (const path of ['/healthz', '/readyz', '/openapi.yaml']) {
      const answer = await fetch(`${limited.url}${path}`);
      expect(answer.headers.get('ratelimit'), path).toBeNull();
    }
  });

  it('refills: after Retry-After the tenant is served again', async () => {
    let refused: Awaited<ReturnType<Harness['request']>> | undefined;
    // the bucket refills by one every 50 ms: send until one is refused, however slow the machine
    for (let i = 0; i < BURST * 10 && !refused; i += BURST) {
      const answers = await Promise.all(
        Array.from({ length: BURST }, () => limited.request('GET', '/api/open/runs?limit=1')),
      );
      refused = answers.find((a) => a.status === 429);
    }
    expect(refused?.status).toBe(429);
    await new Promise((resolve) =>
      setTimeout(resolve, Number(refused!.headers.get('retry-after')) * 1000 + 100),
    );
    expect((await limited.request('GET', '/api/open/runs?limit=1')).status).toBe(200);
  });
});
