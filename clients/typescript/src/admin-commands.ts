import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type Command, InvalidArgumentError, Option } from 'commander';
import type {
  AdminLedgerEntryInput,
  AdminLedgerEntryOutcome,
  AdminScope,
  AdminTenant,
  AdminTenantExport,
  AdminToken,
  AdminUpdateTenantInput,
  AdminUsage,
  AuditAction,
  AuditEvent,
  AuditEventQuery,
  OpenTenantAdminClient,
  PlatformAdminToken,
  SavedTenantExport,
  TokenScope,
  Transaction,
} from './admin-client.js';
import {
  type CliIo,
  CommandFailed,
  idArgument,
  tenantArgument,
  nonNegativeInt,
  positiveInt,
  UsageError,
} from './command-line.js';
import { formatMoney } from './money.js';
import { table } from './terminal.js';

/**
 * The admin API's commands, defined once: `ota admin ...` runs them against an admin listener over HTTP, and
 * the server's `npm run admin -- ...` runs the same tree against the admin API of its own DATA_DIR, served
 * in its process (src/cli/admin-commands.ts), so that both take the same arguments (ids are positional, as
 * in the API's paths) and print the same output: aligned tables, or with --json the API's object.
 */

/** The admin API a command talks to, opened when a command first needs it. */
export type AdminConnection = (command: Command) => Promise<OpenTenantAdminClient>;

const tenantId = tenantArgument('tenants list');
/** A page's cursor is a tenant's id, as `next_cursor` gives it. */
const cursorTenantId = idArgument('a tenant id', 'usage all --json');
const tokenId = idArgument('a token id', 'tokens list TENANT_ID');
const transactionId = idArgument('a transaction id', 'ledger list TENANT_ID');
const adminTokenId = idArgument('an admin token id', 'admin-tokens list');
const auditEventId = idArgument('an audit event id', 'audit --json');
const exportId = idArgument('an export id', 'tenants export TENANT_ID');

const DAY_MS = 86_400_000;

// a record over the contract's type: a scope added to openapi.yaml does not compile until it is here
const TOKEN_SCOPE_SET: Record<TokenScope, true> = {
  'finance:read': true,
  'uploads:read': true,
  'uploads:write': true,
  'files:read': true,
  'runs:read': true,
  'runs:write': true,
  'webhooks:manage': true,
  'events:read': true,
};
const TOKEN_SCOPES = Object.keys(TOKEN_SCOPE_SET) as TokenScope[];

const ADMIN_SCOPE_SET: Record<AdminScope, true> = {
  'admin:tenants': true,
  'admin:tokens': true,
  'admin:ledger': true,
  'admin:usage': true,
  'admin:audit': true,
  'admin:admin_tokens': true,
  'admin:exports': true,
};
const ADMIN_SCOPES = Object.keys(ADMIN_SCOPE_SET) as AdminScope[];

const AUDIT_ACTION_SET: Record<AuditAction, true> = {
  'tenant.created': true,
  'tenant.updated': true,
  'tenant.suspended': true,
  'tenant.resumed': true,
  'token.issued': true,
  'token.revoked': true,
  'ledger.appended': true,
  'ledger.reversed': true,
  'admin_token.issued': true,
  'admin_token.revoked': true,
  'tenant.deletion_scheduled': true,
  'tenant.erased': true,
  'tenant.exported': true,
};
const AUDIT_ACTIONS = Object.keys(AUDIT_ACTION_SET) as AuditAction[];

/** A repeatable `--scope` checked against one of the contract's scope sets. */
function scopeList<S extends string>(set: Record<S, true>): (scope: string, scopes: S[]) => S[] {
  return (scope, scopes) => {
    if (!(scope in set)) throw new InvalidArgumentError(`must be one of ${Object.keys(set).join(', ')}`);
    return [...scopes, scope as S];
  };
}

/** `--expires-at TIME` or `--expires-in DAYS`, as the API takes it: a time, or nothing for never. */
function expiryOf(options: { expiresAt?: string; expiresIn?: number }): string | undefined {
  return options.expiresIn !== undefined
    ? new Date(Date.now() + options.expiresIn * DAY_MS).toISOString()
    : options.expiresAt;
}

/** The most entries the ledger feed takes in one call (AdminLedgerBatch in openapi.yaml). */
const LEDGER_BATCH_MAX = 500;

function tenantRows(list: AdminTenant[]): string {
  return table(
    list.map((t) => ({
      ...t,
      price_per_point: formatMoney(t.price_per_point, t.currency),
      state: t.erase_at
        ? `marked for deletion, erased after ${t.erase_at}`
        : t.state === 'suspended'
          ? `suspended ${t.suspended_at ?? ''}`.trim()
          : t.state,
    })),
    [
      ['tenant_id', 'TENANT'],
      ['name', 'NAME'],
      ['currency', 'CURRENCY'],
      ['price_per_point', 'PRICE/POINT'],
      ['state', 'STATE'],
      ['created_at', 'CREATED'],
      ['api_version', 'API VERSION'],
    ],
    ['price_per_point'],
  );
}

/** What a token row says at a glance: revoked wins over expired. */
function tokenState(token: Pick<AdminToken, 'revoked_at' | 'expires_at'>): string {
  if (token.revoked_at) return `revoked ${token.revoked_at}`;
  if (token.expires_at && Date.parse(token.expires_at) <= Date.now()) return `expired ${token.expires_at}`;
  return token.expires_at ? `active, expires ${token.expires_at}` : 'active';
}

function tokenRows(list: AdminToken[]): string {
  return table(
    list.map((t) => ({
      ...t,
      state: tokenState(t),
      scope_list: TOKEN_SCOPES.every((s) => t.scopes.includes(s)) ? 'all' : t.scopes.join(' '),
    })),
    [
      ['token_id', 'TOKEN'],
      ['name', 'NAME'],
      ['prefix', 'PREFIX'],
      ['state', 'STATE'],
      ['scope_list', 'SCOPES'],
      ['last_used_at', 'LAST USED'],
    ],
  );
}

function adminTokenRows(list: PlatformAdminToken[]): string {
  return table(
    list.map((t) => ({
      ...t,
      state: tokenState(t),
      scope_list: ADMIN_SCOPES.every((s) => t.scopes.includes(s)) ? 'all' : t.scopes.join(' '),
    })),
    [
      ['admin_token_id', 'ADMIN TOKEN'],
      ['name', 'NAME'],
      ['prefix', 'PREFIX'],
      ['state', 'STATE'],
      ['scope_list', 'SCOPES'],
      ['last_used_at', 'LAST USED'],
    ],
  );
}

function transactionRows(list: Transaction[]): string {
  return table(
    list.map((t) => ({ ...t, money: formatMoney(t.amount, t.currency) })),
    [
      ['id', 'TRANSACTION'],
      ['occurred_at', 'OCCURRED'],
      ['type', 'TYPE'],
      ['source', 'SOURCE'],
      ['money', 'AMOUNT'],
      ['external_id', 'EXTERNAL ID'],
      ['description', 'DESCRIPTION'],
    ],
    ['money'],
  );
}

function outcomeRows(list: AdminLedgerEntryOutcome[]): string {
  return table(list, [
    ['external_id', 'EXTERNAL ID'],
    ['outcome', 'OUTCOME'],
    ['transaction_id', 'TRANSACTION'],
  ]);
}

/**
 * The entries of a feed file: a JSON array of entries, or the API's own body (`{"entries": [...]}`), at most
 * one call's worth. Each entry's fields are the server's to check (422 names the entry and the field).
 */
async function ledgerFile(file: string): Promise<AdminLedgerEntryInput[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const failure = error as NodeJS.ErrnoException;
    if (failure.code === 'ENOENT') throw new CommandFailed(`no such file: ${file}`);
    if (failure.code === 'EISDIR') throw new CommandFailed(`a directory, not a file: ${file}`);
    if (failure.code === 'EACCES') throw new CommandFailed(`not allowed to read ${file}`);
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CommandFailed(`${file} is not JSON: ${(error as Error).message}`);
  }
  const entries =
    parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as { entries?: unknown }).entries
      : parsed;
  if (!Array.isArray(entries))
    throw new CommandFailed(`${file} must hold an array of ledger entries, or {"entries": [...]}`);
  if (entries.length === 0) throw new CommandFailed(`${file} holds no entries`);
  if (entries.length > LEDGER_BATCH_MAX)
    throw new CommandFailed(
      `${file} holds ${entries.length} entries; the feed takes at most ${LEDGER_BATCH_MAX} a call ` +
        '(split the file, or import a settlement file with npm run admin -- revenue import on the server)',
    );
  return entries as AdminLedgerEntryInput[];
}

/** `name=acme price_per_point=12`: what changed, on one line. */
function auditDetail(detail: AuditEvent['detail']): string {
  if (!detail) return '';
  return Object.entries(detail)
    .map(([key, value]) => `${key}=${Array.isArray(value) ? value.join(',') : String(value)}`)
    .join(' ');
}

function auditRows(list: AuditEvent[]): string {
  return table(
    list.map((e) => ({ ...e, change: auditDetail(e.detail) })),
    [
      ['at', 'AT'],
      ['action', 'ACTION'],
      ['actor', 'ACTOR'],
      ['tenant_id', 'TENANT'],
      ['target_id', 'TARGET'],
      ['change', 'DETAIL'],
    ],
  );
}

/**
 * A file the user named, absolute: a relative one is the user's directory's. `npm run admin -- ...` and
 * `npm run ota -- ...` run in the package's root wherever the user was, and npm says where that was in
 * INIT_CWD.
 */
function userFile(given: string): string {
  const event = process.env.npm_lifecycle_event;
  const npmMovedUs = (event === 'admin' || event === 'ota') && process.env.INIT_CWD;
  return path.resolve(npmMovedUs ? process.env.INIT_CWD! : process.cwd(), given);
}

function exportLines(exported: AdminTenantExport): string {
  const entries =
    exported.entries_total === null
      ? `${exported.entries_done} entries`
      : `${exported.entries_done} of ${exported.entries_total} entries`;
  return [
    `export    ${exported.export_id} of tenant ${exported.tenant_id}`,
    `status    ${exported.status}, ${exported.progress}% (${entries})`,
    `archive   ${exported.sha256 !== null ? `${exported.size_bytes} bytes, SHA-256 ${exported.sha256}` : '-'}`,
    `created   ${exported.created_at}, started ${exported.started_at ?? '-'}, completed ${exported.completed_at ?? '-'}`,
    ...(exported.error ? [`error     ${exported.error.code}: ${exported.error.message}`] : []),
  ].join('\n');
}

function savedLine(saved: SavedTenantExport): string {
  return `saved     ${saved.path} (${saved.size_bytes} bytes, SHA-256 checked against the export's)`;
}

/** An export that finished `failed`: exit 1, its error said (with --json, the export is in the document). */
function exportFailed(exported: AdminTenantExport): CommandFailed {
  const why = exported.error ? ` (${exported.error.code}): ${exported.error.message}` : '';
  return new CommandFailed(
    `export ${exported.export_id} failed${why}; start another with tenants export ${exported.tenant_id}`,
    [],
    { export: exported },
  );
}

/** An export's archive saved to `file`; a file that cannot be written is said as the command line says it. */
async function saveArchive(
  client: OpenTenantAdminClient,
  tenantId: string,
  exportId: string,
  file: string,
  expectedSha256?: string,
): Promise<SavedTenantExport> {
  try {
    return await client.saveTenantExport(tenantId, exportId, file, expectedSha256);
  } catch (error) {
    const failure = error as NodeJS.ErrnoException;
    const dir = path.dirname(file);
    if (failure.code === 'ENOENT') throw new CommandFailed(`no such directory: ${dir}`);
    if (failure.code === 'EACCES') throw new CommandFailed(`not allowed to write in ${dir}`);
    if (failure.code === 'EISDIR' || failure.code === 'ENOTDIR')
      throw new CommandFailed(`a directory, not a file: ${file}`);
    throw error;
  }
}

/** How long an export may stay queued before the wait says who builds it. */
const QUEUED_HINT_MS = 15_000;

/**
 * One line on stderr each time an export's status or progress changes (stdout keeps only the result), and
 * once, when it stays queued, who builds it: the server's API processes, not the command line (`npm run
 * admin` on a server that is not running waits for nothing).
 */
function exportProgress(io: CliIo): (exported: AdminTenantExport) => void {
  let last = '';
  const since = Date.now();
  let hinted = false;
  return (exported) => {
    const total =
      exported.entries_total === null ? '' : ` (${exported.entries_done}/${exported.entries_total} entries)`;
    const line = `export ${exported.export_id} ${exported.status} ${exported.progress}%${total}`;
    if (line !== last) io.err(`${line}\n`);
    last = line;
    if (exported.status === 'queued' && !hinted && Date.now() - since >= QUEUED_HINT_MS) {
      hinted = true;
      io.err(
        `export ${exported.export_id} still queued after ${QUEUED_HINT_MS / 1000} s: the server's API processes ` +
          'build exports, one at a time each; is one running on this database (npm start)?\n',
      );
    }
  };
}

/**
 * The admin API's commands under `parent` (`ota admin`, or the server's `admin` program): tenants, their
 * tokens, ledgers and usage, the audit trail and the platform's admin tokens. `open` gives the admin API to
 * talk to.
 */
export function addAdminCommands(parent: Command, open: AdminConnection, io: CliIo): void {
  const out = (text: string): void => io.out(`${text}\n`);
  const printJson = (value: unknown): void => out(JSON.stringify(value, null, 2));
  const connect = async (command: Command) => ({
    client: await open(command),
    json: command.optsWithGlobals<{ json?: boolean }>().json === true,
  });
  const tenants = parent
    .command('tenants')
    .description(
      'tenants: create, list, get, rename, set-price, pin, suspend, resume, delete, export, ' +
        'export-status, export-download',
    );
  tenants
    .command('create')
    .description("create a tenant and its first token (every scope); prints the token's secret once")
    .requiredOption('--name <name>', 'unique tenant name')
    .option('--currency <code>', "ISO 4217 currency of the tenant's ledger (default: the server's, USD)")
    .option(
      '--price-per-point <minor>',
      "price of one diagnosis point in minor units of the currency (default: the server's, 10)",
      nonNegativeInt,
    )
    .option(
      '--pin <version>',
      'the API version its requests without Open-Tenant-Version get, YYYY-MM-DD (default: the newest)',
    )
    .action(
      async (
        options: { name: string; currency?: string; pricePerPoint?: number; pin?: string },
        command: Command,
      ) => {
        const { client, json } = await connect(command);
        const created = await client.createTenant({
          name: options.name,
          ...(options.currency !== undefined ? { currency: options.currency } : {}),
          ...(options.pricePerPoint !== undefined ? { price_per_point: options.pricePerPoint } : {}),
          // the server says which versions it supports (422 otherwise)
          ...(options.pin !== undefined
            ? { api_version: options.pin as AdminUpdateTenantInput['api_version'] }
            : {}),
        });
        if (json) return printJson(created);
        out(tenantRows([created.tenant]));
        out(`\nAPI token ${created.token.token_id} (shown only now): ${created.token.token}`);
      },
    );
  tenants
    .command('list')
    .description('tenants, oldest first')
    .option('--limit <n>', 'how many (at most 100)', positiveInt, 20)
    .option('--offset <n>', 'skip this many', nonNegativeInt, 0)
    .option('--all', 'every tenant, page after page')
    .action(async (options: { limit: number; offset: number; all?: boolean }, command: Command) => {
      const { client, json } = await connect(command);
      let list: AdminTenant[];
      let total: number;
      if (options.all) {
        list = [];
        for await (const tenant of client.tenants()) list.push(tenant);
        total = list.length;
      } else {
        const page = await client.listTenants({ limit: options.limit, offset: options.offset });
        list = page.data;
        total = page.total;
      }
      if (json) return printJson({ data: list, total });
      out(tenantRows(list));
      out(`${list.length} of ${total} tenants`);
    });
  tenants
    .command('get')
    .description('one tenant')
    .argument('<tenant_id>', '', tenantId)
    .action(async (tenantId: string, _options: object, command: Command) => {
      const { client, json } = await connect(command);
      const tenant = await client.getTenant(tenantId);
      if (json) return printJson(tenant);
      out(tenantRows([tenant]));
    });
  tenants
    .command('rename')
    .description('give a tenant another name (unique among tenants)')
    .argument('<tenant_id>', '', tenantId)
    .requiredOption('--name <name>', 'the new name')
    .action(async (tenantId: string, options: { name: string }, command: Command) => {
      const { client, json } = await connect(command);
      const tenant = await client.updateTenant(tenantId, { name: options.name });
      if (json) return printJson(tenant);
      out(tenantRows([tenant]));
    });
  tenants
    .command('set-price')
    .description('set the price of a diagnosis point for the runs booked from now on')
    .argument('<tenant_id>', '', tenantId)
    .requiredOption(
      '--price-per-point <minor>',
      "price of one diagnosis point in minor units of the tenant's currency",
      nonNegativeInt,
    )
    .action(async (tenantId: string, options: { pricePerPoint: number }, command: Command) => {
      const { client, json } = await connect(command);
      const tenant = await client.updateTenant(tenantId, { price_per_point: options.pricePerPoint });
      if (json) return printJson(tenant);
      out(tenantRows([tenant]));
    });
  tenants
    .command('pin')
    .description(
      'pin a tenant to an API version: what its requests without Open-Tenant-Version get from now on ' +
        '(a request that names its version, and a webhook endpoint, keep theirs)',
    )
    .argument('<tenant_id>', '', tenantId)
    .argument('<version>', 'a supported version, YYYY-MM-DD (ota versions lists them)')
    .action(async (tenantId: string, version: string, _options: object, command: Command) => {
      const { client, json } = await connect(command);
      const tenant = await client.updateTenant(tenantId, {
        // the server says which versions it supports (422 otherwise); ota's list may be older
        api_version: version as AdminUpdateTenantInput['api_version'],
      });
      if (json) return printJson(tenant);
      out(tenantRows([tenant]));
    });
  for (const [name, description] of [
    [
      'suspend',
      "refuse the tenant's tokens (403 tenant_suspended) and hold its queued runs; nothing is deleted",
    ],
    [
      'resume',
      'give a suspended tenant its tokens and its queue back; unmarks a tenant marked for deletion, ' +
        'nothing lost, until its erase_at (409 tenant_erasing after)',
    ],
  ] as const) {
    tenants
      .command(name)
      .description(description)
      .argument('<tenant_id>', '', tenantId)
      .action(async (tenantId: string, _options: object, command: Command) => {
        const { client, json } = await connect(command);
        const tenant =
          name === 'suspend' ? await client.suspendTenant(tenantId) : await client.resumeTenant(tenantId);
        if (json) return printJson(tenant);
        out(tenantRows([tenant]));
      });
  }

  tenants
    .command('delete')
    .description(
      'mark a tenant for deletion: suspended at once, erased with everything it owns at the first sweep ' +
        'after its grace period (tenants resume undoes it until then); export it first',
    )
    .argument('<tenant_id>', '', tenantId)
    .option(
      '--grace-seconds <n>',
      "how long its data is kept before it is erased, at most a year (default: the server's " +
        'TENANT_DELETION_GRACE_SECONDS, 30 days); 0: at the next sweep',
      nonNegativeInt,
    )
    .action(async (tenantId: string, options: { graceSeconds?: number }, command: Command) => {
      const { client, json } = await connect(command);
      const tenant = await client.deleteTenant(
        tenantId,
        options.graceSeconds !== undefined ? { grace_period_seconds: options.graceSeconds } : {},
      );
      if (json) return printJson(tenant);
      out(tenantRows([tenant]));
    });
  tenants
    .command('export')
    .description(
      'export everything a tenant owns as one tar archive, which the server builds in the background ' +
        '(suspend the tenant first for a snapshot)',
    )
    .argument('<tenant_id>', '', tenantId)
    .option(
      '--wait',
      'wait until it has succeeded or failed, its progress on stderr (not with --json); exit 1 when it failed',
    )
    .option(
      '--out <file>',
      "then download its archive to this file, checking its SHA-256 against the export's (waits, as --wait)",
    )
    .action(async (tenantId: string, options: { wait?: boolean; out?: string }, command: Command) => {
      const { client, json } = await connect(command);
      let exported = await client.createTenantExport(tenantId);
      if (options.wait || options.out !== undefined) {
        // with --json nothing on stderr: the one document on stdout says it all
        exported = await client.waitForTenantExport(tenantId, exported.export_id, {
          ...(json ? {} : { onProgress: exportProgress(io) }),
        });
        if (exported.status === 'failed') throw exportFailed(exported);
      }
      const saved =
        options.out !== undefined
          ? await saveArchive(
              client,
              tenantId,
              exported.export_id,
              userFile(options.out),
              exported.sha256 ?? undefined,
            )
          : undefined;
      if (json) return printJson(saved ? { ...exported, archive: saved } : exported);
      out(exportLines(exported));
      if (saved) out(savedLine(saved));
    });
  tenants
    .command('export-status')
    .description("an export's status and progress; its size and SHA-256 once it has succeeded")
    .argument('<tenant_id>', '', tenantId)
    .argument('<export_id>', '', exportId)
    .action(async (tenantId: string, exportId: string, _options: object, command: Command) => {
      const { client, json } = await connect(command);
      const exported = await client.getTenantExport(tenantId, exportId);
      if (json) return printJson(exported);
      out(exportLines(exported));
    });
  tenants
    .command('export-download')
    .description("download a succeeded export's archive to a file, checking its SHA-256 against the export's")
    .argument('<tenant_id>', '', tenantId)
    .argument('<export_id>', '', exportId)
    .requiredOption('--out <file>', 'the file (replaced once the archive is checked)')
    .action(async (tenantId: string, exportId: string, options: { out: string }, command: Command) => {
      const { client, json } = await connect(command);
      const saved = await saveArchive(client, tenantId, exportId, userFile(options.out));
      const exported = await client.getTenantExport(tenantId, exportId);
      if (json) return printJson({ ...exported, archive: saved });
      out(exportLines(exported));
      out(savedLine(saved));
    });

  const tokens = parent.command('tokens').description("a tenant's API tokens: issue, list, revoke");
  tokens
    .command('issue')
    .description('issue a token for a tenant; prints its secret once')
    .argument('<tenant_id>', '', tenantId)
    .requiredOption('--name <name>', 'a label for people')
    .addOption(
      new Option('--scope <scope>', `what the token may do, once per scope: ${TOKEN_SCOPES.join(', ')}`)
        .argParser(scopeList(TOKEN_SCOPE_SET))
        .default([], 'every scope'),
    )
    .addOption(
      new Option(
        '--expires-at <time>',
        'when it stops working, ISO 8601 with a zone, in the future (default: never)',
      ).conflicts('expiresIn'),
    )
    .option('--expires-in <days>', 'or: days from now until it stops working (at least 1)', positiveInt)
    .action(
      async (
        tenantId: string,
        options: { name: string; scope: TokenScope[]; expiresAt?: string; expiresIn?: number },
        command: Command,
      ) => {
        const { client, json } = await connect(command);
        const expiresAt = expiryOf(options);
        const token = await client.issueToken(tenantId, {
          name: options.name,
          ...(options.scope.length > 0 ? { scopes: options.scope } : {}),
          ...(expiresAt !== undefined ? { expires_at: expiresAt } : {}),
        });
        if (json) return printJson(token);
        out(tokenRows([token]));
        out(`\nAPI token ${token.token_id} (shown only now): ${token.token}`);
      },
    );
  tokens
    .command('list')
    .description('every token of a tenant, revoked and expired ones included; never a secret')
    .argument('<tenant_id>', '', tenantId)
    .action(async (tenantId: string, _options: object, command: Command) => {
      const { client, json } = await connect(command);
      const list = await client.listTokens(tenantId);
      if (json) return printJson(list);
      out(tokenRows(list));
    });
  tokens
    .command('revoke')
    .description('revoke a token: it gets 401 from then on')
    .argument('<tenant_id>', '', tenantId)
    .argument('<token_id>', '', tokenId)
    .action(async (tenantId: string, tokenId: string, _options: object, command: Command) => {
      const { client, json } = await connect(command);
      const token = await client.revokeToken(tenantId, tokenId);
      if (json) return printJson(token);
      out(tokenRows([token]));
    });

  const ledger = parent
    .command('ledger')
    .description("a tenant's ledger: list, append (the revenue feed), reverse");
  ledger
    .command('list')
    .description(
      "the tenant's transactions, as it lists them: newest first, fed, booked by runs and reversed",
    )
    .argument('<tenant_id>', '', tenantId)
    .addOption(
      new Option('--type <type>', 'tech (diagnosis usage), ecosystem (partner settlements) or all')
        .choices(['all', 'tech', 'ecosystem'])
        .default('all'),
    )
    .option('--from <date>', 'first UTC day included, YYYY-MM-DD')
    .option('--to <date>', 'last UTC day included, YYYY-MM-DD')
    .option('--limit <n>', 'how many (at most 100)', positiveInt, 20)
    .option('--offset <n>', 'skip this many', nonNegativeInt, 0)
    .action(
      async (
        tenantId: string,
        options: {
          type: 'all' | 'tech' | 'ecosystem';
          from?: string;
          to?: string;
          limit: number;
          offset: number;
        },
        command: Command,
      ) => {
        const { client, json } = await connect(command);
        const page = await client.listLedgerEntries(tenantId, {
          transaction_type: options.type,
          start_date: options.from,
          end_date: options.to,
          limit: options.limit,
          offset: options.offset,
        });
        if (json) return printJson({ data: page.data, total: page.total });
        out(transactionRows(page.data));
        out(`${page.data.length} of ${page.total} transactions`);
      },
    );
  ledger
    .command('append')
    .description(
      `feed entries into the tenant's ledger from a JSON file (an array, at most ${LEDGER_BATCH_MAX}), all or ` +
        'nothing, each once per external_id; prints what became of each',
    )
    .argument('<tenant_id>', '', tenantId)
    .argument(
      '<file>',
      'entries as the API takes them: external_id, type, amount (minor units), currency, occurred_at, description',
    )
    .action(async (tenantId: string, file: string, _options: object, command: Command) => {
      const entries = await ledgerFile(file);
      const { client, json } = await connect(command);
      const result = await client.appendLedgerEntries(tenantId, entries);
      if (json) return printJson(result);
      out(outcomeRows(result.entries));
      out(`booked ${result.imported}, ${result.skipped} already in the ledger`);
    });
  ledger
    .command('reverse')
    .description("book the opposite of one of the tenant's transactions, once")
    .argument('<tenant_id>', '', tenantId)
    .argument('<transaction_id>', '', transactionId)
    .option(
      '--description <text>',
      'the reversal\'s description (default: "Reversal of" the entry\'s external_id)',
    )
    .action(
      async (
        tenantId: string,
        transactionId: string,
        options: { description?: string },
        command: Command,
      ) => {
        const { client, json } = await connect(command);
        const reversal = await client.reverseLedgerEntry(
          tenantId,
          transactionId,
          options.description !== undefined ? { description: options.description } : {},
        );
        if (json) return printJson(reversal);
        out(transactionRows([reversal]));
      },
    );

  // `usage TENANT_ID` and `usage all`: commander parses the options of `usage` wherever they stand, so
  // `usage all --from X` leaves --from on `usage`, and `all` reads it from there (optsWithGlobals)
  const usage = parent
    .command('usage')
    .description(
      'what a tenant used in a period: runs by status and pipeline, pages, points, files stored ' +
        '(`usage all`: every tenant)',
    )
    .argument('<tenant_id>', '', tenantId)
    .option('--from <date>', 'first UTC day included, YYYY-MM-DD (default: the first of this month)')
    .option('--to <date>', 'last UTC day included, YYYY-MM-DD (default: today)')
    .option('--by-day', 'and the period day by day (at most 366 days)')
    .action(
      async (
        tenantId: string,
        options: { from?: string; to?: string; byDay?: boolean },
        command: Command,
      ) => {
        const { client, json } = await connect(command);
        const usage = await client.tenantUsage(tenantId, {
          start_date: options.from,
          end_date: options.to,
          ...(options.byDay ? { granularity: 'day' as const } : {}),
        });
        if (json) return printJson(usage);
        out(usageLines(usage));
        if (usage.daily) out(`\n${dailyRows(usage)}`);
      },
    );
  usage
    .command('all')
    .description(
      "every tenant's usage of a period (--from and --to as for one), by creation, suspended tenants " +
        'included: for a billing run',
    )
    .option('--limit <n>', 'how many tenants (at most 100)', positiveInt, 20)
    .option(
      '--after <tenant_id>',
      "the tenants created after this one (a page's next cursor)",
      cursorTenantId,
    )
    .option('--all', 'every tenant, page after page')
    .action(async (_options: object, command: Command) => {
      const options = command.optsWithGlobals<{
        from?: string;
        to?: string;
        byDay?: boolean;
        limit: number;
        after?: string;
        all?: boolean;
      }>();
      if (options.byDay) throw new UsageError('--by-day is for one tenant: usage TENANT_ID --by-day');
      const { client, json } = await connect(command);
      const query = { start_date: options.from, end_date: options.to };
      const list: AdminUsage[] = [];
      let cursor: string | null = options.after ?? null;
      do {
        const page = await client.listUsage({
          ...query,
          limit: options.all ? 100 : options.limit,
          ...(cursor !== null ? { starting_after: cursor } : {}),
        });
        list.push(...page.data);
        cursor = page.next_cursor;
      } while (options.all && cursor !== null);
      if (json) return printJson({ data: list, next_cursor: cursor });
      out(usageRows(list));
      out(`${list.length} tenants${cursor !== null ? `; more with --after ${cursor}` : ''}`);
    });

  parent
    .command('audit')
    .description('the audit trail: every change to tenants, tokens, ledgers and admin tokens, newest first')
    .option('--tenant <tenant_id>', 'only the changes to this tenant and its tokens', tenantId)
    .addOption(new Option('--action <action>', 'only the changes of this action').choices(AUDIT_ACTIONS))
    .option('--since <time>', 'only the changes made at or after this time (ISO 8601 with a zone)')
    .option('--until <time>', 'only the changes made before this time')
    .addOption(
      new Option('--order <order>', 'desc: newest first; asc: oldest first, as an exporter reads')
        .choices(['desc', 'asc'])
        .default('desc'),
    )
    .option(
      '--after <event_id>',
      "the events after this one, in the order asked (a page's next cursor)",
      auditEventId,
    )
    .option('--limit <n>', 'how many (at most 100)', positiveInt, 20)
    .option('--all', 'every event, page after page by cursor')
    .action(
      async (
        options: {
          tenant?: string;
          action?: AuditAction;
          since?: string;
          until?: string;
          order: 'desc' | 'asc';
          after?: string;
          limit: number;
          all?: boolean;
        },
        command: Command,
      ) => {
        const { client, json } = await connect(command);
        const query: AuditEventQuery = {
          tenant_id: options.tenant,
          action: options.action,
          since: options.since,
          until: options.until,
          order: options.order,
          starting_after: options.after,
        };
        let list: AuditEvent[];
        let total: number;
        let cursor: string | null;
        if (options.all) {
          list = [];
          for await (const event of client.auditEvents(query)) list.push(event);
          total = list.length;
          cursor = null;
        } else {
          const page = await client.listAuditEvents({ ...query, limit: options.limit });
          list = page.data;
          total = page.total;
          cursor = page.next_cursor;
        }
        if (json) return printJson({ data: list, total, next_cursor: cursor });
        out(auditRows(list));
        out(`${list.length} of ${total} events${cursor !== null ? `; more with --after ${cursor}` : ''}`);
      },
    );

  const adminTokens = parent
    .command('admin-tokens')
    .description("the platform's tokens for the admin API (ADMIN_PORT): issue, list, revoke");
  adminTokens
    .command('issue')
    .description(
      'issue an admin token with the scopes a job needs (on the server, the first one too); prints its secret once',
    )
    .requiredOption('--name <name>', 'who or what holds it (a label)')
    .addOption(
      new Option('--scope <scope>', `what the token may do, once per scope: ${ADMIN_SCOPES.join(', ')}`)
        .argParser(scopeList(ADMIN_SCOPE_SET))
        .default([], 'every scope'),
    )
    .addOption(
      new Option(
        '--expires-at <time>',
        'when it stops working, ISO 8601 with a zone, in the future (default: never)',
      ).conflicts('expiresIn'),
    )
    .option('--expires-in <days>', 'or: days from now until it stops working (at least 1)', positiveInt)
    .action(
      async (
        options: { name: string; scope: AdminScope[]; expiresAt?: string; expiresIn?: number },
        command: Command,
      ) => {
        const { client, json } = await connect(command);
        const expiresAt = expiryOf(options);
        const token = await client.issueAdminToken({
          name: options.name,
          ...(options.scope.length > 0 ? { scopes: options.scope } : {}),
          ...(expiresAt !== undefined ? { expires_at: expiresAt } : {}),
        });
        if (json) return printJson(token);
        out(adminTokenRows([token]));
        out(`\nadmin token ${token.admin_token_id} (shown only now): ${token.token}`);
      },
    );
  adminTokens
    .command('list')
    .description('every admin token, revoked and expired ones included; never a secret')
    .action(async (_options: object, command: Command) => {
      const { client, json } = await connect(command);
      const list = await client.listAdminTokens();
      if (json) return printJson(list);
      out(adminTokenRows(list));
    });
  adminTokens
    .command('revoke')
    .description('revoke an admin token: the admin API answers it 401 from then on')
    .argument('<admin_token_id>', '', adminTokenId)
    .action(async (adminTokenId: string, _options: object, command: Command) => {
      const { client, json } = await connect(command);
      const token = await client.revokeAdminToken(adminTokenId);
      if (json) return printJson(token);
      out(adminTokenRows([token]));
    });
}

function usageLines(usage: AdminUsage): string {
  const { runs } = usage;
  const byStatus = Object.entries(runs.by_status)
    .map(([status, count]) => `${status} ${count}`)
    .join(', ');
  const byTarget = runs.by_target.map(({ target, runs: count }) => `${target} ${count}`).join(', ') || '-';
  return [
    `tenant ${usage.tenant_id}, ${usage.start_date} to ${usage.end_date}`,
    `runs              ${runs.total} (${byStatus})`,
    `by pipeline       ${byTarget}`,
    `pages processed   ${usage.pages_processed}`,
    `points consumed   ${usage.points_consumed}`,
    `files stored      ${usage.files_stored} (${usage.bytes_stored} bytes, as of ${usage.as_of})`,
  ].join('\n');
}

function dailyRows(usage: AdminUsage): string {
  return table(
    usage.daily ?? [],
    [
      ['date', 'DAY'],
      ['runs', 'RUNS'],
      ['pages_processed', 'PAGES'],
      ['points_consumed', 'POINTS'],
      ['files_stored', 'FILES'],
      ['bytes_stored', 'BYTES'],
    ],
    ['runs', 'pages_processed', 'points_consumed', 'files_stored', 'bytes_stored'],
  );
}

function usageRows(list: AdminUsage[]): string {
  return table(
    list.map((u) => ({ ...u, run_count: u.runs.total, period: `${u.start_date} to ${u.end_date}` })),
    [
      ['tenant_id', 'TENANT'],
      ['period', 'PERIOD'],
      ['run_count', 'RUNS'],
      ['pages_processed', 'PAGES'],
      ['points_consumed', 'POINTS'],
      ['files_stored', 'FILES'],
      ['bytes_stored', 'BYTES'],
    ],
    ['run_count', 'pages_processed', 'points_consumed', 'files_stored', 'bytes_stored'],
  );
}
