import { randomUUID } from 'node:crypto';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../../test/helpers/harness.js';
import {
  type AdminTenant,
  type AdminToken,
  type AuditEvent,
  createAdminClient,
  createClient,
  type OpenTenantAdminClient,
  OtaError,
  type RetryNotice,
} from '../src/index.js';
import { runOta } from './helpers/run-ota.js';

/**
 * The admin client and `ota admin` against the real server's admin listener (ADMIN_PORT), with the admin
 * token the harness issued. A small proxy in front of the admin listener can lose an answer or answer 409,
 * 429 or 503, to show that the admin client retries as the tenant client does, under the same key.
 */
let h: Harness;
let proxy: Server;
let proxyUrl: string;
/** Decides, per request through the proxy, whether to interfere. */
let interfere: (req: IncomingMessage, res: ServerResponse) => boolean = () => false;

/** Forwards a request to the admin listener; `answered` gets the upstream answer (default: pass it on). */
function forward(req: IncomingMessage, res: ServerResponse, answered?: (answer: IncomingMessage) => void) {
  const target = new URL(h.adminUrl);
  const upstream = request(
    { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
    (answer) => {
      if (answered) return answered(answer);
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  req.pipe(upstream);
}

/** A failing envelope as the server writes one. */
function refuse(res: ServerResponse, status: number, error: string, retryAfter: string) {
  res.writeHead(status, { 'retry-after': retryAfter, 'content-type': 'application/json' });
  res.end(JSON.stringify({ code: status, message: error, error, data: null, timestamp: 0 }));
}

beforeAll(async () => {
  h = await startHarness();
  proxy = createServer((req, res) => {
    if (!interfere(req, res)) forward(req, res);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', () => resolve()));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  proxy.close();
  await h.close();
});

const admin = (baseUrl = h.adminUrl, onRetry?: (notice: RetryNotice) => void): OpenTenantAdminClient =>
  createAdminClient({ baseUrl, token: h.adminToken, retry: { baseDelayMs: 20 }, onRetry });
const tenantClient = (token: string) => createClient({ baseUrl: h.url, token, retry: { retries: 0 } });
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error as OtaError,
  );

describe('the admin client', () => {
  it('creates, lists, gets, renames and reprices tenants; the first token works on the public API', async () => {
    const created = await admin().createTenant({ name: 'initech', currency: 'EUR', price_per_point: 12 });
    expect(created.tenant).toMatchObject({
      name: 'initech',
      currency: 'EUR',
      price_per_point: 12,
      state: 'active',
      suspended_at: null,
    });
    expect(created.token).toMatchObject({ tenant_id: created.tenant.tenant_id, revoked_at: null });
    expect(created.token.token).toMatch(/^ota_/);
    expect((await tenantClient(created.token.token).listRuns()).total).toBe(0);
    // what is left out is the server's default
    const plain = await admin().createTenant({ name: 'plain-co' });
    expect(plain.tenant).toMatchObject({ currency: 'USD', price_per_point: 10 });

    const id = created.tenant.tenant_id;
    expect(await admin().getTenant(id)).toEqual(created.tenant);
    const page = await admin().listTenants({ limit: 2, offset: 1 });
    expect(page).toMatchObject({ page_size: 2 });
    expect(page.data.map((t) => t.name)).toEqual(['globex', 'initech']);
    const all: AdminTenant[] = [];
    for await (const tenant of admin().tenants()) all.push(tenant);
    expect(all.map((t) => t.name)).toEqual(['acme', 'globex', 'initech', 'plain-co']);
    expect(all).toHaveLength((await admin().listTenants()).total);

    expect(await admin().updateTenant(id, { name: 'initech-gmbh' })).toMatchObject({
      name: 'initech-gmbh',
      price_per_point: 12,
    });
    expect(await admin().updateTenant(id, { price_per_point: 25 })).toMatchObject({
      name: 'initech-gmbh',
      price_per_point: 25,
    });
  });

  it('suspends a tenant (its token gets 403 tenant_suspended) and resumes it', async () => {
    const { tenant, token } = await admin().createTenant({ name: 'suspend-me' });
    const suspended = await admin().suspendTenant(tenant.tenant_id);
    expect(suspended.state).toBe('suspended');
    expect(suspended.suspended_at).toBeTruthy();
    expect(await failure(tenantClient(token.token).listRuns())).toMatchObject({
      status: 403,
      error: 'tenant_suspended',
    });
    expect(await admin().resumeTenant(tenant.tenant_id)).toMatchObject({
      state: 'active',
      suspended_at: null,
    });
    expect((await tenantClient(token.token).listRuns()).total).toBe(0);
  });

  it('issues a scoped, expiring token, lists tokens without secrets, revokes one', async () => {
    const { tenant, token: first } = await admin().createTenant({ name: 'rotate-co' });
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const issued = await admin().issueToken(tenant.tenant_id, {
      name: 'ci',
      scopes: ['runs:read'],
      expires_at: expiresAt,
    });
    expect(issued).toMatchObject({
      name: 'ci',
      scopes: ['runs:read'],
      expires_at: expiresAt,
      tenant_id: tenant.tenant_id,
      revoked_at: null,
    });
    expect((await tenantClient(issued.token).listRuns()).total).toBe(0);
    expect(await failure(tenantClient(issued.token).dashboard())).toMatchObject({
      status: 403,
      error: 'insufficient_scope',
    });
    const listed: AdminToken[] = await admin().listTokens(tenant.tenant_id);
    expect(listed.map((t) => t.token_id)).toEqual([first.token_id, issued.token_id]);
    expect(JSON.stringify(listed)).not.toContain(issued.token);
    const revoked = await admin().revokeToken(tenant.tenant_id, first.token_id);
    expect(revoked.token_id).toBe(first.token_id);
    expect(revoked.revoked_at).toBeTruthy();
    expect(await failure(tenantClient(first.token).listRuns())).toMatchObject({
      status: 401,
      error: 'invalid_token',
    });
  });

  it("reads the audit trail, one tenant's or the whole of it, page after page", async () => {
    const { tenant } = await admin().createTenant({ name: 'audited-co' });
    await admin().updateTenant(tenant.tenant_id, { price_per_point: 7 });
    const trail = await admin().listAuditEvents({ tenant_id: tenant.tenant_id });
    expect(trail.data.map((e) => e.action)).toEqual(['tenant.updated', 'tenant.created']);
    expect(trail.data[0]).toMatchObject({
      actor: 'admin_token',
      target_id: tenant.tenant_id,
      detail: { price_per_point: 7 },
    });
    const every: AuditEvent[] = [];
    for await (const event of admin().auditEvents()) every.push(event);
    expect(every).toHaveLength((await admin().listAuditEvents({ limit: 1 })).total);
    expect(every.length).toBeGreaterThan(2);
  });

  it('feeds the ledger once per external_id, and reads the usage of a period', async () => {
    const { tenant, token } = await admin().createTenant({ name: 'fed-co', currency: 'EUR' });
    const entries = [
      {
        external_id: 'po-1',
        type: 'ecosystem' as const,
        amount: 125000,
        currency: 'EUR',
        occurred_at: '2026-11-02T18:00:00Z',
      },
      {
        external_id: 'po-2',
        type: 'tech' as const,
        amount: -500,
        currency: 'EUR',
        occurred_at: '2026-11-03T09:00:00Z',
        description: 'refund',
      },
    ];
    const first = await admin().appendLedgerEntries(tenant.tenant_id, entries);
    expect(first).toMatchObject({ imported: 2, skipped: 0 });
    const again = await admin().appendLedgerEntries(tenant.tenant_id, entries);
    expect(again).toMatchObject({ imported: 0, skipped: 2 });
    expect(again.entries.map((e) => [e.outcome, e.transaction_id])).toEqual(
      first.entries.map((e) => ['duplicate', e.transaction_id]),
    );
    // read back by the platform, and one reversed
    const ledger = await admin().listLedgerEntries(tenant.tenant_id, { limit: 10 });
    expect(ledger.total).toBe(2);
    const reversal = await admin().reverseLedgerEntry(tenant.tenant_id, first.entries[0]!.transaction_id);
    expect(reversal.source).toBe('adjustment');
    expect((await admin().listLedgerEntries(tenant.tenant_id)).total).toBe(3);
    const booked = await tenantClient(token.token).listTransactions({
      start_date: '2026-11-01',
      end_date: '2026-11-30',
    });
    expect(booked.data.map((t) => t.amount).sort((a, b) => a - b)).toEqual([-500, 125000]);
    const wrongCurrency = await failure(
      admin().appendLedgerEntries(tenant.tenant_id, [
        { ...entries[0]!, external_id: 'po-3', currency: 'USD' },
      ]),
    );
    expect(wrongCurrency).toMatchObject({ status: 422, error: 'validation_error' });

    const usage = await admin().tenantUsage(tenant.tenant_id, {
      start_date: '2026-11-01',
      end_date: '2026-11-30',
    });
    expect(usage).toMatchObject({
      tenant_id: tenant.tenant_id,
      start_date: '2026-11-01',
      end_date: '2026-11-30',
      runs: { total: 0 },
      files_stored: 0,
      bytes_stored: 0,
    });
    const backwards = await failure(
      admin().tenantUsage(tenant.tenant_id, { start_date: '2026-11-02', end_date: '2026-11-01' }),
    );
    expect(backwards).toMatchObject({ status: 422 });
    expect(backwards.detail.map((d) => d.loc.join('.'))).toEqual(['query.end_date']);
    const daily = await admin().tenantUsage(tenant.tenant_id, {
      start_date: '2026-11-01',
      end_date: '2026-11-30',
      granularity: 'day',
    });
    expect(daily.daily).toHaveLength(30);
    const every = await admin().listUsage({ start_date: '2026-11-01', end_date: '2026-11-30', limit: 100 });
    expect(every.data.find((u) => u.tenant_id === tenant.tenant_id)).toEqual(usage);
  });

  it('every failure is a typed OtaError: 404, 409 tenant_name_taken, 422 with detail, 401', async () => {
    const missing = await failure(admin().getTenant(randomUUID()));
    expect(missing).toBeInstanceOf(OtaError);
    expect(missing).toMatchObject({ status: 404, error: 'not_found' });
    expect(missing.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await failure(admin().createTenant({ name: 'acme' }))).toMatchObject({
      status: 409,
      error: 'tenant_name_taken',
    });
    const renamed = await failure(admin().updateTenant(h.other.tenant_id, { name: 'acme' }));
    expect(renamed).toMatchObject({ status: 409, error: 'tenant_name_taken' });
    const invalid = await failure(admin().createTenant({ name: ' padded', currency: 'euro' }));
    expect(invalid).toMatchObject({ status: 422, error: 'validation_error' });
    expect([...new Set(invalid.detail.map((d) => d.loc.join('.')))]).toEqual(['body.name', 'body.currency']);
    expect(invalid.describe()).toMatch(/^Validation failed: body\.name: .+; body\.currency: .+ \(request /);
    // a token of another tenant is 404 on this tenant's path
    for (const call of [
      () => admin().suspendTenant(randomUUID()),
      () => admin().resumeTenant(randomUUID()),
      () => admin().listTokens(randomUUID()),
      () => admin().issueToken(randomUUID(), { name: 'x' }),
      () => admin().revokeToken(h.other.tenant_id, h.tenant.token_id),
    ])
      expect(await failure(call())).toMatchObject({ status: 404, error: 'not_found' });
    const asTenant = createAdminClient({ baseUrl: h.adminUrl, token: h.tenant.token });
    expect(await failure(asTenant.listTenants())).toMatchObject({ status: 401, error: 'invalid_token' });
  });
});

describe('retries: the tenant client transport, an Idempotency-Key on every POST', () => {
  it('a create whose answer is lost is sent again under the same key: one tenant, and its token works', async () => {
    const keys: string[] = [];
    interfere = (req, res) => {
      if (req.method !== 'POST' || req.url !== '/api/admin/tenants') return false;
      keys.push(String(req.headers['idempotency-key']));
      if (keys.length > 1) return false;
      // the server creates the tenant; the client never hears its answer
      forward(req, res, (answer) => {
        answer.resume();
        answer.on('end', () => res.socket?.destroy());
      });
      return true;
    };
    try {
      const before = (await admin().listTenants()).total;
      const notices: RetryNotice[] = [];
      const created = await admin(proxyUrl, (notice) => notices.push(notice)).createTenant({
        name: 'lost-answer-co',
      });
      expect(keys).toHaveLength(2);
      expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
      expect(keys[1]).toBe(keys[0]);
      expect(notices.map((n) => n.status)).toEqual(['network']);
      expect((await admin().listTenants()).total).toBe(before + 1);
      // the replay's secret is the one that works (the unseen first one is revoked)
      expect((await tenantClient(created.token.token).listRuns()).total).toBe(0);
      expect(
        (await admin().listTokens(created.tenant.tenant_id)).filter((t) => t.revoked_at === null),
      ).toHaveLength(1);
    } finally {
      interfere = () => false;
    }
  });

  it('409 idempotency_key_in_use and 503 are retried after Retry-After under the same key; 429 too', async () => {
    const { tenant } = await admin().createTenant({ name: 'busy-co' });
    const keys: string[] = [];
    let listed = 0;
    interfere = (req, res) => {
      if (req.method === 'GET' && req.url?.startsWith('/api/admin/tenants?') && listed++ === 0) {
        refuse(res, 429, 'rate_limited', '0');
        return true;
      }
      if (req.method !== 'POST' || !req.url?.endsWith('/suspend')) return false;
      keys.push(String(req.headers['idempotency-key']));
      if (keys.length === 1) refuse(res, 409, 'idempotency_key_in_use', '1');
      else if (keys.length === 2) refuse(res, 503, 'store_unavailable', '0');
      else return false;
      return true;
    };
    try {
      const notices: RetryNotice[] = [];
      const client = admin(proxyUrl, (notice) => notices.push(notice));
      const started = Date.now();
      const suspended = await client.suspendTenant(tenant.tenant_id);
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
      expect(suspended.state).toBe('suspended');
      expect(keys).toHaveLength(3);
      expect(new Set(keys).size).toBe(1);
      expect((await client.listTenants({ limit: 1 })).data).toHaveLength(1);
      expect(notices.map((n) => [n.status, n.error])).toEqual([
        [409, 'idempotency_key_in_use'],
        [503, 'store_unavailable'],
        [429, 'rate_limited'],
      ]);
      expect(client.rateLimit).toMatchObject({ limit: 1000000 });
    } finally {
      interfere = () => false;
    }
  });

  it('409 tenant_name_taken is an answer, not a retry', async () => {
    let posts = 0;
    interfere = (req) => {
      if (req.method === 'POST') posts++;
      return false;
    };
    try {
      const notices: RetryNotice[] = [];
      const taken = await failure(admin(proxyUrl, (n) => notices.push(n)).createTenant({ name: 'acme' }));
      expect(taken).toMatchObject({ status: 409, error: 'tenant_name_taken' });
      expect(posts).toBe(1);
      expect(notices).toEqual([]);
    } finally {
      interfere = () => false;
    }
  });
});

describe('ota admin', () => {
  /** `ota` in this process (see runOta), with the admin listener and token in the environment. */
  const ota = (args: string[], env: Record<string, string> = {}) =>
    runOta(args, { OTA_ADMIN_URL: h.adminUrl, OTA_ADMIN_TOKEN: h.adminToken, ...env });
  const TENANT_HEADER = /^TENANT\s+NAME\s+CURRENCY\s+PRICE\/POINT\s+STATE\s+CREATED\s+API VERSION$/;
  const TOKEN_HEADER = /^TOKEN\s+NAME\s+PREFIX\s+STATE\s+SCOPES\s+LAST USED$/;
  const lines = (text: string) => text.trimEnd().split('\n');

  it('tenants create, get, list, rename, set-price, suspend, resume: tables, and --json', async () => {
    const created = await ota([
      'admin',
      'tenants',
      'create',
      '--name',
      'cli-co',
      '--currency',
      'EUR',
      '--price-per-point',
      '12',
    ]);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const [header, row, blank, secret] = lines(created.stdout);
    expect(header).toMatch(TENANT_HEADER);
    expect(row).toMatch(/^([0-9a-f-]{36})\s+cli-co\s+EUR\s+0\.12 EUR\s+active\s+\d{4}-\d\d-\d\dT/);
    expect(blank).toBe('');
    expect(secret).toMatch(/^API token [0-9a-f-]{36} \(shown only now\): ota_[A-Za-z0-9_-]{43}$/);
    const id = row!.split(/\s+/)[0]!;
    expect((await tenantClient(secret!.split(': ')[1]!).listRuns()).total).toBe(0);

    const json = await ota(['admin', 'tenants', 'create', '--name', 'cli-json-co', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      tenant: { name: 'cli-json-co', currency: 'USD', price_per_point: 10 },
      token: { token: expect.stringMatching(/^ota_/) },
    });

    const got = await ota(['admin', 'tenants', 'get', id]);
    expect(lines(got.stdout)).toEqual([expect.stringMatching(TENANT_HEADER), expect.stringContaining(id)]);
    expect(JSON.parse((await ota(['admin', 'tenants', 'get', id, '--json'])).stdout)).toMatchObject({
      tenant_id: id,
      name: 'cli-co',
    });

    const listed = await ota(['admin', 'tenants', 'list', '--limit', '2']);
    const total = (await admin().listTenants()).total;
    expect(lines(listed.stdout)[0]).toMatch(TENANT_HEADER);
    expect(lines(listed.stdout)[1]).toMatch(/^[0-9a-f-]{36}\s+acme\s+USD\s+0\.10 USD\s+active/);
    expect(lines(listed.stdout).at(-1)).toBe(`2 of ${total} tenants`);
    const everyOne = JSON.parse((await ota(['admin', 'tenants', 'list', '--all', '--json'])).stdout);
    expect(everyOne.total).toBe(total);
    expect(everyOne.data).toHaveLength(total);
    const offset = JSON.parse((await ota(['admin', 'tenants', 'list', '--offset', '1', '--json'])).stdout);
    expect(offset.data[0].name).toBe('globex');

    const renamed = await ota(['admin', 'tenants', 'rename', id, '--name', 'cli-gmbh']);
    expect(lines(renamed.stdout)[1]).toMatch(/\s+cli-gmbh\s+EUR\s+0\.12 EUR\s+active/);
    const repriced = await ota(['admin', 'tenants', 'set-price', id, '--price-per-point', '30', '--json']);
    expect(JSON.parse(repriced.stdout)).toMatchObject({ name: 'cli-gmbh', price_per_point: 30 });
    const suspended = await ota(['admin', 'tenants', 'suspend', id]);
    expect(lines(suspended.stdout)[1]).toMatch(/\s+0\.30 EUR\s+suspended \d{4}-\d\d-\d\dT\S+\s+\d{4}/);
    expect((await admin().getTenant(id)).state).toBe('suspended');
    const resumed = await ota(['admin', 'tenants', 'resume', id, '--json']);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ state: 'active', suspended_at: null });
  });

  it('tenants pin: the version a tenant gets without Open-Tenant-Version; an unknown one is refused', async () => {
    const { tenant, token } = await admin().createTenant({ name: 'cli-pin-co' });
    const pinned = await ota(['admin', 'tenants', 'pin', tenant.tenant_id, '2026-11-29']);
    expect(pinned.code).toBe(0);
    expect(lines(pinned.stdout)[1]).toMatch(/\s2026-11-29$/);
    expect((await admin().getTenant(tenant.tenant_id)).api_version).toBe('2026-11-29');
    // the tenant's own view says so: ota sends its version, the pin is what a bare request gets
    expect((await tenantClient(token.token).versions()).pinned).toBe('2026-11-29');
    const refused = await ota(['admin', 'tenants', 'pin', tenant.tenant_id, '2020-01-01']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error: /);
    expect((await admin().getTenant(tenant.tenant_id)).api_version).toBe('2026-11-29');
  });

  it('tokens issue, list, revoke: tables with the state and scopes, the secret once', async () => {
    const { tenant, token: first } = await admin().createTenant({ name: 'cli-tokens-co' });
    const expiresAt = '2099-01-01T00:00:00.000Z';
    const issued = await ota([
      'admin',
      'tokens',
      'issue',
      tenant.tenant_id,
      '--name',
      'ci',
      '--scope',
      'runs:read',
      '--scope',
      'runs:write',
      '--expires-at',
      expiresAt,
    ]);
    expect(issued).toMatchObject({ code: 0, stderr: '' });
    const [header, row, , secret] = lines(issued.stdout);
    expect(header).toMatch(TOKEN_HEADER);
    expect(row).toMatch(
      new RegExp(
        `^[0-9a-f-]{36}\\s+ci\\s+ota_\\S+\\s+active, expires ${expiresAt}\\s+runs:read runs:write\\s+-$`,
      ),
    );
    expect(secret).toMatch(/^API token [0-9a-f-]{36} \(shown only now\): ota_/);
    const plain = JSON.parse(
      (await ota(['admin', 'tokens', 'issue', tenant.tenant_id, '--name', 'x', '--json'])).stdout,
    );
    expect(plain.scopes).toHaveLength(8);
    expect(plain.expires_at).toBeNull();

    const revoked = await ota(['admin', 'tokens', 'revoke', tenant.tenant_id, first.token_id]);
    expect(revoked.code).toBe(0);
    expect(lines(revoked.stdout)[1]).toMatch(
      new RegExp(`^${first.token_id}\\s+default\\s+ota_\\S+\\s+revoked \\d{4}-\\S+\\s+all\\s+-$`),
    );
    const listed = await ota(['admin', 'tokens', 'list', tenant.tenant_id]);
    expect(lines(listed.stdout)).toHaveLength(4);
    expect(lines(listed.stdout)[0]).toMatch(TOKEN_HEADER);
    expect(listed.stdout).toMatch(/\s+revoked \S+\s+all\s/);
    expect(listed.stdout).toMatch(/\s+ci\s+ota_\S+\s+active, expires/);
    const json = JSON.parse((await ota(['admin', 'tokens', 'list', tenant.tenant_id, '--json'])).stdout);
    expect(json.map((t: AdminToken) => t.name)).toEqual(['default', 'ci', 'x']);
    expect(json[0].revoked_at).toBeTruthy();
  });

  it('usage: a period of a tenant as lines, and --json; a period that ends before it starts is refused', async () => {
    const { tenant } = await admin().createTenant({ name: 'cli-usage-co' });
    const usage = await ota([
      'admin',
      'usage',
      tenant.tenant_id,
      '--from',
      '2026-11-01',
      '--to',
      '2026-11-30',
    ]);
    expect(usage.code).toBe(0);
    expect(lines(usage.stdout)).toEqual([
      `tenant ${tenant.tenant_id}, 2026-11-01 to 2026-11-30`,
      'runs              0 (queued 0, running 0, succeeded 0, failed 0, cancelled 0)',
      'by pipeline       -',
      'pages processed   0',
      'points consumed   0',
      expect.stringMatching(/^files stored {6}0 \(0 bytes, as of \d{4}-\d\d-\d\dT\S+Z\)$/),
    ]);
    const json = JSON.parse((await ota(['admin', 'usage', tenant.tenant_id, '--json'])).stdout);
    expect(json).toMatchObject({ tenant_id: tenant.tenant_id, runs: { total: 0 } });
    expect(json.start_date).toMatch(/^\d{4}-\d\d-01$/);
    const backwards = await ota([
      'admin',
      'usage',
      tenant.tenant_id,
      '--from',
      '2026-11-02',
      '--to',
      '2026-11-01',
    ]);
    expect(backwards.code).toBe(1);
    expect(backwards.stderr).toMatch(/query\.end_date/);
  });

  it("audit: the trail as a table, one tenant's with --tenant, --all and --json", async () => {
    const { tenant } = await admin().createTenant({ name: 'cli-audit-co', currency: 'EUR' });
    await admin().updateTenant(tenant.tenant_id, { price_per_point: 3 });
    const trail = await ota(['admin', 'audit', '--tenant', tenant.tenant_id]);
    expect(trail.code).toBe(0);
    expect(lines(trail.stdout)).toEqual([
      expect.stringMatching(/^AT\s+ACTION\s+ACTOR\s+TENANT\s+TARGET\s+DETAIL$/),
      expect.stringMatching(
        new RegExp(
          `^\\S+Z\\s+tenant\\.updated\\s+admin_token\\s+${tenant.tenant_id}\\s+${tenant.tenant_id}\\s+price_per_point=3$`,
        ),
      ),
      expect.stringMatching(
        /\s+tenant\.created\s+admin_token\s+.+\s+name=cli-audit-co currency=EUR price_per_point=10 api_version=\d{4}-\d\d-\d\d$/,
      ),
      '2 of 2 events',
    ]);
    const recent = await ota(['admin', 'audit', '--limit', '1']);
    expect(lines(recent.stdout)).toHaveLength(3);
    expect(lines(recent.stdout)[1]).toMatch(/tenant\.updated/);
    const all = JSON.parse((await ota(['admin', 'audit', '--all', '--json'])).stdout);
    expect(all.data).toHaveLength(all.total);
    expect(all.data.find((e: AuditEvent) => e.action === 'admin_token.issued')).toMatchObject({
      actor: 'operator',
      tenant_id: null,
    });
  });

  it('failures: the message and request id on stderr and exit 1 (404, 409, 422 with detail); --json on stdout', async () => {
    const missing = await ota(['admin', 'tenants', 'get', '00000000-0000-4000-8000-000000000000']);
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr).toMatch(/^error: Tenant not found \(request [0-9a-f-]{36}\)\n$/);
    const taken = await ota(['admin', 'tenants', 'create', '--name', 'acme']);
    expect(taken).toMatchObject({ code: 1, stdout: '' });
    expect(taken.stderr).toMatch(/^error: Another tenant is named "acme" \(request [0-9a-f-]{36}\)\n$/);
    const takenJson = await ota([
      'admin',
      'tenants',
      'rename',
      h.other.tenant_id,
      '--name',
      'acme',
      '--json',
    ]);
    expect(takenJson).toMatchObject({ code: 1, stderr: '' });
    expect(JSON.parse(takenJson.stdout)).toMatchObject({ error: 'tenant_name_taken', status: 409 });
    const invalid = await ota(['admin', 'tenants', 'create', '--name', ' padded', '--currency', 'euro']);
    expect(invalid).toMatchObject({ code: 1, stdout: '' });
    expect(invalid.stderr).toMatch(
      /^error: Validation failed: body\.name: .+; body\.currency: .+ \(request [0-9a-f-]{36}\)\n$/,
    );
    const past = await ota([
      'admin',
      'tokens',
      'issue',
      h.other.tenant_id,
      '--name',
      'old',
      '--expires-at',
      '2020-01-01T00:00:00Z',
      '--json',
    ]);
    expect(past.code).toBe(1);
    expect(JSON.parse(past.stdout)).toMatchObject({
      error: 'validation_error',
      status: 422,
      detail: [expect.objectContaining({ loc: ['body', 'expires_at'] })],
    });
    const notHers = await ota(['admin', 'tokens', 'revoke', h.other.tenant_id, h.tenant.token_id]);
    expect(notHers.code).toBe(1);
    expect(notHers.stderr).toMatch(/^error: .*not found.* \(request /i);
  });

  it('usage errors exit 2: no admin URL or token, an unknown scope, a price that is not a whole number', async () => {
    const noUrl = await ota(['admin', 'tenants', 'list'], { OTA_ADMIN_URL: '' });
    expect(noUrl).toMatchObject({ code: 2, stdout: '' });
    expect(noUrl.stderr).toBe('error: no admin server: set OTA_ADMIN_URL or pass --admin-url\n');
    const noToken = await ota(['admin', 'audit', '--json'], { OTA_ADMIN_TOKEN: '' });
    expect(noToken.code).toBe(2);
    expect(JSON.parse(noToken.stdout)).toEqual({
      error: 'usage',
      message: 'no admin token: set OTA_ADMIN_TOKEN or pass --admin-token',
    });
    // the tenant's OTA_URL and OTA_TOKEN are not the admin API's
    const tenantOnly = await ota(['admin', 'tenants', 'list'], {
      OTA_ADMIN_URL: '',
      OTA_URL: h.url,
      OTA_TOKEN: h.tenant.token,
    });
    expect(tenantOnly.code).toBe(2);
    const scope = await ota([
      'admin',
      'tokens',
      'issue',
      h.other.tenant_id,
      '--name',
      'x',
      '--scope',
      'runs:delete',
    ]);
    expect(scope.code).toBe(2);
    expect(scope.stderr).toMatch(
      /^error: option '--scope <scope>' argument 'runs:delete' is invalid\. must be one of finance:read, /,
    );
    const price = await ota(['admin', 'tenants', 'set-price', h.other.tenant_id, '--price-per-point', '1.5']);
    expect(price.code).toBe(2);
    const noName = await ota(['admin', 'tenants', 'create']);
    expect(noName).toMatchObject({
      code: 2,
      stderr:
        "error: required option '--name <name>' not specified\nusage: ota admin tenants create [options]\n",
    });
  });

  it('--admin-url and --admin-token instead of the environment; a tenant token there is refused', async () => {
    const listed = await ota(
      ['admin', 'tenants', 'list', '--admin-url', h.adminUrl, '--admin-token', h.adminToken, '--json'],
      { OTA_ADMIN_URL: '', OTA_ADMIN_TOKEN: '' },
    );
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout).data[0].name).toBe('acme');
    const refused = await ota(['admin', '--admin-token', h.tenant.token, 'tenants', 'list']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error: .+ \(request [0-9a-f-]{36}\)\n$/);
  });

  it('a create told to wait (409 idempotency_key_in_use) says so on stderr, then prints the tenant', async () => {
    const keys: string[] = [];
    interfere = (req, res) => {
      if (req.method !== 'POST' || req.url !== '/api/admin/tenants') return false;
      keys.push(String(req.headers['idempotency-key']));
      if (keys.length > 1) return false;
      refuse(res, 409, 'idempotency_key_in_use', '1');
      return true;
    };
    try {
      const result = await ota(['admin', 'tenants', 'create', '--name', 'cli-retry-co', '--json'], {
        OTA_ADMIN_URL: proxyUrl,
      });
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('the same request is still being executed, retrying in 1 s\n');
      expect(JSON.parse(result.stdout).tenant.name).toBe('cli-retry-co');
      expect(keys).toHaveLength(2);
      expect(keys[1]).toBe(keys[0]);
    } finally {
      interfere = () => false;
    }
  });
});
