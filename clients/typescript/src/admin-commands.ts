import { type Command, InvalidArgumentError, Option } from 'commander';
import type {
  AdminTenant,
  AdminToken,
  AdminUpdateTenantInput,
  AdminUsage,
  AuditEvent,
  OpenTenantAdminClient,
  TokenScope,
} from './admin-client.js';
import { type CliIo, idArgument, nonNegativeInt, positiveInt } from './command-line.js';
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

const tenantId = idArgument('a tenant id', 'tenants list');
const tokenId = idArgument('a token id', 'tokens list TENANT_ID');

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

function scopeList(scope: string, scopes: TokenScope[]): TokenScope[] {
  if (!(scope in TOKEN_SCOPE_SET))
    throw new InvalidArgumentError(`must be one of ${TOKEN_SCOPES.join(', ')}`);
  return [...scopes, scope as TokenScope];
}

function tenantRows(list: AdminTenant[]): string {
  return table(
    list.map((t) => ({
      ...t,
      price_per_point: formatMoney(t.price_per_point, t.currency),
      state: t.state === 'suspended' ? `suspended ${t.suspended_at ?? ''}`.trim() : t.state,
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
function tokenState(token: AdminToken): string {
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
 * The admin API's commands under `parent` (`ota admin`, or the server's `admin` program): tenants, their
 * tokens, their usage and the audit trail. `open` gives the admin API to talk to.
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
    .description('tenants: create, list, get, rename, set-price, pin, suspend, resume');
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
    ['resume', 'give a suspended tenant its tokens and its queue back'],
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

  const tokens = parent.command('tokens').description("a tenant's API tokens: issue, list, revoke");
  tokens
    .command('issue')
    .description('issue a token for a tenant; prints its secret once')
    .argument('<tenant_id>', '', tenantId)
    .requiredOption('--name <name>', 'a label for people')
    .addOption(
      new Option('--scope <scope>', `what the token may do, once per scope: ${TOKEN_SCOPES.join(', ')}`)
        .argParser(scopeList)
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
        const expiresAt =
          options.expiresIn !== undefined
            ? new Date(Date.now() + options.expiresIn * DAY_MS).toISOString()
            : options.expiresAt;
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

  parent
    .command('usage')
    .description('what a tenant used in a period: runs by status and pipeline, pages, points, files stored')
    .argument('<tenant_id>', '', tenantId)
    .option('--from <date>', 'first UTC day included, YYYY-MM-DD (default: the first of this month)')
    .option('--to <date>', 'last UTC day included, YYYY-MM-DD (default: today)')
    .action(async (tenantId: string, options: { from?: string; to?: string }, command: Command) => {
      const { client, json } = await connect(command);
      const usage = await client.tenantUsage(tenantId, { start_date: options.from, end_date: options.to });
      if (json) return printJson(usage);
      out(usageLines(usage));
    });

  parent
    .command('audit')
    .description('the audit trail: every change to tenants and tokens, newest first')
    .option('--tenant <tenant_id>', 'only the changes to this tenant and its tokens', tenantId)
    .option('--limit <n>', 'how many (at most 100)', positiveInt, 20)
    .option('--all', 'every event, page after page')
    .action(async (options: { tenant?: string; limit: number; all?: boolean }, command: Command) => {
      const { client, json } = await connect(command);
      let list: AuditEvent[];
      let total: number;
      if (options.all) {
        list = [];
        for await (const event of client.auditEvents({ tenant_id: options.tenant })) list.push(event);
        total = list.length;
      } else {
        const page = await client.listAuditEvents({ tenant_id: options.tenant, limit: options.limit });
        list = page.data;
        total = page.total;
      }
      if (json) return printJson({ data: list, total });
      out(auditRows(list));
      out(`${list.length} of ${total} events`);
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
