import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  admin,
  adminProcess,
  port,
  type Started,
  startServerProcess,
  tempDataDir,
} from '../helpers/processes.js';

let dataDir: string;
let server: Started;
const adminPort = port();
let tenant: { tenant_id: string; user_id: string; token: string; token_id: string };

beforeAll(async () => {
  dataDir = await tempDataDir();
  // below the ephemeral range and the test servers' ports (the helper says why)
  server = await startServerProcess(dataDir, port(), {
    PARSER_THREADS: '0',
    ADMIN_PORT: String(adminPort),
  });
  // the command line as an operator runs it, a process of its own; the other tests run it in this process
  tenant = (await adminProcess(dataDir, 'tenants', 'create', '--name', 'acme', '--currency', 'EUR', '--json'))
    .json as typeof tenant;
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
  it('tenants create prints one JSON object with a working token', async () => {
    expect(Object.keys(tenant).sort()).toEqual(['tenant_id', 'token', 'token_id', 'user_id']);
    expect(tenant.token).toMatch(/^ota_[A-Za-z0-9_-]{43}$/);
    expect((await get('/api/open/finance/dashboard', tenant.token)).body.data.currency).toBe('EUR');
  });

  it('tenants list, and a duplicate name is refused as JSON', async () => {
    const list = await admin(dataDir, 'tenants', 'list', '--json');
    expect(list.json.tenants).toEqual([
      expect.objectContaining({ tenant_id: tenant.tenant_id, name: 'acme', currency: 'EUR' }),
    ]);
    const dup = await admin(dataDir, 'tenants', 'create', '--name', 'acme', '--json');
    expect(dup.code).toBe(1);
    expect(dup.json).toEqual({ error: 'tenant "acme" exists' });
  });

  it('tenants create --api-version and set-version pin the tenant; an unsupported version is refused', async () => {
    const pinned = (
      await admin(
        dataDir,
        'tenants',
        'create',
        '--name',
        'pinned-co',
        '--api-version',
        '2026-11-29',
        '--json',
      )
    ).json as typeof tenant;
    const pinOf = async () => (await get('/api/open/versions', pinned.token)).body.data.pinned as string;
    expect(await pinOf()).toBe('2026-11-29');
    const moved = await admin(
      dataDir,
      'tenants',
      'set-version',
      '--tenant',
      pinned.tenant_id,
      '--api-version',
      '2026-12-01',
      '--json',
    );
    expect(moved.json).toEqual({ tenant_id: pinned.tenant_id, api_version: '2026-12-01' });
    await expect.poll(pinOf, { timeout: 1000, interval: 10 }).toBe('2026-12-01');
    const refused = await admin(
      dataDir,
      'tenants',
      'set-version',
      '--tenant',
      pinned.tenant_id,
      '--api-version',
      '2099-01-01',
      '--json',
    );
    expect(refused.code).toBe(1);
    expect(refused.json.error).toContain('2026-11-29, 2026-12-01');
  });

  it('tenants suspend and resume: the running server refuses, then serves, the tenant', async () => {
    const suspended = await admin(dataDir, 'tenants', 'suspend', tenant.tenant_id, '--json');
    expect(suspended.json).toMatchObject({ tenant_id: tenant.tenant_id, suspended_at: expect.any(String) });
    await statusWithinASecond('/api/open/runs', tenant.token).toBe(403);
    expect((await get('/api/open/runs', tenant.token)).body.error).toBe('tenant_suspended');
    const listed = await admin(dataDir, 'tenants', 'list');
    expect(listed.stdout).toMatch(new RegExp(`^${tenant.tenant_id}\\s.*\\ssuspended 20\\d\\d-`, 'm'));
    const resumed = await admin(dataDir, 'tenants', 'resume', tenant.tenant_id, '--json');
    expect(resumed.json).toMatchObject({ tenant_id: tenant.tenant_id, suspended_at: null });
    await statusWithinASecond('/api/open/runs', tenant.token).toBe(200);
  });

  it('tokens issue (with scopes), list (no secrets) and revoke', async () => {
    const issued = (
      await admin(
        dataDir,
        'tokens',
        'issue',
        '--tenant',
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
    const unknown = await admin(
      dataDir,
      'tokens',
      'issue',
      '--tenant',
      tenant.tenant_id,
      '--scope',
      'runs:all',
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^error: unknown scope runs:all; the scopes are finance:read, /);
    const listed = await admin(dataDir, 'tokens', 'list', '--tenant', tenant.tenant_id, '--json');
    const row = (
      listed.json.tokens as {
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
    const revoked = await admin(dataDir, 'tokens', 'revoke', issued.token_id, '--json');
    expect(revoked.json.revoked_at).toBeTruthy();
    await statusWithinASecond('/api/open/runs', issued.token).toBe(401);
    expect((await get('/api/open/runs', issued.token)).body.message).toBe('Invalid token');
  });

  it("admin-tokens issue, list and revoke: the token opens the running server's admin listener until revoked", async () => {
    const issued = await admin(dataDir, 'admin-tokens', 'issue', '--name', 'billing', '--json');
    expect(issued.json).toMatchObject({ name: 'billing', revoked_at: null });
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
    expect(listed.json.admin_tokens).toEqual([
      expect.objectContaining({ admin_token_id: issued.json.admin_token_id, prefix: secret.slice(0, 16) }),
    ]);
    expect(listed.stdout).not.toContain(secret);
    const table = await admin(dataDir, 'admin-tokens', 'list');
    expect(table.stdout).toMatch(/^ADMIN TOKEN\s+NAME\s+PREFIX\s+STATE\s+LAST USED/);
    const revoked = await admin(
      dataDir,
      'admin-tokens',
      'revoke',
      issued.json.admin_token_id as string,
      '--json',
    );
    expect(revoked.json.revoked_at).toEqual(expect.any(String));
    expect((await call('/api/admin/tenants')).status).toBe(401);
    const unknown = await admin(
      dataDir,
      'admin-tokens',
      'revoke',
      '00000000-0000-4000-8000-000000000000',
      '--json',
    );
    expect(unknown.code).toBe(1);
    expect(unknown.json.error).toMatch(/no admin token/);
    // the admin API is not on the public port
    expect((await fetch(`${server.url}/api/admin/tenants`)).status).toBe(404);
  });

  it('revenue import is all-or-nothing and idempotent', async () => {
    const good = path.join(dataDir, 'good.csv');
    writeFileSync(
      good,
      'external_id,type,amount,currency,occurred_at,description\n' +
        'S-1,ecosystem,100.25,EUR,2026-10-31T23:59:59.999Z,Partner A\n' +
        'S-2,ecosystem,-0.25,EUR,2026-11-01T00:00:00Z,Partner A correction\n',
    );
    expect(
      (await admin(dataDir, 'revenue', 'import', '--tenant', tenant.tenant_id, good, '--json')).json,
    ).toEqual({ imported: 2, skipped: 0 });
    expect(
      (await admin(dataDir, 'revenue', 'import', '--tenant', tenant.tenant_id, good, '--json')).json,
    ).toEqual({ imported: 0, skipped: 2 });

    const bad = path.join(dataDir, 'bad.jsonl');
    writeFileSync(
      bad,
      '{"external_id":"S-3","type":"ecosystem","amount":"5.00","currency":"EUR","occurred_at":"2026-11-02T00:00:00Z","description":"ok"}\n' +
        '{"external_id":"S-4","type":"ecosystem","amount":"5.00","currency":"USD","occurred_at":"2026-11-02T00:00:00Z","description":"usd"}\n',
    );
    const refused = await admin(dataDir, 'revenue', 'import', '--tenant', tenant.tenant_id, bad, '--json');
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

const once = { tags: ['one-engine'] };

describe('admin CLI output and errors', () => {
  it('human output is an aligned table with a header; token rows tell revoked from expired', async () => {
    const issued = (
      await admin(dataDir, 'tokens', 'issue', '--tenant', tenant.tenant_id, '--name', 'old', '--json')
    ).json as { token_id: string };
    await admin(dataDir, 'tokens', 'revoke', issued.token_id);
    const listed = await admin(dataDir, 'tokens', 'list', '--tenant', tenant.tenant_id);
    const lines = listed.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^TOKEN\s+NAME\s+PREFIX\s+STATE\s+SCOPES\s+LAST USED$/);
    expect(lines.find((l) => l.startsWith(issued.token_id))).toMatch(/\srevoked 20\d\d-\S+\s+all(\s|$)/);
    // every row's columns start where the header's do
    const stateColumn = lines[0]!.indexOf('STATE');
    for (const line of lines.slice(1)) expect(line[stateColumn - 1]).toBe(' ');
    const tenants = await admin(dataDir, 'tenants', 'list');
    expect(tenants.stdout.split('\n')[0]).toMatch(
      /^TENANT\s+NAME\s+CURRENCY\s+PRICE\/POINT\s+STATE\s+API VERSION\s+CREATED$/,
    );
  });

  it('one error style: "error: ..." on stderr, exit 1; with --json one object on stdout and nothing on stderr', async () => {
    const missing = await adminProcess(dataDir, 'tokens', 'list', '--tenant', 'nope');
    expect([missing.code, missing.stderr, missing.stdout]).toEqual([1, 'error: no tenant nope\n', '']);
    const missingJson = await admin(dataDir, 'tokens', 'list', '--tenant', 'nope', '--json');
    expect([missingJson.code, missingJson.json, missingJson.stderr]).toEqual([
      1,
      { error: 'no tenant nope' },
      '',
    ]);
    const noFile = await admin(dataDir, 'revenue', 'import', '--tenant', tenant.tenant_id, '/no/such.csv');
    expect([noFile.code, noFile.stderr]).toEqual([1, 'error: no such file: /no/such.csv\n']);
    const header = path.join(dataDir, 'header.csv');
    writeFileSync(header, 'id,kind,value\n1,ecosystem,2\n');
    const wrongHeader = await admin(
      dataDir,
      'revenue',
      'import',
      '--tenant',
      tenant.tenant_id,
      header,
      '--json',
    );
    expect(wrongHeader.json).toEqual({
      error: 'import refused, nothing was written',
      problems: [
        'the header must be external_id,type,amount,currency,occurred_at,description; it is id,kind,value',
      ],
    });
  });

  // usage is the command line's own, refused before the database is opened: in the sqlite project only
  // (vitest.config.ts)
  it(
    'usage errors exit 2; --expires-in 0 is refused rather than issuing an expired token',
    once,
    async () => {
      const zero = await adminProcess(
        dataDir,
        'tokens',
        'issue',
        '--tenant',
        tenant.tenant_id,
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
        '--tenant',
        tenant.tenant_id,
        '--expires-in',
        '0',
        '--json',
      );
      expect(json.code).toBe(2);
      expect(json.stderr).toBe('');
      expect(Object.keys(json.json)).toEqual(['error']);
    },
  );

  it(
    'a command group without its subcommand prints its help on stderr and exits 2 (every group)',
    once,
    async () => {
      for (const group of [[], ['tenants'], ['tokens'], ['admin-tokens'], ['revenue']]) {
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
