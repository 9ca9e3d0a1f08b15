import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { readPdf, uploadPdf, waitForRun } from '../helpers/files.js';
import { type Harness, startHarness } from '../helpers/harness.js';

/**
 * The platform's admin API, as a platform calls it: on the admin listener (ADMIN_PORT) with an admin token,
 * every answer judged by the contract (and by Prism under `npm run judge:prism`). The signup flow, a key
 * rotation and a suspension, and the two listeners kept apart: a tenant's token never reaches an admin
 * operation, an admin token never acts as a tenant.
 */

interface AuditLine {
  msg: string;
  audit?: { action: string; actor: string; tenant_id: string; request_id: string | null };
}

let h: Harness;
const lines: AuditLine[] = [];

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as AuditLine);
      done();
    },
  });
  h = await startHarness({}, { logger: pino({ level: 'info' }, sink) });
});
afterAll(() => h.close());

const key = () => ({ 'Idempotency-Key': randomUUID() });

async function createTenant(name: string, headers: Record<string, string> = key()) {
  const res = await h.admin('POST', '/api/admin/tenants', { json: { name }, headers });
  expect(res.status, res.text).toBe(201);
  return res.body.data as {
    tenant: { tenant_id: string; name: string; state: string };
    token: { token_id: string; token: string; scopes: string[] };
  };
}

describe('the signup flow', () => {
  it('creates a tenant whose first token works on the public API at once, and writes it in the audit trail', async () => {
    const requestId = `signup-${randomUUID()}`;
    const res = await h.admin('POST', '/api/admin/tenants', {
      json: { name: 'initech', currency: 'EUR', price_per_point: 12 },
      headers: { ...key(), 'X-Request-Id': requestId },
    });
    expect(res.status).toBe(201);
    const { tenant, token } = res.body.data;
    expect(tenant).toMatchObject({
      name: 'initech',
      currency: 'EUR',
      price_per_point: 12,
      state: 'active',
      api_version: '2026-12-01',
    });
    expect(token.token).toMatch(/^ota_/);
    expect(token.scopes).toHaveLength(8);
    const runs = await h.request('GET', '/api/open/runs', { token: token.token });
    expect(runs.status).toBe(200);
    expect(runs.body.total).toBe(0);

    expect((await h.admin('GET', `/api/admin/tenants/${tenant.tenant_id}`)).body.data).toEqual(tenant);
    const trail = await h.admin('GET', `/api/admin/audit_events?tenant_id=${tenant.tenant_id}`);
    expect(trail.body.data).toEqual([
      expect.objectContaining({
        action: 'tenant.created',
        actor: 'admin_token',
        tenant_id: tenant.tenant_id,
        target_id: tenant.tenant_id,
        request_id: requestId,
        detail: { name: 'initech', currency: 'EUR', price_per_point: 12, api_version: '2026-12-01' },
      }),
    ]);
    expect(trail.body.data[0].admin_token_id).toBeTruthy();
    // the same change is a log line, written once it committed
    expect(
      lines.some((l) => l.msg === 'admin action' && l.audit?.request_id === requestId),
      'the audit log line',
    ).toBe(true);
    // no secret in the trail
    expect(JSON.stringify(trail.body)).not.toContain(token.token);
  });

  it('a retry with the same Idempotency-Key gets the same tenant and a new secret; the unseen one is revoked', async () => {
    const headers = key();
    const first = await createTenant('retry-co', headers);
    const again = await h.admin('POST', '/api/admin/tenants', { json: { name: 'retry-co' }, headers });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data.tenant.tenant_id).toBe(first.tenant.tenant_id);
    expect(again.body.data.token.token).not.toBe(first.token.token);
    expect((await h.request('GET', '/api/open/runs', { token: first.token.token })).status).toBe(401);
    expect((await h.request('GET', '/api/open/runs', { token: again.body.data.token.token })).status).toBe(
      200,
    );
    // one tenant of that name, with one live token
    const tokens = (await h.admin('GET', `/api/admin/tenants/${first.tenant.tenant_id}/tokens`)).body.data;
    expect(tokens.filter((t: { revoked_at: string | null }) => t.revoked_at === null)).toHaveLength(1);
    // the secret is never stored in clear: not in the key's kept answer either
    const kept = await h.query<{ body: string | null }>('SELECT body FROM idempotency_keys WHERE key = ?', [
      headers['Idempotency-Key'],
    ]);
    expect(kept.map((row) => row.body)).toEqual([null]);
    const reused = await h.admin('POST', '/api/admin/tenants', { json: { name: 'other-co' }, headers });
    expect(reused.status).toBe(422);
    expect(reused.body.error).toBe('idempotency_key_reused');
  });

  it('another tenant of the same name is 409 tenant_name_taken; a bad request is 422 with detail', async () => {
    await createTenant('taken-co');
    const taken = await h.admin('POST', '/api/admin/tenants', { json: { name: 'taken-co' }, headers: key() });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toBe('tenant_name_taken');
    const bad = await h.admin('POST', '/api/admin/tenants', {
      json: { name: ' padded', currency: 'euro', price_per_point: -1, plan: 'gold' },
    });
    expect(bad.status).toBe(422);
    expect([...new Set(bad.body.detail.map((d: { loc: string[] }) => d.loc.join('.')))].sort()).toEqual([
      'body.currency',
      'body.name',
      'body.plan',
      'body.price_per_point',
    ]);
  });

  it('lists tenants oldest first, paged', async () => {
    const page = await h.admin('GET', '/api/admin/tenants?limit=2&offset=1');
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ page: 1, page_size: 2 });
    expect(page.body.data).toHaveLength(2);
    const all = await h.admin('GET', '/api/admin/tenants?limit=100');
    expect(all.body.total).toBe(all.body.data.length);
    expect(all.body.data[0].tenant_id).toBe(h.tenant.tenant_id);
    expect(all.body.data[1].name).toBe('globex');
    expect(page.body.data[0]).toEqual(all.body.data[1]);
    expect((await h.admin('GET', '/api/admin/tenants?limit=0')).status).toBe(422);
  });
});

describe('changing a tenant', () => {
  it('renames and reprices; a name another tenant has is 409; an unknown tenant 404; an empty change 422', async () => {
    const { tenant } = await createTenant('rename-me');
    const renamed = await h.admin('PATCH', `/api/admin/tenants/${tenant.tenant_id}`, {
      json: { name: 'renamed', price_per_point: 25 },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ name: 'renamed', price_per_point: 25 });
    const clash = await h.admin('PATCH', `/api/admin/tenants/${tenant.tenant_id}`, {
      json: { name: 'acme' },
    });
    expect(clash.status).toBe(409);
    expect(clash.body.error).toBe('tenant_name_taken');
    const unknown = await h.admin('PATCH', `/api/admin/tenants/${randomUUID()}`, { json: { name: 'x' } });
    expect(unknown.status).toBe(404);
    const empty = await h.admin('PATCH', `/api/admin/tenants/${tenant.tenant_id}`, { json: {} });
    expect(empty.status).toBe(422);
    expect((await h.admin('GET', `/api/admin/tenants/${randomUUID()}`)).status).toBe(404);
    expect((await h.admin('GET', '/api/admin/tenants/not-a-uuid')).status).toBe(422);
  });

  it("suspends: the tenant's tokens get 403 tenant_suspended and its data stays; resuming gives it back", async () => {
    const { tenant, token } = await createTenant('suspend-me');
    const suspended = await h.admin('POST', `/api/admin/tenants/${tenant.tenant_id}/suspend`, {
      headers: key(),
    });
    expect(suspended.status).toBe(200);
    expect(suspended.body.data.state).toBe('suspended');
    // the token cache of every process forgets at once (PostgreSQL): no wait
    const refused = await h.request('GET', '/api/open/runs', { token: token.token });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('tenant_suspended');
    // twice: the first time stays
    const again = await h.admin('POST', `/api/admin/tenants/${tenant.tenant_id}/suspend`);
    expect(again.body.data.suspended_at).toBe(suspended.body.data.suspended_at);
    const resumed = await h.admin('POST', `/api/admin/tenants/${tenant.tenant_id}/resume`, {
      headers: key(),
    });
    expect(resumed.body.data).toMatchObject({ state: 'active', suspended_at: null });
    expect((await h.request('GET', '/api/open/runs', { token: token.token })).status).toBe(200);
    const trail = await h.admin('GET', `/api/admin/audit_events?tenant_id=${tenant.tenant_id}`);
    expect(trail.body.data.map((e: { action: string }) => e.action)).toEqual([
      'tenant.resumed',
      'tenant.suspended',
      'tenant.created',
    ]);
    expect((await h.admin('POST', `/api/admin/tenants/${randomUUID()}/suspend`)).status).toBe(404);
    expect((await h.admin('POST', `/api/admin/tenants/${randomUUID()}/resume`)).status).toBe(404);
  });
});

describe('tokens', () => {
  it('a key rotation: issue a scoped, expiring token, use it within its scopes, revoke the old one', async () => {
    const { tenant, token: first } = await createTenant('rotate-co');
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const issued = await h.admin('POST', `/api/admin/tenants/${tenant.tenant_id}/tokens`, {
      json: { name: 'ci', scopes: ['runs:read', 'runs:write'], expires_at: expiresAt },
      headers: key(),
    });
    expect(issued.status).toBe(201);
    expect(issued.body.data).toMatchObject({
      name: 'ci',
      scopes: ['runs:read', 'runs:write'],
      expires_at: expiresAt,
      revoked_at: null,
      tenant_id: tenant.tenant_id,
    });
    const secret = issued.body.data.token as string;
    expect((await h.request('GET', '/api/open/runs', { token: secret })).status).toBe(200);
    const outOfScope = await h.request('GET', '/api/open/finance/dashboard', { token: secret });
    expect(outOfScope.status).toBe(403);
    expect(outOfScope.body.error).toBe('insufficient_scope');

    const revoked = await h.admin(
      'POST',
      `/api/admin/tenants/${tenant.tenant_id}/tokens/${first.token_id}/revoke`,
      { headers: key() },
    );
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.revoked_at).toBeTruthy();
    const gone = await h.request('GET', '/api/open/runs', { token: first.token });
    expect(gone.status).toBe(401);
    expect(gone.body.error).toBe('invalid_token');
    const twice = await h.admin(
      'POST',
      `/api/admin/tenants/${tenant.tenant_id}/tokens/${first.token_id}/revoke`,
    );
    expect(twice.body.data.revoked_at).toBe(revoked.body.data.revoked_at);

    const listed = await h.admin('GET', `/api/admin/tenants/${tenant.tenant_id}/tokens`);
    expect(listed.body.data.map((t: { token_id: string }) => t.token_id)).toEqual([
      first.token_id,
      issued.body.data.token_id,
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    expect(listed.body.data[1].prefix).toBe(secret.slice(0, 10));
  });

  it("a token of another tenant is 404 on this tenant's path; an expiry in the past or an unknown scope is 422", async () => {
    const { tenant } = await createTenant('token-rules');
    const other = await h.admin(
      'POST',
      `/api/admin/tenants/${tenant.tenant_id}/tokens/${h.tenant.token_id}/revoke`,
    );
    expect(other.status).toBe(404);
    expect((await h.request('GET', '/api/open/runs')).status).toBe(200);
    const past = await h.admin('POST', `/api/admin/tenants/${tenant.tenant_id}/tokens`, {
      json: { name: 'old', expires_at: '2020-01-01T00:00:00Z' },
    });
    expect(past.status).toBe(422);
    expect(past.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'expires_at'] })]);
    const scope = await h.admin('POST', `/api/admin/tenants/${tenant.tenant_id}/tokens`, {
      json: { name: 'x', scopes: ['runs:delete'] },
    });
    expect(scope.status).toBe(422);
    const noTenant = await h.admin('POST', `/api/admin/tenants/${randomUUID()}/tokens`, {
      json: { name: 'x' },
    });
    expect(noTenant.status).toBe(404);
    expect((await h.admin('GET', `/api/admin/tenants/${randomUUID()}/tokens`)).status).toBe(404);
  });

  it('a retried issue replaces the secret no answer showed, keeping name, scopes and expiry', async () => {
    const { tenant } = await createTenant('issue-retry');
    const headers = key();
    const json = { name: 'dash', scopes: ['finance:read'] };
    const first = await h.admin('POST', `/api/admin/tenants/${tenant.tenant_id}/tokens`, { json, headers });
    const again = await h.admin('POST', `/api/admin/tenants/${tenant.tenant_id}/tokens`, { json, headers });
    expect(again.status).toBe(201);
    expect(again.body.data).toMatchObject({ name: 'dash', scopes: ['finance:read'], revoked_at: null });
    expect(again.body.data.token_id).not.toBe(first.body.data.token_id);
    expect(
      (await h.request('GET', '/api/open/finance/dashboard', { token: first.body.data.token })).status,
    ).toBe(401);
    expect(
      (await h.request('GET', '/api/open/finance/dashboard', { token: again.body.data.token })).status,
    ).toBe(200);
  });
});

describe('the ledger feed', () => {
  const entry = (external_id: string, amount: number, extra: Record<string, unknown> = {}) => ({
    external_id,
    type: 'ecosystem',
    amount,
    currency: 'EUR',
    occurred_at: '2026-11-27T18:00:00+01:00',
    ...extra,
  });

  it("books a batch once per external_id, in the tenant's transactions and dashboard, and in the audit trail", async () => {
    const { token } = await createTenant('feed-co');
    // a tenant's currency is USD unless created otherwise: this one's is EUR
    const eur = await h.admin('POST', '/api/admin/tenants', {
      json: { name: 'feed-eur', currency: 'EUR' },
      headers: key(),
    });
    const eurTenant = eur.body.data.tenant.tenant_id as string;
    const eurToken = eur.body.data.token.token as string;
    const route = `/api/admin/tenants/${eurTenant}/ledger_entries`;
    const batch = { entries: [entry('po-1', 125_000, { description: 'November' }), entry('po-2', -2_500)] };
    const first = await h.admin('POST', route, { json: batch, headers: key() });
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ imported: 2, skipped: 0 });
    // a retry without a key books nothing twice
    const again = await h.admin('POST', route, { json: { entries: [...batch.entries, entry('po-3', 1)] } });
    expect(again.body.data).toEqual({ imported: 1, skipped: 2 });
    const listed = await h.request('GET', '/api/open/finance/transactions?page_size=10', { token: eurToken });
    expect(listed.body.total).toBe(3);
    expect(listed.body.data.find((t: { external_id: string }) => t.external_id === 'po-1')).toMatchObject({
      amount: 125_000,
      currency: 'EUR',
      occurred_at: '2026-11-27T17:00:00.000Z',
      description: 'November',
    });
    const trail = await h.admin('GET', `/api/admin/audit_events?tenant_id=${eurTenant}&limit=2`);
    expect(trail.body.data[0]).toMatchObject({
      action: 'ledger.appended',
      detail: { imported: 1, skipped: 2 },
    });
    // the other tenant's ledger is untouched
    const theirs = await h.request('GET', '/api/open/finance/transactions', { token: token.token });
    expect(theirs.body.total).toBe(0);
  });

  it('refuses a whole batch for one bad entry: currency, a repeated external_id, a float, past the exact range', async () => {
    const eur = (await h.admin('POST', '/api/admin/tenants', { json: { name: 'feed-bad', currency: 'EUR' } }))
      .body.data.tenant.tenant_id as string;
    const route = `/api/admin/tenants/${eur}/ledger_entries`;
    const refused = await h.admin('POST', route, {
      json: { entries: [entry('ok-1', 100), entry('usd', 100, { currency: 'USD' }), entry('ok-1', 5)] },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.detail.map((d: { loc: string[] }) => d.loc.join('.'))).toEqual([
      'body.entries.1.currency',
      'body.entries.2.external_id',
    ]);
    const float = await h.admin('POST', route, { json: { entries: [entry('f', 1.5)] } });
    expect(float.status).toBe(422);
    expect(float.body.detail[0].loc).toEqual(['body', 'entries', '0', 'amount']);
    const range = await h.admin('POST', route, {
      json: { entries: [entry('big-1', Number.MAX_SAFE_INTEGER), entry('big-2', 1)] },
    });
    expect(range.status).toBe(422);
    expect(range.body.detail[0].loc).toEqual(['body', 'entries']);
    // nothing of any refused batch was booked
    const usage = await h.query<{ n: number }>('SELECT COUNT(*) AS n FROM ledger WHERE tenant_id = ?', [eur]);
    expect(Number(usage[0]!.n)).toBe(0);
    expect((await h.admin('POST', route, { json: { entries: [] } })).status).toBe(422);
    const unknown = await h.admin('POST', `/api/admin/tenants/${randomUUID()}/ledger_entries`, {
      json: { entries: [entry('x', 1)] },
    });
    expect(unknown.status).toBe(404);
  });
});

describe('usage', () => {
  it("counts a tenant's runs by status and target, their pages and points, and its stored bytes", async () => {
    const bytes = readPdf('real/cups-filters__classified.pdf');
    const fileId = await uploadPdf(h, bytes);
    const run = (await h.request('POST', '/api/open/runs', { json: { file_id: fileId } })).body.data;
    const done = await waitForRun(h, run.id);
    const file = (await h.request('GET', `/api/open/files/${fileId}`)).body.data;
    const usage = await h.admin('GET', `/api/admin/tenants/${h.tenant.tenant_id}/usage`);
    expect(usage.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(usage.body.data).toMatchObject({
      tenant_id: h.tenant.tenant_id,
      start_date: `${today.slice(0, 8)}01`,
      end_date: today,
      runs: {
        total: 1,
        by_status: { succeeded: 1, queued: 0 },
        by_target: [{ target: run.target, runs: 1 }],
      },
      pages_processed: file.page_count,
      points_consumed: done.points_consumed,
      files_stored: 1,
      bytes_stored: bytes.length,
    });
    // another tenant's usage is its own
    const theirs = await h.admin('GET', `/api/admin/tenants/${h.other.tenant_id}/usage`);
    expect(theirs.body.data).toMatchObject({ runs: { total: 0 }, bytes_stored: 0 });
    const past = await h.admin(
      'GET',
      `/api/admin/tenants/${h.tenant.tenant_id}/usage?start_date=2020-01-01&end_date=2020-01-31`,
    );
    expect(past.body.data.runs.total).toBe(0);
    const reversed = await h.admin(
      'GET',
      `/api/admin/tenants/${h.tenant.tenant_id}/usage?start_date=2020-02-01&end_date=2020-01-31`,
    );
    expect(reversed.status).toBe(422);
    expect(reversed.body.detail[0].loc).toEqual(['query', 'end_date']);
    expect((await h.admin('GET', `/api/admin/tenants/${randomUUID()}/usage`)).status).toBe(404);
  });
});

// what no engine takes part in (the listeners' contracts, the settings) runs in the sqlite project only
// (vitest.config.ts)
const once = { tags: ['one-engine'] };

describe('two listeners, two kinds of token', () => {
  it("a tenant's token is 401 invalid_token on every admin operation; no token is 401 not_authenticated", async () => {
    const id = randomUUID();
    const calls: [string, string][] = [
      ['POST', '/api/admin/tenants'],
      ['GET', '/api/admin/tenants'],
      ['GET', `/api/admin/tenants/${id}`],
      ['PATCH', `/api/admin/tenants/${id}`],
      ['POST', `/api/admin/tenants/${id}/suspend`],
      ['POST', `/api/admin/tenants/${id}/resume`],
      ['POST', `/api/admin/tenants/${id}/tokens`],
      ['GET', `/api/admin/tenants/${id}/tokens`],
      ['POST', `/api/admin/tenants/${id}/tokens/${id}/revoke`],
      ['GET', '/api/admin/audit_events'],
      ['POST', `/api/admin/tenants/${id}/ledger_entries`],
      ['GET', `/api/admin/tenants/${id}/usage`],
    ];
    for (const [method, route] of calls) {
      const asTenant = await h.admin(method, route, { token: h.tenant.token });
      expect(asTenant.status, `${method} ${route}`).toBe(401);
      expect(asTenant.body.error).toBe('invalid_token');
      const anonymous = await h.admin(method, route, { token: null });
      expect(anonymous.body.error, `${method} ${route}`).toBe('not_authenticated');
    }
  });

  it('an admin token is 401 on the public API, and the admin paths do not exist on the public port', async () => {
    const asAdmin = await h.request('GET', '/api/open/runs', { token: h.adminToken });
    expect(asAdmin.status).toBe(401);
    expect(asAdmin.body.error).toBe('invalid_token');
    for (const [method, route] of [
      ['GET', '/api/admin/tenants'],
      ['PUT', '/api/admin/tenants'],
      ['POST', `/api/admin/tenants/${h.tenant.tenant_id}/suspend`],
    ] as const) {
      const res = await h.request(method, route, { token: h.adminToken });
      expect(res.status, `${method} ${route}`).toBe(404);
    }
    // nor the tenants' operations on the admin port
    expect((await h.admin('GET', '/api/open/runs')).status).toBe(404);
    expect((await h.admin('GET', '/api/open/runs', { token: h.tenant.token })).status).toBe(404);
    // health is on both
    expect((await h.admin('GET', '/readyz', { token: null })).status).toBe(200);
  });

  it('each listener serves its own contract and reference', once, async () => {
    const publicContract = await (await fetch(`${h.server.url}/openapi.yaml`)).text();
    const adminContract = await (await fetch(`${h.adminUrl}/openapi.yaml`)).text();
    expect(publicContract).toContain('/api/open/runs');
    expect(publicContract).not.toContain('/api/admin/');
    expect(publicContract).not.toContain('adminAuth');
    expect(adminContract).toContain('/api/admin/tenants');
    const docs = await fetch(`${h.adminUrl}/docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('adminCreateTenant');
  });

  it('a revoked admin token is refused at once', async () => {
    const spare = await h.server.services.adminTokens.issue('spare');
    expect((await h.admin('GET', '/api/admin/tenants', { token: spare.token })).status).toBe(200);
    await h.server.services.adminTokens.revoke(spare.admin_token_id);
    const refused = await h.admin('GET', '/api/admin/tenants', { token: spare.token });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('invalid_token');
  });
});

describe('the admin listener is off unless configured, and on loopback unless told otherwise', once, () => {
  it('ADMIN_PORT unset: no listener; set: ADMIN_HOST is 127.0.0.1 unless set', () => {
    expect(loadConfig({}).adminPort).toBeUndefined();
    expect(loadConfig({ ADMIN_PORT: '9090' })).toMatchObject({ adminPort: 9090, adminHost: '127.0.0.1' });
    expect(loadConfig({ ADMIN_PORT: '9090', ADMIN_HOST: '0.0.0.0' }).adminHost).toBe('0.0.0.0');
    expect(() => loadConfig({ ADMIN_PORT: '70000' })).toThrow(/ADMIN_PORT/);
    expect(h.adminUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });
});

describe('admin tokens are rate limited, each in its own bucket', () => {
  it("an admin token past its burst gets 429 with Retry-After; a tenant's requests meanwhile do not", async () => {
    const limited = await startHarness({ RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '3' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await limited.admin('GET', '/api/admin/tenants')).status);
      expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
      const refused = await limited.admin('GET', '/api/admin/tenants');
      expect(refused.status).toBe(429);
      expect(refused.body.error).toBe('rate_limited');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect((await limited.request('GET', '/api/open/runs')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
