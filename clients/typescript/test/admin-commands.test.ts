import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPdf, uploadPdf } from '../../../test/helpers/files.js';
import { type Harness, startHarness } from '../../../test/helpers/harness.js';
import {
  type AdminLedgerEntryInput,
  type AdminTenantExport,
  type AuditEvent,
  createAdminClient,
  ExportIntegrityError,
  type OpenTenantAdminClient,
  type OtaError,
  type PlatformAdminToken,
} from '../src/index.js';
import { runOta } from './helpers/run-ota.js';

/**
 * `ota admin`'s ledger, usage, audit, admin-tokens and offboarding (tenants delete, export, export-status,
 * export-download) commands against the real server's admin listener:
 * each as a table and with --json, and their refusals (an unknown id is the API's 404, exit 1; a wrong
 * command line exit 2 before anything is asked of the API). test/process/cli.test.ts checks that the
 * server's `npm run admin` prints the same.
 */
let h: Harness;
let dir: string;

beforeAll(async () => {
  h = await startHarness();
  dir = mkdtempSync(path.join(tmpdir(), 'ota-admin-commands-'));
});
afterAll(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';
const admin = (token = h.adminToken): OpenTenantAdminClient =>
  createAdminClient({ baseUrl: h.adminUrl, token, retry: { retries: 0 } });
const ota = (args: string[], env: Record<string, string> = {}) =>
  runOta(['admin', ...args], { OTA_ADMIN_URL: h.adminUrl, OTA_ADMIN_TOKEN: h.adminToken, ...env });
const lines = (text: string) => text.trimEnd().split('\n');
const jsonFile = (name: string, value: unknown): string => {
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify(value));
  return file;
};

const entry = (externalId: string, amount: number, day: string): AdminLedgerEntryInput => ({
  external_id: externalId,
  type: 'ecosystem',
  amount,
  currency: 'EUR',
  occurred_at: `2026-11-${day}T12:00:00Z`,
  description: `settlement ${externalId}`,
});

describe('ota admin ledger', () => {
  it('append: each entry booked once, a file sent again is all duplicates; list and reverse', async () => {
    const { tenant } = await admin().createTenant({ name: 'ledger-co', currency: 'EUR' });
    const file = jsonFile('feed.json', [entry('po-1', 125000, '02'), entry('po-2', -250, '03')]);
    const booked = await ota(['ledger', 'append', tenant.tenant_id, file]);
    expect(booked).toMatchObject({ code: 0, stderr: '' });
    expect(lines(booked.stdout)).toEqual([
      expect.stringMatching(/^EXTERNAL ID\s+OUTCOME\s+TRANSACTION$/),
      expect.stringMatching(/^po-1\s+booked\s+[0-9a-f-]{36}$/),
      expect.stringMatching(/^po-2\s+booked\s+[0-9a-f-]{36}$/),
      'booked 2, 0 already in the ledger',
    ]);
    // the API's own body is taken too, and a batch sent again books nothing twice
    const again = await ota([
      'ledger',
      'append',
      tenant.tenant_id,
      jsonFile('body.json', { entries: [entry('po-1', 125000, '02')] }),
      '--json',
    ]);
    const result = JSON.parse(again.stdout);
    expect(result).toMatchObject({
      imported: 0,
      skipped: 1,
      entries: [{ external_id: 'po-1', outcome: 'duplicate' }],
    });

    const listed = await ota(['ledger', 'list', tenant.tenant_id]);
    expect(listed.code).toBe(0);
    const rows = lines(listed.stdout);
    expect(rows[0]).toMatch(/^TRANSACTION\s+OCCURRED\s+TYPE\s+SOURCE\s+AMOUNT\s+EXTERNAL ID\s+DESCRIPTION$/);
    // newest first, money in the tenant's currency, right-aligned
    expect(rows[1]).toMatch(
      /^[0-9a-f-]{36}\s+2026-11-03T12:00:00\.000Z\s+ecosystem\s+import\s+-2\.50 EUR\s+po-2\s+settlement po-2$/,
    );
    expect(rows[2]).toMatch(/\s+1250\.00 EUR\s+po-1\s/);
    expect(rows[3]).toBe('2 of 2 transactions');
    const page = JSON.parse(
      (await ota(['ledger', 'list', tenant.tenant_id, '--from', '2026-11-03', '--limit', '1', '--json']))
        .stdout,
    );
    expect(page).toEqual({
      data: [expect.objectContaining({ external_id: 'po-2', amount: -250 })],
      total: 1,
    });
    const tech = JSON.parse(
      (await ota(['ledger', 'list', tenant.tenant_id, '--type', 'tech', '--json'])).stdout,
    );
    expect(tech).toEqual({ data: [], total: 0 });
    const skipped = JSON.parse(
      (await ota(['ledger', 'list', tenant.tenant_id, '--offset', '1', '--json'])).stdout,
    );
    expect(skipped.data.map((t: { external_id: string }) => t.external_id)).toEqual(['po-1']);

    const po1 = result.entries[0].transaction_id as string;
    const reversed = await ota(['ledger', 'reverse', tenant.tenant_id, po1, '--description', 'refunded']);
    expect(reversed.code).toBe(0);
    expect(lines(reversed.stdout)[1]).toMatch(
      new RegExp(`\\s+ecosystem\\s+adjustment\\s+-1250\\.00 EUR\\s+reversal-of:${po1}\\s+refunded$`),
    );
    const twice = await ota(['ledger', 'reverse', tenant.tenant_id, po1, '--json']);
    expect(twice.code).toBe(1);
    expect(JSON.parse(twice.stdout)).toMatchObject({ error: 'already_reversed', status: 409 });
    const listedAfter = JSON.parse((await ota(['ledger', 'list', tenant.tenant_id, '--json'])).stdout);
    expect(listedAfter.total).toBe(3);
  });

  it('refusals: an unknown tenant or transaction is 404 (exit 1); a bad file is refused before any call; a wrong option exit 2', async () => {
    const { tenant } = await admin().createTenant({ name: 'ledger-refusals-co', currency: 'EUR' });
    const noTenant = await ota(['ledger', 'list', NO_SUCH_ID]);
    expect(noTenant).toMatchObject({ code: 1, stdout: '' });
    expect(noTenant.stderr).toMatch(/^error: Tenant not found \(request [0-9a-f-]{36}\)\n$/);
    const noTransaction = await ota(['ledger', 'reverse', tenant.tenant_id, NO_SUCH_ID, '--json']);
    expect(noTransaction.code).toBe(1);
    expect(JSON.parse(noTransaction.stdout)).toMatchObject({ error: 'not_found', status: 404 });
    const file = jsonFile('one.json', [entry('x-1', 100, '04')]);
    const appendNoTenant = await ota(['ledger', 'append', NO_SUCH_ID, file]);
    expect(appendNoTenant.code).toBe(1);
    expect(appendNoTenant.stderr).toMatch(/^error: Tenant not found /);

    const missing = await ota(['ledger', 'append', tenant.tenant_id, path.join(dir, 'none.json')]);
    expect(missing).toMatchObject({
      code: 1,
      stderr: `error: no such file: ${path.join(dir, 'none.json')}\n`,
    });
    const notJson = path.join(dir, 'feed.csv');
    writeFileSync(notJson, 'external_id,type\n');
    const garbled = await ota(['ledger', 'append', tenant.tenant_id, notJson, '--json']);
    expect(garbled.code).toBe(1);
    expect(JSON.parse(garbled.stdout)).toMatchObject({
      error: 'failed',
      message: expect.stringMatching(/feed\.csv is not JSON: /),
    });
    const notList = await ota(['ledger', 'append', tenant.tenant_id, jsonFile('obj.json', { entry: 1 })]);
    expect(notList.stderr).toMatch(/must hold an array of ledger entries, or \{"entries": \[\.\.\.\]\}\n$/);
    const empty = await ota(['ledger', 'append', tenant.tenant_id, jsonFile('empty.json', [])]);
    expect([empty.code, empty.stderr]).toEqual([
      1,
      `error: ${path.join(dir, 'empty.json')} holds no entries\n`,
    ]);
    const many = Array.from({ length: 501 }, (_, i) => entry(`m-${i}`, 1, '05'));
    const tooMany = await ota(['ledger', 'append', tenant.tenant_id, jsonFile('many.json', many)]);
    expect(tooMany.code).toBe(1);
    expect(tooMany.stderr).toMatch(/holds 501 entries; the feed takes at most 500 a call/);
    // the server checks each entry: nothing of the batch is booked
    const wrong = await ota([
      'ledger',
      'append',
      tenant.tenant_id,
      jsonFile('usd.json', [entry('ok-1', 1, '06'), { ...entry('usd-1', 1, '06'), currency: 'USD' }]),
      '--json',
    ]);
    expect(wrong.code).toBe(1);
    expect(JSON.parse(wrong.stdout)).toMatchObject({ error: 'validation_error', status: 422 });
    expect((await admin().listLedgerEntries(tenant.tenant_id)).total).toBe(0);

    const badType = await ota(['ledger', 'list', tenant.tenant_id, '--type', 'refund']);
    expect(badType.code).toBe(2);
    expect(badType.stderr).toMatch(
      /^error: option '--type <type>' argument 'refund' is invalid\. Allowed choices are all, tech, ecosystem\./,
    );
    const badId = await ota(['ledger', 'reverse', tenant.tenant_id, 'tx-1']);
    expect(badId.code).toBe(2);
    expect(badId.stderr).toMatch(
      /'tx-1' is invalid for argument 'transaction_id'\. a transaction id is a UUID/,
    );
    const noFile = await ota(['ledger', 'append', tenant.tenant_id]);
    expect(noFile.code).toBe(2);
  });
});

describe('ota admin usage', () => {
  it('--by-day: the period as lines, then a table of its days', async () => {
    const { tenant } = await admin().createTenant({ name: 'daily-co' });
    const daily = await ota([
      'usage',
      tenant.tenant_id,
      '--from',
      '2026-11-01',
      '--to',
      '2026-11-03',
      '--by-day',
    ]);
    expect(daily).toMatchObject({ code: 0, stderr: '' });
    const out = lines(daily.stdout);
    expect(out[0]).toBe(`tenant ${tenant.tenant_id}, 2026-11-01 to 2026-11-03`);
    expect(out.slice(-4)).toEqual([
      expect.stringMatching(/^DAY\s+RUNS\s+PAGES\s+POINTS\s+FILES\s+BYTES$/),
      expect.stringMatching(/^2026-11-01\s+0\s+0\s+0\s+0\s+0$/),
      expect.stringMatching(/^2026-11-02\s/),
      expect.stringMatching(/^2026-11-03\s/),
    ]);
    const json = JSON.parse(
      (
        await ota([
          'usage',
          tenant.tenant_id,
          '--from',
          '2026-11-01',
          '--to',
          '2026-11-30',
          '--by-day',
          '--json',
        ])
      ).stdout,
    );
    expect(json.daily).toHaveLength(30);
    const plain = JSON.parse((await ota(['usage', tenant.tenant_id, '--json'])).stdout);
    expect(plain.daily).toBeUndefined();
    const tooLong = await ota([
      'usage',
      tenant.tenant_id,
      '--from',
      '2025-01-01',
      '--to',
      '2026-11-30',
      '--by-day',
    ]);
    expect(tooLong.code).toBe(1);
    expect(tooLong.stderr).toMatch(/end_date/);
  });

  it("all: every tenant's usage of a period, a page or --all by cursor; --json", async () => {
    const tenants = (await admin().listTenants({ limit: 100 })).total;
    expect(tenants).toBeGreaterThan(2);
    const all = await ota(['usage', 'all', '--from', '2026-11-01', '--to', '2026-11-30', '--all']);
    expect(all).toMatchObject({ code: 0, stderr: '' });
    const out = lines(all.stdout);
    expect(out[0]).toMatch(/^TENANT\s+PERIOD\s+RUNS\s+PAGES\s+POINTS\s+FILES\s+BYTES$/);
    expect(out[1]).toMatch(new RegExp(`^${h.tenant.tenant_id}\\s+2026-11-01 to 2026-11-30\\s+\\d+`));
    expect(out).toHaveLength(tenants + 2);
    expect(out.at(-1)).toBe(`${tenants} tenants`);
    // a page of two, then the next after its cursor
    const first = JSON.parse((await ota(['usage', 'all', '--limit', '2', '--json'])).stdout);
    expect(first.data).toHaveLength(2);
    expect(first.next_cursor).toBe(first.data[1].tenant_id);
    const firstTable = await ota(['usage', 'all', '--limit', '2']);
    expect(lines(firstTable.stdout).at(-1)).toBe(`2 tenants; more with --after ${first.next_cursor}`);
    const next = JSON.parse(
      (await ota(['usage', 'all', '--limit', '2', '--after', first.next_cursor, '--json'])).stdout,
    );
    expect(next.data[0].tenant_id).not.toBe(first.data[1].tenant_id);
    const every = JSON.parse((await ota(['usage', 'all', '--all', '--json'])).stdout);
    expect(every.next_cursor).toBeNull();
    expect(every.data.slice(0, 4).map((u: { tenant_id: string }) => u.tenant_id)).toEqual(
      [...first.data, ...next.data].map((u: { tenant_id: string }) => u.tenant_id),
    );
  });

  it('refusals: an unknown tenant or cursor is 404 (exit 1); --by-day on all, a bad --limit, exit 2', async () => {
    const missing = await ota(['usage', NO_SUCH_ID, '--by-day']);
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr).toMatch(/^error: Tenant not found \(request /);
    const cursor = await ota(['usage', 'all', '--after', NO_SUCH_ID, '--json']);
    expect(cursor.code).toBe(1);
    expect(JSON.parse(cursor.stdout)).toMatchObject({ error: 'not_found', status: 404 });
    const byDay = await ota(['usage', 'all', '--by-day', '--json']);
    expect(byDay.code).toBe(2);
    expect(JSON.parse(byDay.stdout)).toEqual({
      error: 'usage',
      message: '--by-day is for one tenant: usage TENANT_ID --by-day',
    });
    expect((await ota(['usage', 'all', '--limit', '0'])).code).toBe(2);
    expect((await ota(['usage', 'all', '--after', 'x'])).code).toBe(2);
  });
});

describe('ota admin audit', () => {
  it('--action, --since, --until, --order asc, --after and --all', async () => {
    const { tenant } = await admin().createTenant({ name: 'trail-co' });
    await admin().updateTenant(tenant.tenant_id, { price_per_point: 4 });
    await admin().suspendTenant(tenant.tenant_id);
    await admin().resumeTenant(tenant.tenant_id);
    const of = async (...args: string[]) =>
      JSON.parse((await ota(['audit', '--tenant', tenant.tenant_id, ...args, '--json'])).stdout) as {
        data: AuditEvent[];
        total: number;
        next_cursor: string | null;
      };
    const actions = (page: { data: AuditEvent[] }) => page.data.map((e) => e.action);
    expect(actions(await of())).toEqual([
      'tenant.resumed',
      'tenant.suspended',
      'tenant.updated',
      'tenant.created',
    ]);
    expect(actions(await of('--order', 'asc'))).toEqual([
      'tenant.created',
      'tenant.updated',
      'tenant.suspended',
      'tenant.resumed',
    ]);
    expect(actions(await of('--action', 'tenant.suspended'))).toEqual(['tenant.suspended']);
    const oldest = await of('--order', 'asc', '--limit', '2');
    expect(oldest).toMatchObject({ total: 4, next_cursor: oldest.data[1]!.id });
    const rest = await of('--order', 'asc', '--after', oldest.next_cursor!);
    expect(actions(rest)).toEqual(['tenant.suspended', 'tenant.resumed']);
    expect(rest.next_cursor).toBeNull();
    const resumedAt = (await of()).data[0]!.at;
    expect(actions(await of('--since', resumedAt))).toEqual(['tenant.resumed']);
    expect(actions(await of('--until', resumedAt))).not.toContain('tenant.resumed');
    // every page by cursor, from a cursor on
    const everyAsc = await of('--order', 'asc', '--all', '--after', oldest.data[0]!.id);
    expect(actions(everyAsc)).toEqual(['tenant.updated', 'tenant.suspended', 'tenant.resumed']);
    const table = await ota(['audit', '--tenant', tenant.tenant_id, '--limit', '1']);
    expect(lines(table.stdout).at(-1)).toMatch(/^1 of 4 events; more with --after [0-9a-f-]{36}$/);
  });

  it('refusals: an unknown --after is 404 (exit 1); an unknown action or order, or --until before --since', async () => {
    const unknown = await ota(['audit', '--after', NO_SUCH_ID]);
    expect(unknown).toMatchObject({ code: 1, stdout: '' });
    expect(unknown.stderr).toMatch(/^error: .*not found \(request /i);
    const action = await ota(['audit', '--action', 'tenant.deleted']);
    expect(action.code).toBe(2);
    expect(action.stderr).toMatch(
      /^error: option '--action <action>' argument 'tenant\.deleted' is invalid\. Allowed choices are tenant\.created, /,
    );
    const order = await ota(['audit', '--order', 'newest', '--json']);
    expect(order.code).toBe(2);
    expect(JSON.parse(order.stdout)).toMatchObject({ error: 'usage', usage: 'ota admin audit [options]' });
    expect((await ota(['audit', '--after', 'last'])).code).toBe(2);
    const backwards = await ota([
      'audit',
      '--since',
      '2026-11-02T00:00:00Z',
      '--until',
      '2026-11-01T00:00:00Z',
      '--json',
    ]);
    expect(backwards.code).toBe(1);
    expect(JSON.parse(backwards.stdout)).toMatchObject({ status: 422 });
  });
});

describe('ota admin admin-tokens', () => {
  it('issue (scoped, expiring), list and revoke; the scoped token gets only what it holds', async () => {
    const expiresAt = '2099-01-01T00:00:00.000Z';
    const issued = await ota([
      'admin-tokens',
      'issue',
      '--name',
      'billing-job',
      '--scope',
      'admin:ledger',
      '--scope',
      'admin:usage',
      '--expires-at',
      expiresAt,
    ]);
    expect(issued).toMatchObject({ code: 0, stderr: '' });
    const [header, row, , secretLine] = lines(issued.stdout);
    expect(header).toMatch(/^ADMIN TOKEN\s+NAME\s+PREFIX\s+STATE\s+SCOPES\s+LAST USED$/);
    expect(row).toMatch(
      new RegExp(
        `^[0-9a-f-]{36}\\s+billing-job\\s+ota_admin_\\S+\\s+active, expires ${expiresAt}\\s+admin:ledger admin:usage\\s+-$`,
      ),
    );
    const [, id, secret] = /^admin token ([0-9a-f-]{36}) \(shown only now\): (ota_admin_\S+)$/.exec(
      secretLine!,
    ) as unknown as [string, string, string];
    const billing = admin(secret);
    expect((await billing.listUsage({ limit: 1 })).data).toHaveLength(1);
    await expect(billing.listTenants()).rejects.toMatchObject({ status: 403, error: 'insufficient_scope' });
    // a token grants only what it holds
    const wider = await ota(['admin-tokens', 'issue', '--name', 'wider', '--json'], {
      OTA_ADMIN_TOKEN: secret,
    });
    expect(wider.code).toBe(1);
    expect(JSON.parse(wider.stdout)).toMatchObject({ status: 403, error: 'insufficient_scope' });

    const listed = JSON.parse((await ota(['admin-tokens', 'list', '--json'])).stdout) as PlatformAdminToken[];
    expect(listed.find((t) => t.admin_token_id === id)).toMatchObject({
      name: 'billing-job',
      scopes: ['admin:ledger', 'admin:usage'],
      expires_at: expiresAt,
      last_used_at: expect.any(String),
    });
    const table = await ota(['admin-tokens', 'list']);
    expect(table.stdout).not.toContain(secret);
    expect(table.stdout).toMatch(/\s+active\s+all\s/);
    const plain = JSON.parse(
      (await ota(['admin-tokens', 'issue', '--name', 'ops', '--expires-in', '1', '--json'])).stdout,
    );
    // every admin scope, admin:exports among them
    expect(plain.scopes).toHaveLength(7);
    expect(Date.parse(plain.expires_at) - Date.now()).toBeGreaterThan(0.9 * 86_400_000);

    const revoked = await ota(['admin-tokens', 'revoke', id]);
    expect(revoked.code).toBe(0);
    expect(lines(revoked.stdout)[1]).toMatch(/\s+revoked \d{4}-\S+\s+admin:ledger admin:usage\s/);
    await expect(billing.listUsage()).rejects.toMatchObject({ status: 401 });
  });

  it('refusals: an unknown id is 404 (exit 1); an unknown scope, no name, a bad id exit 2', async () => {
    const unknown = await ota(['admin-tokens', 'revoke', NO_SUCH_ID]);
    expect(unknown).toMatchObject({ code: 1, stdout: '' });
    expect(unknown.stderr).toMatch(/^error: Admin token not found \(request [0-9a-f-]{36}\)\n$/);
    const scope = await ota(['admin-tokens', 'issue', '--name', 'x', '--scope', 'admin:everything']);
    expect(scope.code).toBe(2);
    expect(scope.stderr).toMatch(
      /^error: option '--scope <scope>' argument 'admin:everything' is invalid\. must be one of admin:tenants, admin:tokens, /,
    );
    const noName = await ota(['admin-tokens', 'issue']);
    expect(noName).toMatchObject({
      code: 2,
      stderr:
        "error: required option '--name <name>' not specified\nusage: ota admin admin-tokens issue [options]\n",
    });
    expect((await ota(['admin-tokens', 'revoke', 'nope'])).code).toBe(2);
    const past = await ota([
      'admin-tokens',
      'issue',
      '--name',
      'x',
      '--expires-at',
      '2020-01-01T00:00:00Z',
      '--json',
    ]);
    expect(past.code).toBe(1);
    expect(JSON.parse(past.stdout)).toMatchObject({ status: 422 });
  });

  it('the typed client: listAdminTokens, issueAdminToken, revokeAdminToken', async () => {
    const issued = await admin().issueAdminToken({ name: 'typed', scopes: ['admin:audit'] });
    expect(issued.token).toMatch(/^ota_admin_[A-Za-z0-9_-]{43}$/);
    expect((await admin(issued.token).listAuditEvents({ limit: 1 })).data).toHaveLength(1);
    expect(
      (await admin().listAdminTokens()).find((t) => t.admin_token_id === issued.admin_token_id),
    ).toMatchObject({
      scopes: ['admin:audit'],
      revoked_at: null,
    });
    expect((await admin().revokeAdminToken(issued.admin_token_id)).revoked_at).toEqual(expect.any(String));
    const refused = await admin()
      .revokeAdminToken(NO_SUCH_ID)
      .catch((error: unknown) => error as OtaError);
    expect(refused).toMatchObject({ status: 404, error: 'not_found' });
  });
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
/** The archive blob of an export, as the server keeps it. */
const archiveKey = async (exportId: string) =>
  (
    await h.query<{ storage_key: string }>('SELECT storage_key FROM tenant_exports WHERE id = ?', [exportId])
  )[0]!.storage_key;

describe('ota admin tenants: offboarding', () => {
  it('export --out: progress on stderr, the archive downloaded and checked; export-status, export-download; --json', async () => {
    const { tenant } = await admin().createTenant({ name: 'leaving-co', currency: 'EUR' });
    await admin().appendLedgerEntries(tenant.tenant_id, [
      entry('out-1', 500, '07'),
      entry('out-2', 700, '08'),
    ]);
    const file = path.join(dir, 'leaving.tar');
    const exported = await ota(['tenants', 'export', tenant.tenant_id, '--out', file]);
    expect(exported.code, exported.stderr).toBe(0);
    // a line each time the status or progress changed, ending with the export succeeded
    const progress = lines(exported.stderr);
    expect(progress.every((line) => /^export [0-9a-f-]{36} (queued|running|succeeded) \d+%/.test(line))).toBe(
      true,
    );
    expect(progress.at(-1)).toMatch(/ succeeded 100% \((\d+)\/\1 entries\)$/);
    const out = lines(exported.stdout);
    const exportId = /^export {4}([0-9a-f-]{36}) of tenant /.exec(out[0]!)![1]!;
    const done = await admin().getTenantExport(tenant.tenant_id, exportId);
    expect(out).toEqual([
      `export    ${exportId} of tenant ${tenant.tenant_id}`,
      `status    succeeded, 100% (${done.entries_done} of ${done.entries_total} entries)`,
      `archive   ${done.size_bytes} bytes, SHA-256 ${done.sha256}`,
      `created   ${done.created_at}, started ${done.started_at}, completed ${done.completed_at}`,
      `saved     ${file} (${done.size_bytes} bytes, SHA-256 checked against the export's)`,
    ]);
    const bytes = readFileSync(file);
    expect([bytes.length, sha256(bytes)]).toEqual([done.size_bytes, done.sha256]);
    // an outside judge reads it: GNU tar
    const listed = execFileSync('tar', ['-tf', file], { encoding: 'utf8' }).trimEnd().split('\n');
    expect(listed[0]).toBe('tenant.json');
    expect(listed).toContain('records/transactions/000001.jsonl');
    expect(listed.at(-1)).toBe('manifest.json');
    expect(readdirSync(dir).filter((name) => name.endsWith('.part'))).toEqual([]);

    const status = await ota(['tenants', 'export-status', tenant.tenant_id, exportId, '--json']);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toEqual(done);
    const statusTable = await ota(['tenants', 'export-status', tenant.tenant_id, exportId]);
    expect(lines(statusTable.stdout)).toEqual(out.slice(0, 4));

    const again = path.join(dir, 'again.tar');
    const downloaded = await ota([
      'tenants',
      'export-download',
      tenant.tenant_id,
      exportId,
      '--out',
      again,
      '--json',
    ]);
    expect(downloaded).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(downloaded.stdout)).toEqual({
      ...done,
      archive: { path: again, size_bytes: done.size_bytes, sha256: done.sha256 },
    });
    expect(readFileSync(again).equals(bytes)).toBe(true);

    // a file that cannot be written: said as the command line says it, exit 1
    const nowhere = path.join(dir, 'no-such-dir', 'x.tar');
    const unwritable = await ota([
      'tenants',
      'export-download',
      tenant.tenant_id,
      exportId,
      '--out',
      nowhere,
    ]);
    expect(unwritable).toMatchObject({
      code: 1,
      stdout: '',
      stderr: `error: no such directory: ${path.dirname(nowhere)}\n`,
    });
    const onDir = await ota(['tenants', 'export-download', tenant.tenant_id, exportId, '--out', dir]);
    expect([onDir.code, onDir.stderr]).toEqual([1, `error: a directory, not a file: ${dir}\n`]);
    expect(readdirSync(dir).filter((name) => name.endsWith('.part'))).toEqual([]);

    // without --wait or --out: the export as it was started; --wait --json: one document, the export
    const started = await ota(['tenants', 'export', tenant.tenant_id, '--json']);
    expect(started.code).toBe(0);
    const queued = JSON.parse(started.stdout) as AdminTenantExport;
    expect(queued).toMatchObject({ tenant_id: tenant.tenant_id, status: 'queued', sha256: null });
    expect((await admin().waitForTenantExport(tenant.tenant_id, queued.export_id)).status).toBe('succeeded');
    const waited = await ota(['tenants', 'export', tenant.tenant_id, '--wait', '--json']);
    expect(waited.code).toBe(0);
    const waitedExport = JSON.parse(waited.stdout);
    expect(waitedExport).toMatchObject({ status: 'succeeded', progress: 100 });
    expect(waitedExport).not.toHaveProperty('archive');
    // with --json, nothing on stderr: its progress is not told
    expect(waited.stderr).toBe('');
  });

  it('refusals: an export not ready is the 409 in its words, a failed one exit 1 with its error, an archive not the one recorded leaves no file', async () => {
    const { tenant, token } = await admin().createTenant({ name: 'refused-export-co' });
    const fileId = await uploadPdf(h, readPdf('profiles/accessibility-untagged.pdf'), { token: token.token });
    const done = await admin().waitForTenantExport(
      tenant.tenant_id,
      (await admin().createTenantExport(tenant.tenant_id)).export_id,
    );
    expect(done.status).toBe('succeeded');

    // an archive whose bytes are not those the export recorded: refused, nothing left at --out
    const blobs = h.server.services.blobs;
    const key = await archiveKey(done.export_id);
    const { stream } = await blobs.open(key);
    const chunks: Buffer[] = [];
    for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
    const original = Buffer.concat(chunks);
    const altered = Buffer.from(original);
    altered[altered.length - 1] = altered.at(-1)! ^ 1;
    await blobs.putBytes(key, altered);
    const file = path.join(dir, 'altered.tar');
    const mismatch = await ota([
      'tenants',
      'export-download',
      tenant.tenant_id,
      done.export_id,
      '--out',
      file,
    ]);
    expect(mismatch).toMatchObject({ code: 1, stdout: '' });
    expect(mismatch.stderr).toBe(
      `error: the archive downloaded has SHA-256 ${sha256(altered)} (${altered.length} bytes), not the export's ` +
        `${done.sha256}: ${file} was not written; download it again\n`,
    );
    expect(existsSync(file)).toBe(false);
    expect(readdirSync(dir).filter((name) => name.endsWith('.part'))).toEqual([]);
    const typed = await admin()
      .saveTenantExport(tenant.tenant_id, done.export_id, file)
      .catch((error: unknown) => error);
    expect(typed).toBeInstanceOf(ExportIntegrityError);
    expect(typed).toMatchObject({ expected: done.sha256, received: sha256(altered) });
    await blobs.putBytes(key, original);

    // an export not succeeded: the server's 409 export_not_ready, in its words, and no file
    await h.query("UPDATE tenant_exports SET status = 'failed' WHERE id = ?", [done.export_id]);
    const notReady = await ota([
      'tenants',
      'export-download',
      tenant.tenant_id,
      done.export_id,
      '--out',
      file,
    ]);
    expect(notReady).toMatchObject({ code: 1, stdout: '' });
    const refused = await admin()
      .downloadTenantExport(tenant.tenant_id, done.export_id)
      .catch((error: unknown) => error as OtaError);
    expect(refused).toMatchObject({ status: 409, error: 'export_not_ready' });
    expect(notReady.stderr).toMatch(
      new RegExp(`^error: ${escape((refused as OtaError).message)} \\(request [0-9a-f-]{36}\\)\\n$`),
    );
    const notReadyJson = await ota([
      'tenants',
      'export-download',
      tenant.tenant_id,
      done.export_id,
      '--out',
      file,
      '--json',
    ]);
    expect(notReadyJson.code).toBe(1);
    expect(JSON.parse(notReadyJson.stdout)).toMatchObject({ error: 'export_not_ready', status: 409 });
    expect(existsSync(file)).toBe(false);

    // a file the export must hold is gone: --wait ends with the export failed, exit 1, its error said
    const [stored] = await h.query<{ storage_key: string }>('SELECT storage_key FROM files WHERE id = ?', [
      fileId,
    ]);
    await blobs.delete(stored!.storage_key);
    const failed = await ota(['tenants', 'export', tenant.tenant_id, '--wait']);
    expect(failed).toMatchObject({ code: 1, stdout: '' });
    expect(failed.stderr).toMatch(
      new RegExp(
        `\\nerror: export [0-9a-f-]{36} failed \\(internal_error\\): .+; start another with tenants export ${tenant.tenant_id}\\n$`,
      ),
    );
    const failedJson = await ota(['tenants', 'export', tenant.tenant_id, '--out', file, '--json']);
    expect([failedJson.code, failedJson.stderr]).toEqual([1, '']);
    expect(JSON.parse(failedJson.stdout)).toMatchObject({
      error: 'failed',
      message: expect.stringMatching(/^export [0-9a-f-]{36} failed \(internal_error\)/),
      export: { status: 'failed', sha256: null, error: { code: 'internal_error' } },
    });
    expect(existsSync(file)).toBe(false);

    const unknown = await ota(['tenants', 'export-status', tenant.tenant_id, NO_SUCH_ID]);
    expect(unknown).toMatchObject({ code: 1, stdout: '' });
    expect(unknown.stderr).toMatch(/^error: .+ \(request [0-9a-f-]{36}\)\n$/);
    expect((await ota(['tenants', 'export', NO_SUCH_ID, '--json'])).code).toBe(1);
    const badId = await ota(['tenants', 'export-status', tenant.tenant_id, 'latest']);
    expect(badId.code).toBe(2);
    expect(badId.stderr).toMatch(/'latest' is invalid for argument 'export_id'\. an export id is a UUID/);
    const noOut = await ota(['tenants', 'export-download', tenant.tenant_id, done.export_id]);
    expect(noOut).toMatchObject({ code: 2, stdout: '' });
    expect(noOut.stderr).toMatch(/^error: required option '--out <file>' not specified\n/);
  });

  it('delete --grace-seconds: marked (suspended, erase_at); resume unmarks it within the grace period, 409 tenant_erasing after', async () => {
    const { tenant, token } = await admin().createTenant({ name: 'deleted-co' });
    const marked = await ota(['tenants', 'delete', tenant.tenant_id, '--grace-seconds', '3600']);
    expect(marked).toMatchObject({ code: 0, stderr: '' });
    const [header, row] = lines(marked.stdout);
    expect(header).toMatch(/\s+STATE\s+/);
    const got = await admin().getTenant(tenant.tenant_id);
    expect(got).toMatchObject({ state: 'suspended', erase_at: expect.any(String) });
    expect(Date.parse(got.erase_at!) - Date.parse(got.deletion_requested_at!)).toBe(3_600_000);
    expect(row).toContain(`  marked for deletion, erased after ${got.erase_at}  `);
    // its token answers as a suspended tenant's
    const tenantApi = await fetch(`${h.url}/api/open/runs`, {
      headers: { authorization: `Bearer ${token.token}` },
    });
    expect(tenantApi.status).toBe(403);
    // marking again changes nothing
    const twice = JSON.parse(
      (await ota(['tenants', 'delete', tenant.tenant_id, '--grace-seconds', '0', '--json'])).stdout,
    );
    expect(twice.erase_at).toBe(got.erase_at);
    const resumed = JSON.parse((await ota(['tenants', 'resume', tenant.tenant_id, '--json'])).stdout);
    expect(resumed).toMatchObject({ state: 'active', erase_at: null, deletion_requested_at: null });

    // the server's default grace period, then none: resuming is refused from then on
    const byDefault = JSON.parse((await ota(['tenants', 'delete', tenant.tenant_id, '--json'])).stdout);
    expect(Date.parse(byDefault.erase_at) - Date.parse(byDefault.deletion_requested_at)).toBeGreaterThan(
      3_600_000,
    );
    await ota(['tenants', 'resume', tenant.tenant_id]);
    expect((await ota(['tenants', 'delete', tenant.tenant_id, '--grace-seconds', '0'])).code).toBe(0);
    const late = await ota(['tenants', 'resume', tenant.tenant_id]);
    expect(late).toMatchObject({ code: 1, stdout: '' });
    expect(late.stderr).toMatch(/^error: .+ \(request [0-9a-f-]{36}\)\n$/);
    const lateJson = await ota(['tenants', 'resume', tenant.tenant_id, '--json']);
    expect(JSON.parse(lateJson.stdout)).toMatchObject({ error: 'tenant_erasing', status: 409 });

    const tooLong = await ota([
      'tenants',
      'delete',
      h.tenant.tenant_id,
      '--grace-seconds',
      '31536001',
      '--json',
    ]);
    expect(tooLong.code).toBe(1);
    expect(JSON.parse(tooLong.stdout)).toMatchObject({ status: 422 });
    expect((await admin().getTenant(h.tenant.tenant_id)).erase_at).toBeNull();
    const negative = await ota(['tenants', 'delete', h.tenant.tenant_id, '--grace-seconds', '-1']);
    expect(negative.code).toBe(2);
    expect(negative.stderr).toMatch(
      /option '--grace-seconds <n>' argument '-1' is invalid\. must be a whole number >= 0/,
    );
    expect((await ota(['tenants', 'delete', NO_SUCH_ID])).code).toBe(1);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('the typed admin client: offboarding', () => {
  it('deleteTenant, createTenantExport, getTenantExport, waitForTenantExport, downloadTenantExport, saveTenantExport', async () => {
    const { tenant } = await admin().createTenant({ name: 'typed-leaving-co' });
    const started = await admin().createTenantExport(tenant.tenant_id);
    expect(started).toMatchObject({ tenant_id: tenant.tenant_id, status: 'queued', progress: 0 });
    const busy = await admin()
      .createTenantExport(tenant.tenant_id)
      .catch((error: unknown) => error as OtaError);
    // one at a time, unless the first was built already
    if (busy instanceof Error) expect(busy).toMatchObject({ status: 409, error: 'export_in_progress' });
    else await admin().waitForTenantExport(tenant.tenant_id, busy.export_id);
    const seen: string[] = [];
    const done = await admin().waitForTenantExport(tenant.tenant_id, started.export_id, {
      intervalMs: 50,
      onProgress: (exported) => seen.push(exported.status),
    });
    expect(done).toMatchObject({
      status: 'succeeded',
      progress: 100,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(seen.at(-1)).toBe('succeeded');
    expect(await admin().getTenantExport(tenant.tenant_id, started.export_id)).toEqual(done);

    // the stream, with the size and the SHA-256 the headers say
    const archive = await admin().downloadTenantExport(tenant.tenant_id, done.export_id);
    expect([archive.sizeBytes, archive.sha256]).toEqual([done.size_bytes, done.sha256]);
    const chunks: Buffer[] = [];
    for await (const chunk of archive.body) chunks.push(chunk as Buffer);
    expect(sha256(Buffer.concat(chunks))).toBe(done.sha256);
    const file = path.join(dir, 'typed.tar');
    expect(await admin().saveTenantExport(tenant.tenant_id, done.export_id, file)).toEqual({
      path: file,
      size_bytes: done.size_bytes,
      sha256: done.sha256,
    });
    expect(sha256(readFileSync(file))).toBe(done.sha256);

    const marked = await admin().deleteTenant(tenant.tenant_id, { grace_period_seconds: 60 });
    expect(Date.parse(marked.erase_at!) - Date.parse(marked.deletion_requested_at!)).toBe(60_000);
    // still exported while marked
    expect((await admin().getTenantExport(tenant.tenant_id, done.export_id)).status).toBe('succeeded');
    expect(await admin().resumeTenant(tenant.tenant_id)).toMatchObject({ state: 'active', erase_at: null });
    const unknown = await admin()
      .getTenantExport(tenant.tenant_id, NO_SUCH_ID)
      .catch((error: unknown) => error as OtaError);
    expect(unknown).toMatchObject({ status: 404 });
  });
});
