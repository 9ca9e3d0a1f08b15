import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/kernel/config.js';
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
    // a tenant is named by its id or its external id: one no tenant has is not found; one too long is refused
    expect((await h.admin('GET', '/api/admin/tenants/not-a-uuid')).status).toBe(404);
    expect((await h.admin('GET', `/api/admin/tenants/${'x'.repeat(256)}`)).status).toBe(422);
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
    expect(first.body.data).toMatchObject({ imported: 2, skipped: 0 });
    const [po1, po2] = first.body.data.entries as { transaction_id: string }[];
    expect(first.body.data.entries).toEqual([
      { external_id: 'po-1', outcome: 'booked', transaction_id: po1!.transaction_id },
      { external_id: 'po-2', outcome: 'booked', transaction_id: po2!.transaction_id },
    ]);
    // a retry without a key books nothing twice, and says which entries were there already
    const again = await h.admin('POST', route, { json: { entries: [...batch.entries, entry('po-3', 1)] } });
    expect(again.body.data).toMatchObject({ imported: 1, skipped: 2 });
    expect(again.body.data.entries.map((e: { outcome: string }) => e.outcome)).toEqual([
      'duplicate',
      'duplicate',
      'booked',
    ]);
    expect(again.body.data.entries[0].transaction_id).toBe(po1!.transaction_id);
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
    // what is stored is counted at the period's end: before the file was uploaded, nothing
    expect(past.body.data).toMatchObject({
      files_stored: 0,
      bytes_stored: 0,
      as_of: '2020-02-01T00:00:00.000Z',
    });
  });

  it('day by day: every day of the period, the runs of each, what is stored at its end; at most 366 days', async () => {
    const { tenant, token } = await createTenant(`daily-${randomUUID().slice(0, 8)}`);
    const bytes = readPdf('real/cups-filters__classified.pdf');
    const fileId = await uploadPdf(h, bytes, { token: token.token });
    const run = await h.request('POST', '/api/open/runs', { json: { file_id: fileId }, token: token.token });
    const done = await waitForRun(h, run.body.data.id, token.token);
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const route = `/api/admin/tenants/${tenant.tenant_id}/usage?start_date=${day(-2)}&end_date=${day(0)}`;
    const daily = await h.admin('GET', `${route}&granularity=day`);
    expect(daily.status, daily.text).toBe(200);
    const quiet = { runs: 0, pages_processed: 0, points_consumed: 0, files_stored: 0, bytes_stored: 0 };
    expect(daily.body.data.daily).toEqual([
      { date: day(-2), ...quiet },
      { date: day(-1), ...quiet },
      {
        date: day(0),
        runs: 1,
        pages_processed: 1,
        points_consumed: done.points_consumed,
        files_stored: 1,
        bytes_stored: bytes.length,
      },
    ]);
    expect(daily.body.data.runs.total).toBe(1);
    // the total leaves the days out, and a period of a year and a day is too long to tell by day
    expect((await h.admin('GET', route)).body.data.daily).toBeUndefined();
    const long = `/api/admin/tenants/${tenant.tenant_id}/usage?start_date=2025-01-01&end_date=2026-01-02`;
    const tooLong = await h.admin('GET', `${long}&granularity=day`);
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.detail[0]).toMatchObject({ loc: ['query', 'end_date'], type: 'value_error' });
    const year = await h.admin('GET', `${long.replace('2026-01-02', '2026-01-01')}&granularity=day`);
    expect(year.body.data.daily).toHaveLength(366);
    expect((await h.admin('GET', long)).status).toBe(200);
  });

  it("every tenant's usage of a period, page after page by cursor, as each tenant's own", async () => {
    const period = 'start_date=2026-11-01&end_date=2026-11-30';
    const seen: { tenant_id: string }[] = [];
    for (let after: string | null = null; ;) {
      const page = await h.admin(
        'GET',
        `/api/admin/usage?${period}&limit=2${after ? `&starting_after=${after}` : ''}`,
      );
      expect(page.status, page.text).toBe(200);
      seen.push(...page.body.data);
      if (page.body.next_cursor === null) break;
      expect(page.body.data).toHaveLength(2);
      after = page.body.next_cursor;
    }
    const tenants = (await h.admin('GET', '/api/admin/tenants?limit=100')).body;
    expect(seen.map((u) => u.tenant_id)).toEqual(tenants.data.map((t: { tenant_id: string }) => t.tenant_id));
    const one = (await h.admin('GET', `/api/admin/tenants/${h.tenant.tenant_id}/usage?${period}`)).body.data;
    expect(seen.find((u) => u.tenant_id === h.tenant.tenant_id)).toEqual(one);
    const unknown = await h.admin('GET', `/api/admin/usage?starting_after=${randomUUID()}`);
    expect(unknown.status).toBe(404);
    const backwards = await h.admin('GET', '/api/admin/usage?start_date=2026-11-02&end_date=2026-11-01');
    expect(backwards.status).toBe(422);
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

describe('the audit trail by cursor', () => {
  type Event = { id: string; at: string; action: string; tenant_id: string | null };
  const trail = async (query: string) => {
    const res = await h.admin('GET', `/api/admin/audit_events?${query}`);
    expect(res.status, res.text).toBe(200);
    return res.body as { data: Event[]; next_cursor: string | null; total: number };
  };
  /** Every event of `query`, page after page by cursor. */
  const everyEvent = async (query: string, limit = 2) => {
    const events: Event[] = [];
    for (let after: string | null = null; ;) {
      const page = await trail(`${query}&limit=${limit}${after ? `&starting_after=${after}` : ''}`);
      events.push(...page.data);
      if (page.next_cursor === null) return events;
      expect(page.next_cursor).toBe(page.data.at(-1)!.id);
      after = page.next_cursor;
    }
  };

  it('pages both ways in commit order, with the action and time filters, and total counting the filter', async () => {
    const { tenant, token } = await createTenant(`audit-${randomUUID().slice(0, 8)}`);
    for (const price of [3, 4, 5]) {
      const res = await h.admin('PATCH', `/api/admin/tenants/${tenant.tenant_id}`, {
        json: { price_per_point: price },
      });
      expect(res.status, res.text).toBe(200);
    }
    const revoked = await h.admin(
      'POST',
      `/api/admin/tenants/${tenant.tenant_id}/tokens/${token.token_id}/revoke`,
      {
        headers: key(),
      },
    );
    expect(revoked.status, revoked.text).toBe(200);
    const of = `tenant_id=${tenant.tenant_id}`;
    const oldestFirst = await everyEvent(`${of}&order=asc`);
    expect(oldestFirst.map((e) => e.action)).toEqual([
      'tenant.created',
      'tenant.updated',
      'tenant.updated',
      'tenant.updated',
      'token.revoked',
    ]);
    const newestFirst = await everyEvent(of);
    expect(newestFirst.map((e) => e.id)).toEqual(oldestFirst.map((e) => e.id).reverse());
    const firstPage = await trail(`${of}&limit=2`);
    expect(firstPage.total).toBe(5);
    expect(firstPage.next_cursor).toBe(firstPage.data[1]!.id);
    const lastPage = await trail(`${of}&limit=2&starting_after=${oldestFirst[1]!.id}`);
    expect(lastPage.data.map((e) => e.id)).toEqual([oldestFirst[0]!.id]);
    expect(lastPage.next_cursor).toBeNull();
    expect(lastPage.total).toBe(5);

    const updates = await everyEvent(`${of}&action=tenant.updated&order=asc`);
    expect(updates.map((e) => e.id)).toEqual(oldestFirst.slice(1, 4).map((e) => e.id));
    // since inclusive, until exclusive; a time with an offset is the same instant
    const second = oldestFirst[1]!.at;
    const since = await everyEvent(`${of}&order=asc&since=${encodeURIComponent(second)}`);
    expect(since.every((e) => e.at >= second)).toBe(true);
    expect(since.map((e) => e.id)).toEqual(expect.arrayContaining(oldestFirst.slice(1).map((e) => e.id)));
    const until = await everyEvent(`${of}&order=asc&until=${encodeURIComponent(oldestFirst[0]!.at)}`);
    expect(until).toEqual([]);
    const shifted = new Date(Date.parse(oldestFirst[0]!.at)).toISOString().replace('Z', '+00:00');
    const fromShifted = await everyEvent(`${of}&order=asc&since=${encodeURIComponent(shifted)}`);
    expect(fromShifted.map((e) => e.id)).toEqual(oldestFirst.map((e) => e.id));
  });

  it('an unknown cursor is 404; until before since, or an order it does not know, is 422', async () => {
    const unknown = await h.admin('GET', `/api/admin/audit_events?starting_after=${randomUUID()}`);
    expect(unknown.status, unknown.text).toBe(404);
    expect(unknown.body.message).toMatch(/Audit event/);
    const backwards = await h.admin(
      'GET',
      '/api/admin/audit_events?since=2026-12-02T10:00:00.000Z&until=2026-12-02T09:00:00.000Z',
    );
    expect(backwards.status).toBe(422);
    expect(backwards.body.detail).toEqual([
      { loc: ['query', 'until'], msg: 'Value error, until must not be before since', type: 'value_error' },
    ]);
    const same = await h.admin(
      'GET',
      '/api/admin/audit_events?since=2026-12-02T10:00:00.000Z&until=2026-12-02T10:00:00.000Z',
    );
    expect(same.status, same.text).toBe(200);
    expect(same.body.data).toEqual([]);
    const order = await h.admin('GET', '/api/admin/audit_events?order=sideways');
    expect(order.status).toBe(422);
    expect(order.body.detail[0].loc).toEqual(['query', 'order']);
    const action = await h.admin('GET', '/api/admin/audit_events?action=tenant.deleted');
    expect(action.status).toBe(422);
    expect(action.body.detail[0].loc).toEqual(['query', 'action']);
  });

  it('an exporter paging oldest first while 10 admins act sees every event once', async () => {
    const tenants = await Promise.all(
      Array.from({ length: 10 }, (_, i) => createTenant(`audit-writer-${i}-${randomUUID().slice(0, 8)}`)),
    );
    const start = await trail('order=desc&limit=1');
    const from = start.data[0]!.id;
    let writing = true;
    const writers = Promise.all(
      tenants.map(async ({ tenant }) => {
        for (let price = 1; price <= 6; price++) {
          const res = await h.admin('PATCH', `/api/admin/tenants/${tenant.tenant_id}`, {
            json: { price_per_point: price },
          });
          expect(res.status, res.text).toBe(200);
        }
      }),
    ).finally(() => {
      writing = false;
    });
    const exported: string[] = [];
    let after = from;
    for (let quietRounds = 0; quietRounds < 2;) {
      const page = await trail(`order=asc&limit=3&starting_after=${after}`);
      exported.push(...page.data.map((e) => e.id));
      if (page.data.length > 0) after = page.data.at(-1)!.id;
      // done once a read after the last write has found nothing more
      if (page.next_cursor === null && !writing) quietRounds++;
    }
    await writers;
    const truth = await everyEvent(`order=asc&starting_after=${from}`, 100);
    expect(new Set(exported).size).toBe(exported.length);
    expect(exported).toEqual(truth.map((e) => e.id));
    expect(exported.length).toBeGreaterThanOrEqual(60);
  });
});

describe('reconciling the ledger feed', () => {
  const entry = (external_id: string, amount: number, extra: Record<string, unknown> = {}) => ({
    external_id,
    type: 'ecosystem',
    amount,
    currency: 'USD',
    occurred_at: '2026-11-27T18:00:00Z',
    ...extra,
  });
  const tenantWithToken = async () => {
    const { tenant, token } = await createTenant(`ledger-${randomUUID().slice(0, 8)}`);
    return { id: tenant.tenant_id, token: token.token };
  };
  const feed = (tenantId: string, entries: unknown[]) =>
    h.admin('POST', `/api/admin/tenants/${tenantId}/ledger_entries`, { json: { entries } });

  it('an external_id sent again with other content is 409 naming it, and nothing of the batch is booked', async () => {
    const t = await tenantWithToken();
    const booked = await feed(t.id, [entry('inv-1', 500, { description: 'Invoice 1' })]);
    expect(booked.status, booked.text).toBe(200);
    const transactionId = booked.body.data.entries[0].transaction_id as string;
    for (const changed of [
      { amount: 501 },
      { type: 'tech' },
      { occurred_at: '2026-11-28T18:00:00Z' },
      { description: 'Invoice one' },
    ]) {
      const clash = await feed(t.id, [
        entry('inv-2', 7),
        entry('inv-1', 500, { description: 'Invoice 1', ...changed }),
      ]);
      expect(clash.status, JSON.stringify(changed)).toBe(409);
      expect(clash.body.error).toBe('external_id_conflict');
      expect(clash.body.message).toContain('"inv-1"');
      expect(clash.body.message).toContain(transactionId);
    }
    // the same instant written with another offset is the same entry
    const same = await feed(t.id, [
      entry('inv-1', 500, { description: 'Invoice 1', occurred_at: '2026-11-27T19:00:00+01:00' }),
    ]);
    expect(same.body.data.entries[0]).toEqual({
      external_id: 'inv-1',
      outcome: 'duplicate',
      transaction_id: transactionId,
    });
    const listed = await h.request('GET', '/api/open/finance/transactions', { token: t.token });
    expect(listed.body.data.map((x: { external_id: string }) => x.external_id)).toEqual(['inv-1']);
    const reserved = await feed(t.id, [entry('reversal-of:x', 1)]);
    expect(reserved.status).toBe(422);
    expect(reserved.body.detail[0].loc).toEqual(['body', 'entries', '0', 'external_id']);
  });

  it("reads a tenant's ledger back, paged and filtered as the tenant reads it", async () => {
    const t = await tenantWithToken();
    await feed(t.id, [
      entry('a', 1, { occurred_at: '2026-11-01T10:00:00Z' }),
      entry('b', 2, { occurred_at: '2026-11-02T10:00:00Z', type: 'tech' }),
      entry('c', 3, { occurred_at: '2026-11-03T10:00:00Z' }),
    ]);
    const all = await h.admin('GET', `/api/admin/tenants/${t.id}/ledger_entries?limit=2`);
    expect(all.status, all.text).toBe(200);
    expect(all.body).toMatchObject({ total: 3, page: 1, page_size: 2, total_pages: 2 });
    expect(all.body.data.map((x: { external_id: string }) => x.external_id)).toEqual(['c', 'b']);
    const theirs = await h.request('GET', '/api/open/finance/transactions?page_size=2', { token: t.token });
    expect(all.body.data).toEqual(theirs.body.data);
    const next = await h.admin('GET', `/api/admin/tenants/${t.id}/ledger_entries?limit=2&offset=2`);
    expect(next.body.data.map((x: { external_id: string }) => x.external_id)).toEqual(['a']);
    const tech = await h.admin('GET', `/api/admin/tenants/${t.id}/ledger_entries?transaction_type=tech`);
    expect(tech.body.data.map((x: { external_id: string }) => x.external_id)).toEqual(['b']);
    const days = await h.admin(
      'GET',
      `/api/admin/tenants/${t.id}/ledger_entries?start_date=2026-11-02&end_date=2026-11-03`,
    );
    expect(days.body.total).toBe(2);
    const backwards = await h.admin(
      'GET',
      `/api/admin/tenants/${t.id}/ledger_entries?start_date=2026-11-03&end_date=2026-11-02`,
    );
    expect(backwards.status).toBe(422);
    expect((await h.admin('GET', `/api/admin/tenants/${randomUUID()}/ledger_entries`)).status).toBe(404);
  });

  it('reverses an entry once: both in the totals, a second reversal or one of a reversal 409, a replay the same', async () => {
    const t = await tenantWithToken();
    const other = await tenantWithToken();
    const booked = await feed(t.id, [entry('po-9', 12_345, { description: 'Settlement' })]);
    const id = booked.body.data.entries[0].transaction_id as string;
    const route = `/api/admin/tenants/${t.id}/ledger_entries/${id}/reverse`;
    const headers = key();
    const reversed = await h.admin('POST', route, { headers });
    expect(reversed.status, reversed.text).toBe(201);
    const reversal = reversed.body.data;
    expect(reversal).toMatchObject({
      tenant_id: t.id,
      type: 'ecosystem',
      amount: -12_345,
      currency: 'USD',
      source: 'adjustment',
      external_id: `reversal-of:${id}`,
      description: 'Reversal of po-9',
      run_id: null,
    });
    const replay = await h.admin('POST', route, { headers });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.data.id).toBe(reversal.id);
    const twice = await h.admin('POST', route, { json: { description: 'again' } });
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ error: 'already_reversed' });
    expect(twice.body.message).toContain(reversal.id);
    const ofReversal = await h.admin(
      'POST',
      `/api/admin/tenants/${t.id}/ledger_entries/${reversal.id}/reverse`,
    );
    expect(ofReversal.status).toBe(409);
    expect(ofReversal.body.message).toContain('book a new entry');
    // both show to the tenant, and the totals net to zero
    const listed = await h.request('GET', '/api/open/finance/transactions', { token: t.token });
    expect(listed.body.total).toBe(2);
    const dashboard = await h.request('GET', '/api/open/finance/dashboard', { token: t.token });
    expect(dashboard.body.data.all_time.total).toBe(0);
    expect(dashboard.body.data.transaction_count).toBe(2);
    // another tenant's entry, or none, is not found; a description of one's own is kept
    expect(
      (await h.admin('POST', `/api/admin/tenants/${other.id}/ledger_entries/${id}/reverse`)).status,
    ).toBe(404);
    expect(
      (await h.admin('POST', `/api/admin/tenants/${t.id}/ledger_entries/${randomUUID()}/reverse`)).status,
    ).toBe(404);
    const second = await feed(t.id, [entry('po-10', 10)]);
    const described = await h.admin(
      'POST',
      `/api/admin/tenants/${t.id}/ledger_entries/${second.body.data.entries[0].transaction_id}/reverse`,
      { json: { description: 'Refunded in December' } },
    );
    expect(described.body.data.description).toBe('Refunded in December');
    const trail = await h.admin(
      'GET',
      `/api/admin/audit_events?tenant_id=${t.id}&action=ledger.reversed&order=asc`,
    );
    expect(trail.body.data.map((e: { detail: unknown }) => e.detail)).toEqual([
      { transaction_id: id, reversal_id: reversal.id },
      { transaction_id: second.body.data.entries[0].transaction_id, reversal_id: described.body.data.id },
    ]);
  });
});

describe("the platform's admin tokens, scoped and expiring", () => {
  type AdminOperation = { method: string; path: string; id: string; scope: string };
  const contract = load(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8')) as {
    paths: Record<
      string,
      Record<string, { operationId?: string; 'x-audience'?: string; 'x-scope'?: string }>
    >;
  };
  const adminOperations: AdminOperation[] = Object.entries(contract.paths).flatMap(([path, item]) =>
    Object.entries(item).flatMap(([method, operation]) =>
      operation && typeof operation === 'object' && operation['x-audience'] === 'admin'
        ? [{ method: method.toUpperCase(), path, id: operation.operationId!, scope: operation['x-scope']! }]
        : [],
    ),
  );
  const SCOPES = [
    'admin:tenants',
    'admin:tokens',
    'admin:ledger',
    'admin:usage',
    'admin:audit',
    'admin:admin_tokens',
    'admin:exports',
  ];
  const issue = async (json: Record<string, unknown>, token?: string) => {
    const res = await h.admin('POST', '/api/admin/admin_tokens', { json, headers: key(), token });
    expect(res.status, res.text).toBe(201);
    return res.body.data as { admin_token_id: string; token: string; scopes: string[] };
  };
  const call = (operation: AdminOperation, token: string) =>
    h.admin(
      operation.method,
      operation.path.replace(/\{[a-z_]+\}/g, () => randomUUID()),
      {
        token,
        ...(operation.method === 'POST' || operation.method === 'PATCH' ? { json: {} } : {}),
      },
    );

  it("every admin operation names its scope, and each scope is some operation's", () => {
    expect(adminOperations.length).toBeGreaterThanOrEqual(18);
    for (const operation of adminOperations) expect(SCOPES, operation.id).toContain(operation.scope);
    expect(new Set(adminOperations.map((o) => o.scope))).toEqual(new Set(SCOPES));
  });

  it('a token without the scope an operation needs is 403 insufficient_scope there, and with it is not refused', async () => {
    const without = new Map<string, string>();
    const only = new Map<string, string>();
    for (const scope of SCOPES) {
      without.set(
        scope,
        (await issue({ name: `all-but-${scope}`, scopes: SCOPES.filter((s) => s !== scope) })).token,
      );
      only.set(scope, (await issue({ name: `only-${scope}`, scopes: [scope] })).token);
    }
    for (const operation of adminOperations) {
      const refused = await call(operation, without.get(operation.scope)!);
      expect(refused.status, `${operation.id} without ${operation.scope}`).toBe(403);
      expect(refused.body.error).toBe('insufficient_scope');
      expect(refused.headers.get('www-authenticate')).toBe(
        `Bearer error="insufficient_scope", scope="${operation.scope}"`,
      );
      const taken = await call(operation, only.get(operation.scope)!);
      expect([401, 403], `${operation.id} with only ${operation.scope}: ${taken.text}`).not.toContain(
        taken.status,
      );
    }
  });

  it('issues, lists and revokes over the API; grants only scopes it holds; expires; the first token holds every scope', async () => {
    const listed = await h.admin('GET', '/api/admin/admin_tokens');
    expect(listed.status, listed.text).toBe(200);
    const harness = listed.body.data.find((t: { name: string }) => t.name === 'harness');
    expect(harness.scopes).toEqual(SCOPES);
    expect(JSON.stringify(listed.body)).not.toMatch(/ota_admin_[A-Za-z0-9_-]{43}/);

    const billing = await issue({
      name: 'billing-job',
      scopes: ['admin:usage', 'admin:ledger', 'admin:admin_tokens'],
    });
    expect(billing.scopes).toEqual(['admin:ledger', 'admin:usage', 'admin:admin_tokens']);
    expect(billing.token).toMatch(/^ota_admin_[A-Za-z0-9_-]{43}$/);
    expect((await h.admin('GET', '/api/admin/usage', { token: billing.token })).status).toBe(200);
    expect((await h.admin('GET', '/api/admin/tenants', { token: billing.token })).status).toBe(403);
    // it may hand on what it holds, not more
    const narrower = await issue({ name: 'usage-only', scopes: ['admin:usage'] }, billing.token);
    expect(narrower.scopes).toEqual(['admin:usage']);
    const wider = await h.admin('POST', '/api/admin/admin_tokens', {
      json: { name: 'escalate', scopes: ['admin:tenants'] },
      token: billing.token,
    });
    expect(wider.status).toBe(403);
    expect(wider.body.message).toContain('admin:tenants');
    const everything = await h.admin('POST', '/api/admin/admin_tokens', {
      json: { name: 'all' },
      token: billing.token,
    });
    expect(everything.status).toBe(403);

    const past = await h.admin('POST', '/api/admin/admin_tokens', {
      json: { name: 'late', expires_at: '2020-01-01T00:00:00Z' },
    });
    expect(past.status).toBe(422);
    const expiring = await issue({
      name: 'expiring',
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect((await h.admin('GET', '/api/admin/audit_events', { token: expiring.token })).status).toBe(200);
    await h.query('UPDATE admin_tokens SET expires_at = ? WHERE id = ?', [
      '2020-01-01T00:00:00.000Z',
      expiring.admin_token_id,
    ]);
    const expired = await h.admin('GET', '/api/admin/audit_events', { token: expiring.token });
    expect(expired.status).toBe(401);
    expect(expired.body.error).toBe('token_expired');

    const revoked = await h.admin('POST', `/api/admin/admin_tokens/${narrower.admin_token_id}/revoke`, {
      token: billing.token,
    });
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body.data.revoked_at).not.toBeNull();
    const again = await h.admin('POST', `/api/admin/admin_tokens/${narrower.admin_token_id}/revoke`);
    expect(again.body.data.revoked_at).toBe(revoked.body.data.revoked_at);
    expect((await h.admin('GET', '/api/admin/usage', { token: narrower.token })).status).toBe(401);
    expect((await h.admin('POST', `/api/admin/admin_tokens/${randomUUID()}/revoke`)).status).toBe(404);

    const trail = await h.admin('GET', '/api/admin/audit_events?action=admin_token.issued&limit=100');
    const byBilling = trail.body.data.find(
      (e: { target_id: string }) => e.target_id === narrower.admin_token_id,
    );
    expect(byBilling).toMatchObject({
      actor: 'admin_token',
      admin_token_id: billing.admin_token_id,
      detail: { name: 'usage-only', admin_scopes: ['admin:usage'], expires_at: null },
    });
  });
});

describe("tenants by the platform's own id, with metadata", () => {
  const create = (json: Record<string, unknown>) =>
    h.admin('POST', '/api/admin/tenants', { json, headers: key() });

  it('takes an external id wherever a tenant id goes, filters the list by it and by state, and keeps it unique', async () => {
    const externalId = `cus_${randomUUID().slice(0, 8)}`;
    const made = await create({
      name: `ext-${externalId}`,
      external_id: externalId,
      metadata: { plan: 'gold' },
    });
    expect(made.status, made.text).toBe(201);
    const tenant = made.body.data.tenant;
    expect(tenant).toMatchObject({ external_id: externalId, metadata: { plan: 'gold' } });
    const byExternal = await h.admin('GET', `/api/admin/tenants/${externalId}`);
    expect(byExternal.status, byExternal.text).toBe(200);
    expect(byExternal.body.data).toEqual(tenant);
    expect((await h.admin('GET', `/api/admin/tenants/${externalId}/usage`)).body.data.tenant_id).toBe(
      tenant.tenant_id,
    );
    const fed = await h.admin('POST', `/api/admin/tenants/${externalId}/ledger_entries`, {
      json: {
        entries: [
          {
            external_id: 'x-1',
            type: 'ecosystem',
            amount: 5,
            currency: 'USD',
            occurred_at: '2026-11-01T00:00:00Z',
          },
        ],
      },
    });
    expect(fed.status, fed.text).toBe(200);
    expect((await h.admin('GET', `/api/admin/tenants/${tenant.tenant_id}/ledger_entries`)).body.total).toBe(
      1,
    );
    const suspended = await h.admin('POST', `/api/admin/tenants/${externalId}/suspend`, { headers: key() });
    expect(suspended.body.data.state).toBe('suspended');
    const listed = await h.admin('GET', `/api/admin/tenants?external_id=${externalId}`);
    expect(listed.body).toMatchObject({ total: 1 });
    expect(listed.body.data[0].tenant_id).toBe(tenant.tenant_id);
    const bySuspended = await h.admin('GET', '/api/admin/tenants?state=suspended&limit=100');
    expect(bySuspended.body.data.map((t: { tenant_id: string }) => t.tenant_id)).toContain(tenant.tenant_id);
    const byActive = await h.admin('GET', '/api/admin/tenants?state=active&limit=100');
    expect(byActive.body.data.every((t: { state: string }) => t.state === 'active')).toBe(true);
    await h.admin('POST', `/api/admin/tenants/${externalId}/resume`, { headers: key() });

    const taken = await create({ name: `other-${externalId}`, external_id: externalId });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toBe('tenant_external_id_taken');
    const second = (await create({ name: `second-${externalId}` })).body.data.tenant;
    const clash = await h.admin('PATCH', `/api/admin/tenants/${second.tenant_id}`, {
      json: { external_id: externalId },
    });
    expect(clash.status).toBe(409);
    expect(clash.body.error).toBe('tenant_external_id_taken');
    const uuidLike = await create({ name: `uuid-${externalId}`, external_id: randomUUID() });
    expect(uuidLike.status).toBe(422);
    expect(uuidLike.body.detail[0].loc).toEqual(['body', 'external_id']);
    expect((await h.admin('GET', '/api/admin/tenants/cus_nobody_has_this')).status).toBe(404);
    // removed, the id no longer names the tenant
    const removed = await h.admin('PATCH', `/api/admin/tenants/${externalId}`, {
      json: { external_id: null },
    });
    expect(removed.body.data.external_id).toBeNull();
    expect((await h.admin('GET', `/api/admin/tenants/${externalId}`)).status).toBe(404);
  });

  it('merges metadata as Stripe does, and bounds it: 50 keys of 1 to 40 characters, values of 500', async () => {
    const made = await create({
      name: `meta-${randomUUID().slice(0, 8)}`,
      metadata: { plan: 'gold', region: 'eu' },
    });
    const id = made.body.data.tenant.tenant_id;
    const merged = await h.admin('PATCH', `/api/admin/tenants/${id}`, {
      json: { metadata: { plan: 'platinum', region: '', crm: '42' } },
    });
    expect(merged.status, merged.text).toBe(200);
    expect(merged.body.data.metadata).toEqual({ plan: 'platinum', crm: '42' });
    const trail = await h.admin('GET', `/api/admin/audit_events?tenant_id=${id}&action=tenant.updated`);
    expect(trail.body.data[0].detail).toEqual({ metadata: { plan: 'platinum', region: '', crm: '42' } });
    const fifty = Object.fromEntries(Array.from({ length: 49 }, (_, i) => [`k${i}`, 'v']));
    const tooMany = await h.admin('PATCH', `/api/admin/tenants/${id}`, { json: { metadata: fifty } });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.detail[0].loc).toEqual(['body', 'metadata']);
    expect((await h.admin('GET', `/api/admin/tenants/${id}`)).body.data.metadata).toEqual({
      plan: 'platinum',
      crm: '42',
    });
    const justFits = Object.fromEntries(Array.from({ length: 48 }, (_, i) => [`k${i}`, 'v']));
    expect(
      (await h.admin('PATCH', `/api/admin/tenants/${id}`, { json: { metadata: justFits } })).status,
    ).toBe(200);
    const longKey = await h.admin('PATCH', `/api/admin/tenants/${id}`, {
      json: { metadata: { ['k'.repeat(41)]: 'v' } },
    });
    expect(longKey.status).toBe(422);
    expect(longKey.body.detail[0].loc).toEqual(['body', 'metadata', 'k'.repeat(41)]);
    const longValue = await h.admin('PATCH', `/api/admin/tenants/${id}`, {
      json: { metadata: { a: 'v'.repeat(501) } },
    });
    expect(longValue.status).toBe(422);
    // 50 keys now: a value of 500 characters replaces one, a 51st key is refused
    const longest = await h.admin('PATCH', `/api/admin/tenants/${id}`, {
      json: { metadata: { plan: 'v'.repeat(500) } },
    });
    expect(longest.status).toBe(200);
    expect(
      (await h.admin('PATCH', `/api/admin/tenants/${id}`, { json: { metadata: { extra: 'v' } } })).status,
    ).toBe(422);
  });
});
