import { request } from 'node:http';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, throughHaproxy } from '../helpers/harness.js';
import { rawRequest, rawSocket } from '../helpers/raw-http.js';

const PART = 8 * 1024 * 1024;

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    UPLOAD_PART_SIZE: String(PART),
    MAX_CONCURRENT_PARTS_PER_TENANT: '1',
    BODY_IDLE_TIMEOUT_MS: '5000',
  });
});
afterAll(async () => {
  await h.close();
});

const auth = () => ({ authorization: `Bearer ${h.tenant.token}` });

async function startUpload(parts: number): Promise<string> {
  const started = await h.request('POST', '/api/open/uploads', {
    json: { file_name: 'big.pdf', size_bytes: parts * PART },
  });
  expect(started.status).toBe(201);
  return started.body.data.upload_id as string;
}

/** A PUT that waits for "100 Continue" before its body, as curl sends large bodies. */
function putWithContinue(path: string, body: Buffer) {
  return new Promise<{ status: number; continued: boolean; text: string }>((resolve, reject) => {
    let continued = false;
    const req = request(`${h.url}${path}`, {
      method: 'PUT',
      headers: {
        ...auth(),
        'content-type': 'application/octet-stream',
        'content-length': String(body.length),
        expect: '100-continue',
      },
    });
    req.on('continue', () => {
      continued = true;
      req.end(body);
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, continued, text: Buffer.concat(chunks).toString() }),
      );
    });
    req.on('error', reject);
    req.flushHeaders();
  });
}

// How a body is refused or let in is the HTTP layer's, and the part caps are the process's: no engine takes
// part, and these run in the sqlite project only (vitest.config.ts); what each engine answers for an unknown
// upload or a part is in uploads.test.ts.
const once = { tags: ['one-engine'] };

// the part caps are per process, and HAProxy answers "100 Continue" itself
describe.skipIf(throughHaproxy)('refused bodies', once, () => {
  it('a client that waits for 100 Continue is refused before it sends its body, and the connection closes cleanly', async () => {
    const head = [
      `PUT /api/open/uploads/${randomUUID()}/parts/1 HTTP/1.1`,
      'Host: localhost',
      `Authorization: Bearer ${h.tenant.token}`,
      'Content-Type: application/octet-stream',
      `Content-Length: ${PART}`,
      'Expect: 100-continue',
      '',
      '',
    ].join('\r\n');
    const answer = await rawSocket(h.url, head, 5000);
    expect(answer).toMatch(/^HTTP\/1\.1 404 /);
    expect(answer).not.toContain('100 Continue');
    expect(answer.toLowerCase()).toContain('connection: close');
  });

  it('a client that waits for 100 Continue gets it when the part is wanted', async () => {
    const uploadId = await startUpload(2);
    // part 1 must begin as a PDF does, or it is refused as not a PDF
    const part = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(PART - 9, 1)]);
    const sent = await putWithContinue(`/api/open/uploads/${uploadId}/parts/1`, part);
    expect(sent.status, sent.text).toBe(200);
    expect(sent.continued).toBe(true);
  });

  for (const connection of ['keep-alive', 'close']) {
    it(`a client still sending when the 429 comes reads it without a reset (Connection: ${connection})`, async () => {
      const holding = await startUpload(2);
      const refusedUpload = await startUpload(2);
      const chunk = Buffer.alloc(PART / 2, 2);
      // the tenant's one part slot, held by a body that stalls
      const held = rawRequest(h.url, 'PUT', `/api/open/uploads/${holding}/parts/1`, {
        headers: { ...auth(), 'content-type': 'application/octet-stream', 'content-length': String(PART) },
        chunks: [chunk, chunk],
        stallAfter: 1,
        dropAfterMs: 3000,
      }).catch(() => undefined);
      await expect.poll(() => h.server.services.uploads.partsInFlight(), { timeout: 10_000 }).toBe(1);
      // 24 clients at once, each writing its whole part as fast as it can: the answers come while most of
      // each body is still to be written
      const pieces = Array.from({ length: 16 }, () => Buffer.alloc(PART / 16, 3));
      const refused = await Promise.all(
        Array.from({ length: 24 }, () =>
          rawRequest(h.url, 'PUT', `/api/open/uploads/${refusedUpload}/parts/1`, {
            headers: {
              ...auth(),
              connection,
              'content-type': 'application/octet-stream',
              'content-length': String(PART),
            },
            chunks: pieces,
          }),
        ),
      );
      for (const answer of refused) {
        expect(answer.status).toBe(429);
        expect(answer.body.error).toBe('too_many_concurrent_parts');
      }
      await held;
    });
  }
});

describe('pending uploads list', () => {
  it("lists the tenant's pending uploads in cursor pages, so that lost ones can be aborted", async () => {
    const lister = await startHarness({ UPLOAD_PART_SIZE: String(PART) });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        const started = await lister.request('POST', '/api/open/uploads', {
          json: { file_name: `lost-${i}.pdf`, size_bytes: PART },
        });
        ids.push(started.body.data.upload_id);
      }
      const first = await lister.request('GET', '/api/open/uploads?status=pending&limit=2');
      expect(first.status).toBe(200);
      expect(first.body.total).toBe(3);
      const idsOf = (page: { body: { data: { upload_id: string }[] } }) =>
        page.body.data.map((u) => u.upload_id);
      expect(first.body.data).toHaveLength(2);
      expect(first.body.data[0]).toMatchObject({ status: 'pending', missing_parts: [1] });
      expect(first.body.next_cursor).toBe(idsOf(first)[1]);
      const second = await lister.request(
        'GET',
        `/api/open/uploads?limit=2&starting_after=${first.body.next_cursor}`,
      );
      expect(second.body.next_cursor).toBeNull();
      // every pending upload once
      expect([...idsOf(first), ...idsOf(second)].sort()).toEqual([...ids].sort());
      // another tenant sees none of them, and cannot page from them
      const theirs = await lister.request('GET', '/api/open/uploads', { token: lister.other.token });
      expect(theirs.body.data).toEqual([]);
      expect(theirs.body.total).toBe(0);
      const foreignCursor = await lister.request('GET', `/api/open/uploads?starting_after=${ids[0]}`, {
        token: lister.other.token,
      });
      expect(foreignCursor.status).toBe(404);
      // aborted uploads leave the list
      expect((await lister.request('DELETE', `/api/open/uploads/${ids[0]}`)).status).toBe(200);
      const after = await lister.request('GET', '/api/open/uploads');
      expect(after.body.total).toBe(2);
      expect(idsOf(after).sort()).toEqual(ids.slice(1).sort());
      const completed = await lister.request('GET', '/api/open/uploads?status=completed');
      expect(completed.status).toBe(422);
      expect(completed.body.detail[0].loc).toEqual(['query', 'status']);
    } finally {
      await lister.close();
    }
  });
});

// Through HAProxy too (the `haproxy` project): HAProxy 2.6 resets a client whose request body is still
// coming when the server closes, so the server reads and drops up to a part's size before it closes.
describe('a part refused while its body is still being sent', once, () => {
  for (const connection of ['keep-alive', 'close']) {
    it(`gets its answer, not a reset: unknown upload (404) and wrong media type (415), Connection: ${connection}`, async () => {
      const uploadId = await startUpload(2);
      const pieces = Array.from({ length: 16 }, () => Buffer.alloc(PART / 16, 4));
      const send = (path: string, contentType: string) =>
        rawRequest(h.url, 'PUT', path, {
          headers: { ...auth(), connection, 'content-type': contentType, 'content-length': String(PART) },
          chunks: pieces,
        });
      const answers = await Promise.all([
        ...Array.from({ length: 12 }, () =>
          send(`/api/open/uploads/${randomUUID()}/parts/1`, 'application/octet-stream'),
        ),
        ...Array.from({ length: 12 }, () => send(`/api/open/uploads/${uploadId}/parts/1`, 'text/plain')),
      ]);
      const statuses = answers.map((answer) => answer.status);
      expect(statuses).toEqual([...Array<number>(12).fill(404), ...Array<number>(12).fill(415)]);
      expect(answers[0]!.body.error).toBe('not_found');
      expect(answers[12]!.body.error).toBe('unsupported_media_type');
    });
  }
});
