import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendUpload, textPdf, uploadPdf } from '../helpers/files.js';
import { type Harness, startHarness } from '../helpers/harness.js';

/**
 * The mistakes of a first try answer with the status and code they always had, and a message that says
 * what was wrong and what to send instead.
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

// what is refused before a token is looked up runs in the sqlite project only (vitest.config.ts)
const once = { tags: ['one-engine'] };

describe('a header that is not a bearer token', once, () => {
  it.each([
    ['a token without "Bearer "', () => h.tenant.token],
    ['"Bearer" without a token', () => 'Bearer'],
    ['another scheme', () => `Basic ${Buffer.from(`user:${h.tenant.token}`).toString('base64')}`],
  ])('%s: 401 not_authenticated, saying to send Authorization: Bearer <token>', async (_, header) => {
    const answered = await h.request('GET', '/api/open/runs', {
      token: null,
      headers: { authorization: header() },
    });
    expect(answered.status).toBe(401);
    expect(answered.body.error).toBe('not_authenticated');
    expect(answered.headers.get('www-authenticate')).toBe('Bearer');
    expect(answered.body.message).toContain('`Authorization: Bearer <token>`');
  });

  it('no header at all: 401 not_authenticated as before', async () => {
    const answered = await h.request('GET', '/api/open/runs', { token: null });
    expect(answered.status).toBe(401);
    expect(answered.body).toMatchObject({ error: 'not_authenticated', message: 'Not authenticated' });
  });
});

describe("a token of the other listener's kind", () => {
  // the message is told by the token's prefix; the lookup that refuses it is the unknown token's, below
  it(
    'an admin token on the public API: 401 invalid_token, saying it is an admin token for ADMIN_PORT',
    once,
    async () => {
      const answered = await h.request('GET', '/api/open/runs', { token: h.adminToken });
      expect(answered.status).toBe(401);
      expect(answered.body.error).toBe('invalid_token');
      expect(answered.body.message).toMatch(/admin token/);
      expect(answered.body.message).toMatch(/admin API/);
      expect(answered.body.message).toMatch(/ADMIN_PORT/);
    },
  );

  it(
    "a tenant's token on the admin API: 401 invalid_token, saying it is a tenant's token for the public API",
    once,
    async () => {
      const answered = await h.admin('GET', '/api/admin/tenants', { token: h.tenant.token });
      expect(answered.status).toBe(401);
      expect(answered.body.error).toBe('invalid_token');
      expect(answered.body.message).toMatch(/tenant's token/);
      expect(answered.body.message).toMatch(/public API/);
    },
  );

  it('a token of the right kind that is unknown: 401 invalid_token, nothing more said', async () => {
    const unknown = `ota_${'A'.repeat(43)}`;
    const answered = await h.request('GET', '/api/open/runs', { token: unknown });
    expect(answered.status).toBe(401);
    expect(answered.body).toMatchObject({ error: 'invalid_token', message: 'Invalid token' });
    const admin = await h.admin('GET', '/api/admin/tenants', { token: `ota_admin_${'A'.repeat(43)}` });
    expect(admin.status).toBe(401);
    expect(admin.body).toMatchObject({ error: 'invalid_token', message: 'Invalid token' });
  });
});

describe('a run created with an upload id', () => {
  it("of a completed upload: 404 not_found, saying it is an upload's id and which file_id to pass", async () => {
    const { upload_id } = await sendUpload(h, pdf);
    const completed = await h.request('POST', '/api/open/uploads/complete', { json: { upload_id } });
    expect(completed.status, completed.text).toBe(200);
    const fileId = completed.body.data.file_id as string;
    const answered = await h.request('POST', '/api/open/runs', { json: { file_id: upload_id } });
    expect(answered.status).toBe(404);
    expect(answered.body.error).toBe('not_found');
    expect(answered.body.message).toContain("upload's id");
    expect(answered.body.message).toContain('file_id');
    expect(answered.body.message).toContain(fileId);
  });

  it('of an upload not completed: 404 not_found, saying to complete it and pass the file_id', async () => {
    const { upload_id } = await sendUpload(h, pdf);
    const answered = await h.request('POST', '/api/open/runs', { json: { file_id: upload_id } });
    expect(answered.status).toBe(404);
    expect(answered.body.error).toBe('not_found');
    expect(answered.body.message).toContain("upload's id");
    expect(answered.body.message).toContain('/api/open/uploads/complete');
  });

  it("of another tenant's upload, or an id of nothing: 404 File not found, as before", async () => {
    const fileId = await uploadPdf(h, pdf, { token: h.other.token });
    const { upload_id } = await sendUpload(h, pdf, { token: h.other.token });
    for (const id of [upload_id, fileId, '00000000-0000-4000-8000-000000000000']) {
      const answered = await h.request('POST', '/api/open/runs', { json: { file_id: id } });
      expect(answered.status).toBe(404);
      expect(answered.body).toMatchObject({ error: 'not_found', message: 'File not found' });
    }
  });
});
