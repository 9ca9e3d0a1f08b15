import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOta } from '../../clients/typescript/test/helpers/run-ota.js';
import {
  admin,
  adminProcess,
  createdTenant,
  type NewTenant,
  port,
  type Started,
  startServerProcess,
  tempDataDir,
} from '../helpers/processes.js';

let dataDir: string;
let server: Started;
const adminPort = port();
let created: Record<string, unknown>;
let tenant: NewTenant;
const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  dataDir = await tempDataDir();
  // below the ephemeral range and the test servers' ports (the helper says why)
  server = await startServerProcess(dataDir, port(), {
    PARSER_THREADS: '0',
    ADMIN_PORT: String(adminPort),
  });
  // the command line as an operator runs it, a process of its own; the other tests run it in this process
  created = (
    await adminProcess(dataDir, 'tenants', 'create', '--name', 'acme', '--currency', 'EUR', '--json')
  ).json;
  tenant = createdTenant(created);
});
afterAll(async () => {
  await server.kill();
  rmSync(dataDir, { recursive: true, force: true });
});

const get = async (route: string, token: string) => {
  const res = await fetch(`${server.url}${route}`, { headers: { authorization: `Bearer ${token}` } });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test reads JSON fields
  return { status: res.status, body: (await res.json()) as any };
};

/**
 * A change the CLI committed in this process reaches the running server's token cache by a PostgreSQL
 * notification, a moment later: the contract says within the same second (docs/operations.md, "Tokens").
 * SQLite has no cache.
 */
const statusWithinASecond = (route: string, token: string) =>
  expect.poll(async () => (await get(route, token)).status, { timeout: 1000, interval: 10 });

describe('admin CLI, while the server runs on the same DATA_DIR', () => {
  it("tenants create prints the admin API's answer: the tenant and a working token", async () => {
    expect(Object.keys(created).sort()).toEqual(['tenant', 'token']);
    expect(created.tenant).toMatchObject({ tenant_id: tenant.tenant_id, name: 'acme', currency: 'EUR' });
    expect(tenant.token).toMatch(/^ota_[A-Za-z0-9_-]{43}$/);
    expect((await get('/api/open/finance/dashboard', tenant.token)).body.data.currency).toBe('EUR');
  });

  it('tenants list, and a duplicate name is refused as JSON', async () => {
    const list = await admin(dataDir, 'tenants', 'list', '--json');
    expect(list.json).toEqual({
      data: [expect.objectContaining({ tenant_id: tenant.tenant_id, name: 'acme', currency: 'EUR' })],
      total: 1,
    });
    const dup = await admin(dataDir, 'tenants', 'create', '--name', 'acme', '--json');
    expect(dup.code).toBe(1);
    expect(dup.json).toMatchObject({
      error: 'tenant_name_taken',
      status: 409,
      message: 'Another tenant is named "acme"',
    });
  });

  it('tenants create --pin and tenants pin pin the tenant; an unsupported version is refused', async () => {
    const pinned = createdTenant(
      (await admin(dataDir, 'tenants', 'create', '--name', 'pinned-co', '--pin', '2026-11-29', '--json'))
        .json,
    );
    const pinOf = async () => (await get('/api/open/versions', pinned.token)).body.data.pinned as string;
    expect(await pinOf()).toBe('2026-11-29');
    const moved = await admin(dataDir, 'tenants', 'pin', pinned.tenant_id, '2026-12-01', '--json');
    expect(moved.json).toMatchObject({ tenant_id: pinned.tenant_id, api_version: '2026-12-01' });
    await expect.poll(pinOf, { timeout: 1000, interval: 10 }).toBe('2026-12-01');
    const refused = await admin(dataDir, 'tenants', 'pin', pinned.tenant_id, '2099-01-01', '--json');
    expect(refused.code).toBe(1);
    // the versions it may be pinned to are the server's, named in the refusal
    expect(refused.json).toMatchObject({ error: 'validation_error', status: 422 });
    expect(JSON.stringify(refused.json.detail)).toMatch(/api_version.*'2026-11-29' or '2026-12-01'/);
  });

  it('tenants suspend and resume: the running server refuses, then serves, the tenant', async () => {
    const suspended = await admin(dataDir, 'tenants', 'suspend', tenant.tenant_id, '--json');
    expect(suspended.json).toMatchObject({
      tenant_id: tenant.tenant_id,
      state: 'suspended',
      suspended_at: expect.any(String),
    });
    await statusWithinASecond('/api/open/runs', tenant.token).toBe(403);
    expect((await get('/api/open/runs', tenant.token)).body.error).toBe('tenant_suspended');
    const listed = await admin(dataDir, 'tenants', 'list');
    expect(listed.stdout).toMatch(new RegExp(`^${tenant.tenant_id}\\s.*\\ssuspended 20\\d\\d-`, 'm'));
    const resumed = await admin(dataDir, 'tenants', 'resume', tenant.tenant_id, '--json');
    expect(resumed.json).toMatchObject({ tenant_id: tenant.tenant_id, state: 'active', suspended_at: null });
    await statusWithinASecond('/api/open/runs', tenant.token).toBe(200);
  });

  it('tenants export --out and delete: the running server builds the export, the command line downloads and checks it', async () => {
    const leaving = (await admin(dataDir, 'tenants', 'create', '--name', 'leaving', '--json'))
      .json as unknown as {
      tenant: { tenant_id: string };
      token: { token: string };
    };
    const id = leaving.tenant.tenant_id;
    const file = path.join(dataDir, 'leaving.tar');
    const exported = await admin(dataDir, 'tenants', 'export', id, '--out', file, '--json');
    expect(exported.code, exported.stdout).toBe(0);
    expect(exported.stderr).toBe('');
    expect(exported.json).toMatchObject({ tenant_id: id, status: 'succeeded', archive: { path: file } });
    const bytes = readFileSync(file);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(exported.json.sha256);
    const status = await admin(dataDir, 'tenants', 'export-status', id, exported.json.export_id as string);
    expect(status.stdout).toMatch(/^status {4}succeeded, 100% /m);

    const marked = await admin(dataDir, 'tenants', 'delete', id, '--grace-seconds', '3600', '--json');
    expect(marked.json).toMatchObject({ state: 'suspended', erase_at: expect.any(String) });
    await statusWithinASecond('/api/open/runs', leaving.token.token).toBe(403);
    const resumed = await admin(dataDir, 'tenants', 'resume', id, '--json');
    expect(resumed.json).toMatchObject({ state: 'active', erase_at: null });
    await statusWithinASecond('/api/open/runs', leaving.token.token).toBe(200);
    expect(existsSync(file)).toBe(true);
  });

  it('tokens issue (with scopes), list (no secrets) and revoke', async () => {
    const issued = (
      await admin(
        dataDir,
        'tokens',
        'issue',
        tenant.tenant_id,
        '--name',
        'ci',
        '--expires-in',
        '7',
        '--scope',
        'runs:read',
        '--scope',
        'finance:read',
        '--json',
      )
    ).json as { token_id: string; token: string; expires_at: string; scopes: string[] };
    expect(issued.scopes).toEqual(['finance:read', 'runs:read']);
    expect((await get('/api/open/runs', issued.token)).status).toBe(200);
    const outOfScope = await get('/api/open/uploads', issued.token);
    expect(outOfScope.status).toBe(403);
    expect(outOfScope.body.error).toBe('insufficient_scope');
    expect(Date.parse(issued.expires_at) - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    const unknown = await admin(
      dataDir,
      'tokens',
      'issue',
      tenant.tenant_id,
      '--name',
      'x',
      '--scope',
      'runs:all',
    );
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(
      /^error: option '--scope <scope>' argument 'runs:all' is invalid\. must be one of finance:read, /,
    );
    const listed = await admin(dataDir, 'tokens', 'list', tenant.tenant_id, '--json');
    const row = (
      listed.json as unknown as {
        token_id: string;
        name: string;
        prefix: string;
        last_used_at: string | null;
        scopes: string[];
      }[]
    ).find((t) => t.token_id === issued.token_id);
    expect(row).toMatchObject({
      name: 'ci',
      prefix: issued.token.slice(0, 10),
      scopes: ['finance:read', 'runs:read'],
    });
    expect(row?.last_used_at).not.toBeNull();
    expect(listed.stdout).not.toContain(issued.token);
    const revoked = await admin(dataDir, 'tokens', 'revoke', tenant.tenant_id, issued.token_id, '--json');
    expect(revoked.json.revoked_at).toBeTruthy();
    await statusWithinASecond('/api/open/runs', issued.token).toBe(401);
    expect((await get('/api/open/runs', issued.token)).body.message).toBe('Invalid token');
  });

  it("admin-tokens issue (the first one), list and revoke: the token opens the running server's admin listener until revoked", async () => {
    // no admin token exists yet: the first comes from the command line, holding every scope
    expect((await admin(dataDir, 'admin-tokens', 'list', '--json')).json).toEqual([]);
    const issued = await admin(dataDir, 'admin-tokens', 'issue', '--name', 'billing', '--json');
    expect(issued.json).toMatchObject({ name: 'billing', revoked_at: null, expires_at: null });
    // every admin scope, admin:exports among them
    expect(issued.json.scopes).toHaveLength(7);
    const secret = issued.json.token as string;
    expect(secret).toMatch(/^ota_admin_[A-Za-z0-9_-]{43}$/);
    const adminUrl = `http://127.0.0.1:${adminPort}`;
    const call = (route: string) =>
      fetch(`${adminUrl}${route}`, { headers: { authorization: `Bearer ${secret}` } });
    const tenants = await call('/api/admin/tenants');
    expect(tenants.status).toBe(200);
    // the CLI's own changes are in the audit trail, as an operator's
    const trail = (await (await call(`/api/admin/audit_events?tenant_id=${tenant.tenant_id}`)).json()) as {
      data: { action: string; actor: string; admin_token_id: string | null }[];
    };
    expect(trail.data.at(-1)).toMatchObject({
      action: 'tenant.created',
      actor: 'operator',
      admin_token_id: null,
    });
    // issuing an admin token is in the trail too, about no tenant
    const newest = (await (await call('/api/admin/audit_events?limit=1')).json()) as { data: object[] };
    expect(newest.data[0]).toMatchObject({
      action: 'admin_token.issued',
      actor: 'operator',
      tenant_id: null,
      target_id: issued.json.admin_token_id,
      detail: { name: 'billing' },
    });
    const listed = await admin(dataDir, 'admin-tokens', 'list', '--json');
    expect(listed.json).toEqual([
      expect.objectContaining({ admin_token_id: issued.json.admin_token_id, prefix: secret.slice(0, 16) }),
    ]);
    expect(listed.stdout).not.toContain(secret);
    const table = await admin(dataDir, 'admin-tokens', 'list');
    expect(table.stdout).toMatch(
      /^ADMIN TOKEN\s+NAME\s+PREFIX\s+STATE\s+SCOPES\s+LAST USED\n.*\sactive\s+all\s/,
    );
    const revoked = await admin(
      dataDir,
      'admin-tokens',
      'revoke',
      issued.json.admin_token_id as string,
      '--json',
    );
    expect(revoked.json.revoked_at).toEqual(expect.any(String));
    expect((await call('/api/admin/tenants')).status).toBe(401);
    const unknown = await admin(dataDir, 'admin-tokens', 'revoke', NO_SUCH_ID, '--json');
    expect(unknown.code).toBe(1);
    expect(unknown.json).toMatchObject({ error: 'not_found', status: 404, message: 'Admin token not found' });
    // the admin API is not on the public port
    expect((await fetch(`${server.url}/api/admin/tenants`)).status).toBe(404);
  });

  it("admin-tokens issue --scope --expires-in: a job's token, refused out of its scopes by the running server", async () => {
    const issued = await adminProcess(
      dataDir,
      'admin-tokens',
      'issue',
      '--name',
      'billing-job',
      '--scope',
      'admin:ledger',
      '--scope',
      'admin:usage',
      '--expires-in',
      '30',
      '--json',
    );
    expect(issued.code).toBe(0);
    expect(issued.json).toMatchObject({
      scopes: ['admin:ledger', 'admin:usage'],
      expires_at: expect.any(String),
    });
    const call = (route: string) =>
      fetch(`http://127.0.0.1:${adminPort}${route}`, {
        headers: { authorization: `Bearer ${issued.json.token as string}` },
      });
    expect((await call('/api/admin/usage')).status).toBe(200);
    const refused = await call('/api/admin/tenants');
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: string }).error).toBe('insufficient_scope');
    const trail = await admin(dataDir, 'audit', '--action', 'admin_token.issued', '--limit', '1', '--json');
    expect(trail.json.data).toEqual([
      expect.objectContaining({ actor: 'operator', target_id: issued.json.admin_token_id }),
    ]);
    expect((await admin(dataDir, 'admin-tokens', 'issue', '--name', 'x', '--scope', 'admin:all')).code).toBe(
      2,
    );
  });

  it('ledger append, list and reverse: the running server lists what the command line booked', async () => {
    const fed = createdTenant(
      (await admin(dataDir, 'tenants', 'create', '--name', 'fed', '--currency', 'EUR', '--json')).json,
    );
    const file = path.join(dataDir, 'feed.json');
    writeFileSync(
      file,
      JSON.stringify([
        {
          external_id: 'F-1',
          type: 'ecosystem',
          amount: 5000,
          currency: 'EUR',
          occurred_at: '2026-11-05T10:00:00Z',
        },
        {
          external_id: 'F-2',
          type: 'tech',
          amount: -100,
          currency: 'EUR',
          occurred_at: '2026-11-06T10:00:00Z',
        },
      ]),
    );
    const booked = await adminProcess(dataDir, 'ledger', 'append', fed.tenant_id, file);
    expect(booked.code).toBe(0);
    expect(booked.stdout).toMatch(
      /^EXTERNAL ID\s+OUTCOME\s+TRANSACTION\nF-1\s+booked\s+\S+\nF-2\s+booked\s+\S+\nbooked 2, 0 already in the ledger\n$/,
    );
    const again = await admin(dataDir, 'ledger', 'append', fed.tenant_id, file, '--json');
    expect(again.json).toMatchObject({ imported: 0, skipped: 2 });
    const seen = await get('/api/open/finance/transactions', fed.token);
    expect(seen.body.data.map((t: { external_id: string }) => t.external_id)).toEqual(['F-2', 'F-1']);
    const listed = await admin(dataDir, 'ledger', 'list', fed.tenant_id, '--type', 'ecosystem', '--json');
    expect(listed.json).toEqual({
      data: [expect.objectContaining({ external_id: 'F-1', amount: 5000 })],
      total: 1,
    });
    const f1 = (listed.json.data as { id: string }[])[0]!.id;
    const reversed = await admin(dataDir, 'ledger', 'reverse', fed.tenant_id, f1, '--json');
    expect(reversed.json).toMatchObject({
      amount: -5000,
      source: 'adjustment',
      external_id: `reversal-of:${f1}`,
    });
    expect((await get('/api/open/finance/transactions', fed.token)).body.total).toBe(3);
    const twice = await admin(dataDir, 'ledger', 'reverse', fed.tenant_id, f1);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(/^error: .+ \(request [0-9a-f-]{36}\)\n$/);
    const unknown = await admin(dataDir, 'ledger', 'reverse', fed.tenant_id, NO_SUCH_ID, '--json');
    expect(unknown.code).toBe(1);
    expect(unknown.json).toMatchObject({ error: 'not_found', status: 404 });
    expect((await admin(dataDir, 'ledger', 'list', fed.tenant_id, '--limit', '0')).code).toBe(2);
  });

  it('revenue import is all-or-nothing and idempotent', async () => {
    const good = path.join(dataDir, 'good.csv');
    writeFileSync(
      good,
      'external_id,type,amount,currency,occurred_at,description\n' +
        'S-1,ecosystem,100.25,EUR,2026-10-31T23:59:59.999Z,Partner A\n' +
        'S-2,ecosystem,-0.25,EUR,2026-11-01T00:00:00Z,Partner A correction\n',
    );
    expect((await admin(dataDir, 'revenue', 'import', tenant.tenant_id, good, '--json')).json).toEqual({
      imported: 2,
      skipped: 0,
    });
    expect((await admin(dataDir, 'revenue', 'import', tenant.tenant_id, good, '--json')).json).toEqual({
      imported: 0,
      skipped: 2,
    });

    const bad = path.join(dataDir, 'bad.jsonl');
    writeFileSync(
      bad,
      '{"external_id":"S-3","type":"ecosystem","amount":"5.00","currency":"EUR","occurred_at":"2026-11-02T00:00:00Z","description":"ok"}\n' +
        '{"external_id":"S-4","type":"ecosystem","amount":"5.00","currency":"USD","occurred_at":"2026-11-02T00:00:00Z","description":"usd"}\n',
    );
    const refused = await admin(dataDir, 'revenue', 'import', tenant.tenant_id, bad, '--json');
    expect(refused.code).toBe(1);
    expect(refused.json.problems).toEqual([`line 2: currency must be the tenant's EUR, got "USD"`]);

    const list = await get('/api/open/finance/transactions', tenant.token);
    expect(list.body.total).toBe(2);
    expect(
      list.body.data.map((t: { external_id: string; amount: number }) => [t.external_id, t.amount]),
    ).toEqual([
      ['S-2', -25],
      ['S-1', 10025],
    ]);
  });
});

// usage and help are the command line's own, refused before the database is opened: in the sqlite project
// only (tag one-engine, vitest.config.ts)
const once = { tags: ['one-engine'] };

describe('admin CLI output and errors', () => {
  it('human output is an aligned table with a header; token rows tell revoked from expired', async () => {
    const issued = (await admin(dataDir, 'tokens', 'issue', tenant.tenant_id, '--name', 'old', '--json'))
      .json as { token_id: string };
    await admin(dataDir, 'tokens', 'revoke', tenant.tenant_id, issued.token_id);
    const listed = await admin(dataDir, 'tokens', 'list', tenant.tenant_id);
    const lines = listed.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^TOKEN\s+NAME\s+PREFIX\s+STATE\s+SCOPES\s+LAST USED$/);
    expect(lines.find((l) => l.startsWith(issued.token_id))).toMatch(/\srevoked 20\d\d-\S+\s+all(\s|$)/);
    // every row's columns start where the header's do
    const stateColumn = lines[0]!.indexOf('STATE');
    for (const line of lines.slice(1)) expect(line[stateColumn - 1]).toBe(' ');
    const tenants = await admin(dataDir, 'tenants', 'list');
    expect(tenants.stdout.split('\n')[0]).toMatch(
      /^TENANT\s+NAME\s+CURRENCY\s+PRICE\/POINT\s+STATE\s+CREATED\s+API VERSION$/,
    );
  });

  it('one error style: "error: ..." on stderr, exit 1; with --json one object on stdout and nothing on stderr', async () => {
    const missing = await adminProcess(dataDir, 'tokens', 'list', NO_SUCH_ID);
    expect([missing.code, missing.stdout]).toEqual([1, '']);
    expect(missing.stderr).toMatch(/^error: Tenant not found \(request [0-9a-f-]{36}\)\n$/);
    const missingJson = await admin(dataDir, 'tokens', 'list', NO_SUCH_ID, '--json');
    expect([missingJson.code, missingJson.stderr]).toEqual([1, '']);
    expect(missingJson.json).toMatchObject({ error: 'not_found', status: 404, message: 'Tenant not found' });
    const noFile = await admin(dataDir, 'revenue', 'import', tenant.tenant_id, '/no/such.csv');
    expect([noFile.code, noFile.stderr]).toEqual([1, 'error: no such file: /no/such.csv\n']);
    const noTenant = await admin(dataDir, 'revenue', 'import', NO_SUCH_ID, '/no/such.csv');
    expect([noTenant.code, noTenant.stderr]).toEqual([1, `error: no tenant ${NO_SUCH_ID}\n`]);
    const header = path.join(dataDir, 'header.csv');
    writeFileSync(header, 'id,kind,value\n1,ecosystem,2\n');
    const wrongHeader = await admin(dataDir, 'revenue', 'import', tenant.tenant_id, header, '--json');
    expect(wrongHeader.json).toEqual({
      error: 'failed',
      message: 'import refused, nothing was written',
      problems: [
        'the header must be external_id,type,amount,currency,occurred_at,description; it is id,kind,value',
      ],
    });
  });

  it(
    'usage errors exit 2; --expires-in 0 is refused rather than issuing an expired token',
    once,
    async () => {
      const zero = await adminProcess(
        dataDir,
        'tokens',
        'issue',
        tenant.tenant_id,
        '--name',
        'z',
        '--expires-in',
        '0',
      );
      expect(zero.code).toBe(2);
      expect(zero.stderr).toMatch(
        /^error: option '--expires-in <days>' argument '0' is invalid\. must be a whole number >= 1\n/,
      );
      const json = await admin(
        dataDir,
        'tokens',
        'issue',
        tenant.tenant_id,
        '--name',
        'z',
        '--expires-in',
        '0',
        '--json',
      );
      expect(json.code).toBe(2);
      expect(json.stderr).toBe('');
      expect(json.json).toEqual({
        error: 'usage',
        message: expect.stringMatching(/^option '--expires-in <days>' argument '0' is invalid/),
        usage: 'admin tokens issue [options] <tenant_id>',
      });
      // a tenant is its id or its external id, refused before anything is asked of the API otherwise
      const notAnId = await admin(dataDir, 'tokens', 'list', 'no pe');
      expect(notAnId.code).toBe(2);
      expect(notAnId.stderr).toMatch(
        /^error: .*'no pe' is invalid for argument 'tenant_id'\. a tenant is its id \(a UUID\) or its external id/,
      );
      // an external id no tenant has is the API's 404
      const unknown = await admin(dataDir, 'tokens', 'list', 'cus_nobody');
      expect(unknown.code).toBe(1);
    },
  );

  it(
    'a command group without its subcommand prints its help on stderr and exits 2 (every group)',
    once,
    async () => {
      for (const group of [[], ['tenants'], ['tokens'], ['ledger'], ['admin-tokens'], ['revenue']]) {
        const result = await admin(dataDir, ...group);
        expect(result.code, group.join(' ')).toBe(2);
        expect(result.stdout).toBe('');
        expect(result.stderr).toMatch(
          new RegExp(`^Usage: admin ${group.join(' ')}\\s*\\[options\\] \\[command\\]\n`),
        );
      }
    },
  );
});

describe('one admin command line: npm run admin and ota admin', () => {
  /**
   * The same command through `ota admin` against the running server's admin listener, and through the
   * server's alias on its DATA_DIR: the same output, but for what cannot be the same (a request's id, the
   * moment a usage is read, the program's name in a usage line).
   */
  it('print the same, tables, --json and failures alike', async () => {
    const adminToken = (await admin(dataDir, 'admin-tokens', 'issue', '--name', 'ota', '--json')).json
      .token as string;
    const env = { OTA_ADMIN_URL: `http://127.0.0.1:${adminPort}`, OTA_ADMIN_TOKEN: adminToken };
    const same = (text: string) =>
      text
        .replace(/\(request [0-9a-f-]{36}\)/g, '(request ID)')
        .replace(/"request_id":"[0-9a-f-]{36}"/g, '"request_id":"ID"')
        .replace(/^usage: ota admin /m, 'usage: admin ')
        .replace(/"usage":"ota admin /, '"usage":"admin ')
        .replace(/as of \S+\)/, 'as of TIME)');
    for (const command of [
      ['tenants', 'get', tenant.tenant_id],
      ['tenants', 'list'],
      ['tenants', 'list', '--all', '--json'],
      ['tokens', 'list', tenant.tenant_id],
      ['tokens', 'list', tenant.tenant_id, '--json'],
      ['usage', tenant.tenant_id, '--from', '2026-11-01', '--to', '2026-11-30'],
      ['audit', '--tenant', tenant.tenant_id, '--json'],
      ['audit', '--tenant', tenant.tenant_id, '--order', 'asc', '--action', 'tenant.created', '--json'],
      ['audit', '--tenant', tenant.tenant_id, '--order', 'asc', '--limit', '1', '--json'],
      ['audit', '--after', NO_SUCH_ID],
      ['audit', '--order', 'newest', '--json'],
      ['ledger', 'list', tenant.tenant_id],
      ['ledger', 'list', tenant.tenant_id, '--type', 'ecosystem', '--from', '2026-11-01', '--json'],
      ['ledger', 'list', tenant.tenant_id, '--type', 'refund'],
      ['ledger', 'reverse', tenant.tenant_id, NO_SUCH_ID, '--json'],
      ['ledger', 'append', tenant.tenant_id, '/no/such.json'],
      ['usage', tenant.tenant_id, '--from', '2026-11-01', '--to', '2026-11-03', '--by-day'],
      ['usage', 'all', '--from', '2026-11-01', '--to', '2026-11-30', '--all', '--json'],
      ['usage', 'all', '--from', '2026-11-01', '--to', '2026-11-30', '--limit', '1'],
      ['usage', 'all', '--after', NO_SUCH_ID],
      ['admin-tokens', 'revoke', NO_SUCH_ID, '--json'],
      ['admin-tokens', 'issue', '--name', 'x', '--scope', 'admin:all'],
      ['tenants', 'get', NO_SUCH_ID],
      ['tenants', 'get', NO_SUCH_ID, '--json'],
      ['tenants', 'set-price', tenant.tenant_id, '--price-per-point', '1.5'],
      ['tokens', 'issue', tenant.tenant_id, '--name', 'x', '--scope', 'runs:all', '--json'],
      ['tenants', 'create'],
    ]) {
      const ours = await admin(dataDir, ...command);
      const theirs = await runOta(['admin', ...command], env);
      const shown = command.join(' ');
      expect(ours.code, shown).toBe(theirs.code);
      expect(same(ours.stdout), shown).toBe(same(theirs.stdout));
      expect(same(ours.stderr), shown).toBe(same(theirs.stderr));
    }
    // a change made by either is the other's to see, and the trail tells the operator from the token
    const renamed = await runOta(
      ['admin', 'tenants', 'rename', tenant.tenant_id, '--name', 'acme-gmbh', '--json'],
      env,
    );
    expect(renamed.code).toBe(0);
    expect((await admin(dataDir, 'tenants', 'get', tenant.tenant_id, '--json')).json.name).toBe('acme-gmbh');
    const back = await admin(dataDir, 'tenants', 'rename', tenant.tenant_id, '--name', 'acme', '--json');
    expect(back.json.name).toBe('acme');
    const trail = JSON.parse(
      (await runOta(['admin', 'audit', '--tenant', tenant.tenant_id, '--limit', '2', '--json'], env)).stdout,
    ) as {
      data: { action: string; actor: string; detail: { name?: string } }[];
    };
    expect(trail.data.map((e) => [e.action, e.actor, e.detail.name])).toEqual([
      ['tenant.updated', 'operator', 'acme'],
      ['tenant.updated', 'admin_token', 'acme-gmbh'],
    ]);
  });
});
