import { Command, InvalidArgumentError } from 'commander';
import { loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { ImportError } from '../revenue/import.js';
import type { Services } from '../services.js';
import { createRuntime } from '../start/create-runtime.js';
// one table printer for both command lines: the client package's (ota) is the one the admin CLI uses too
import { table } from '../../clients/typescript/src/terminal.js';
import { TenantError } from '../tenants/service.js';
import { SCOPES } from '../tenants/scopes.js';
import { NEWEST_VERSION, SUPPORTED_VERSIONS } from '../versions/registry.js';
import { AdminTokenNotFound } from '../platform/admin-tokens.js';
import { isDiskFull } from '../blobs/disk-full.js';
import { formatMoney } from '../../clients/typescript/src/money.js';

/**
 * Operator commands against the same DATA_DIR as the server (safe while it runs: SQLite WAL with a busy
 * timeout). With --json every command prints exactly one JSON object on stdout, errors included.
 * src/cli/admin.ts runs them as a process; the tests run them here, in theirs (a process costs a second of CPU).
 */

/** Where a run of the command line reads its configuration and writes its output. */
export interface AdminIo {
  env: NodeJS.ProcessEnv;
  out(text: string): void;
  err(text: string): void;
}

interface JsonOption {
  json?: boolean;
}

class CliFailure extends Error {}

function nonNegativeInt(value: string): number {
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n)) throw new InvalidArgumentError('must be a whole number >= 0');
  return n;
}

function positiveInt(value: string): number {
  const n = nonNegativeInt(value);
  if (n < 1) throw new InvalidArgumentError('must be a whole number >= 1');
  return n;
}

function printer(io: AdminIo) {
  return (options: JsonOption, value: object, human: () => string): void =>
    io.out(options.json ? `${JSON.stringify(value)}\n` : `${human()}\n`);
}

function servicesOf(io: AdminIo) {
  return async <T>(fn: (services: Services) => Promise<T>): Promise<T> => {
    const runtime = await createRuntime(loadConfig(io.env), 'admin', createLogger('silent'));
    try {
      return await fn(runtime.services);
    } finally {
      await runtime.close();
    }
  };
}

/** What a token row says at a glance: revoked wins over expired. */
function tokenState(token: { revoked_at: string | null; expires_at: string | null }): string {
  if (token.revoked_at) return `revoked ${token.revoked_at}`;
  if (token.expires_at && token.expires_at <= new Date().toISOString()) return `expired ${token.expires_at}`;
  return token.expires_at ? `active, expires ${token.expires_at}` : 'active';
}

function buildProgram(io: AdminIo): Command {
  const print = printer(io);
  const withServices = servicesOf(io);
  const program = new Command('admin').description('Open Tenant API administration').exitOverride();

  const tenants = program.command('tenants').description('tenants and their first user and token');
  tenants
    .command('create')
    .requiredOption('--name <name>', 'unique tenant name')
    .option('--currency <code>', 'ISO 4217 currency of the ledger', 'USD')
    .option('--price-per-point <minor>', 'price of one diagnosis point in minor units', nonNegativeInt)
    .option(
      '--api-version <date>',
      `the API version its requests without Open-Tenant-Version get (${SUPPORTED_VERSIONS.join(', ')})`,
      NEWEST_VERSION,
    )
    .option('--json', 'print one JSON object')
    .action(
      async (
        options: JsonOption & { name: string; currency: string; pricePerPoint?: number; apiVersion: string },
      ) => {
        const created = await withServices((s) =>
          s.tenants.create(
            options.name,
            options.currency,
            options.pricePerPoint,
            undefined,
            options.apiVersion,
          ),
        );
        const { tenant_id, user_id, token_id, token } = created;
        print(
          options,
          { tenant_id, user_id, token_id, token },
          () =>
            `tenant ${created.tenant_id}\nuser   ${created.user_id}\ntoken  ${created.token} (shown only now)`,
        );
      },
    );
  tenants
    .command('list')
    .option('--json', 'print one JSON object')
    .action(async (options: JsonOption) => {
      const rows = await withServices((s) => s.store.tenants.list());
      const list = rows.map(({ id, ...rest }) => ({ tenant_id: id, ...rest }));
      print(options, { tenants: list }, () =>
        table(
          list.map((t) => ({
            ...t,
            // minor units shown as the currency writes them (12 USD cents: 0.12 USD), as `ota` does
            price_per_point: formatMoney(t.price_per_point, t.currency),
            state: t.suspended_at ? `suspended ${t.suspended_at}` : 'active',
          })),
          [
            ['tenant_id', 'TENANT'],
            ['name', 'NAME'],
            ['currency', 'CURRENCY'],
            ['price_per_point', 'PRICE/POINT'],
            ['state', 'STATE'],
            ['api_version', 'API VERSION'],
            ['created_at', 'CREATED'],
          ],
        ),
      );
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
      .argument('<tenant_id>')
      .option('--json', 'print one JSON object')
      .action(async (tenantId: string, options: JsonOption) => {
        const row = await withServices((s) =>
          name === 'suspend' ? s.tenants.suspend(tenantId) : s.tenants.resume(tenantId),
        );
        const { id, ...rest } = row;
        print(options, { tenant_id: id, ...rest }, () =>
          row.suspended_at ? `suspended ${id} at ${row.suspended_at}` : `${id} is active`,
        );
      });
  }
  tenants
    .command('set-price')
    .requiredOption('--tenant <id>', 'tenant id')
    .requiredOption(
      '--price-per-point <minor>',
      'price of one diagnosis point in minor units',
      nonNegativeInt,
    )
    .option('--json', 'print one JSON object')
    .action(async (options: JsonOption & { tenant: string; pricePerPoint: number }) => {
      await withServices((s) => s.tenants.update(options.tenant, { price_per_point: options.pricePerPoint }));
      const result = { tenant_id: options.tenant, price_per_point: options.pricePerPoint };
      print(options, result, () => `price per point of ${options.tenant} is now ${options.pricePerPoint}`);
    });

  tenants
    .command('set-version')
    .description(
      'pin the tenant to an API version: its requests without Open-Tenant-Version get it (its webhook endpoints keep theirs)',
    )
    .requiredOption('--tenant <id>', 'tenant id')
    .requiredOption('--api-version <date>', `one of ${SUPPORTED_VERSIONS.join(', ')}`)
    .option('--json', 'print one JSON object')
    .action(async (options: JsonOption & { tenant: string; apiVersion: string }) => {
      await withServices((s) => s.tenants.update(options.tenant, { api_version: options.apiVersion }));
      const result = { tenant_id: options.tenant, api_version: options.apiVersion };
      print(options, result, () => `${options.tenant} is pinned to API version ${options.apiVersion}`);
    });

  const tokens = program.command('tokens').description('API tokens');
  tokens
    .command('issue')
    .requiredOption('--tenant <id>', 'tenant id')
    .option('--name <name>', 'a label for the token', 'token')
    .option('--expires-in <days>', 'days until the token expires (at least 1)', positiveInt)
    .option(
      '--scope <scope>',
      `what the token may do, once per scope (${SCOPES.join(', ')}); every scope when none is given`,
      (scope: string, scopes: string[]) => [...scopes, scope],
      [] as string[],
    )
    .option('--json', 'print one JSON object')
    .action(
      async (options: JsonOption & { tenant: string; name: string; expiresIn?: number; scope: string[] }) => {
        const scopes = options.scope.length > 0 ? options.scope : undefined;
        const issued = await withServices((s) =>
          s.tenants.issueToken(options.tenant, options.name, options.expiresIn, scopes),
        );
        print(
          options,
          issued,
          () =>
            `token ${issued.token_id}: ${issued.token} (shown only now); scopes ${issued.scopes.join(' ')}`,
        );
      },
    );
  tokens
    .command('list')
    .requiredOption('--tenant <id>', 'tenant id')
    .option('--json', 'print one JSON object')
    .action(async (options: JsonOption & { tenant: string }) => {
      const list = await withServices(async (s) => {
        if (!(await s.store.tenants.get(options.tenant))) throw new CliFailure(`no tenant ${options.tenant}`);
        return s.tenants.listTokens(options.tenant);
      });
      print(options, { tokens: list }, () =>
        table(
          list.map((t) => ({
            ...t,
            state: tokenState(t),
            scope_list: t.scopes.length === SCOPES.length ? 'all' : t.scopes.join(' '),
          })),
          [
            ['token_id', 'TOKEN'],
            ['name', 'NAME'],
            ['prefix', 'PREFIX'],
            ['state', 'STATE'],
            ['scope_list', 'SCOPES'],
            ['last_used_at', 'LAST USED'],
          ],
        ),
      );
    });
  tokens
    .command('revoke')
    .argument('<token_id>')
    .option('--json', 'print one JSON object')
    .action(async (tokenId: string, options: JsonOption) => {
      const token = await withServices((s) => s.tenants.revokeToken(tokenId));
      print(options, token, () => `revoked ${token.token_id} at ${token.revoked_at}`);
    });

  const adminTokens = program
    .command('admin-tokens')
    .description("the platform's tokens for the admin API (ADMIN_PORT)");
  adminTokens
    .command('issue')
    .requiredOption('--name <name>', 'who or what holds it (a label)')
    .option('--json', 'print one JSON object')
    .action(async (options: JsonOption & { name: string }) => {
      const issued = await withServices((s) => s.adminTokens.issue(options.name));
      print(options, issued, () => `admin token ${issued.admin_token_id}: ${issued.token} (shown only now)`);
    });
  adminTokens
    .command('list')
    .option('--json', 'print one JSON object')
    .action(async (options: JsonOption) => {
      const list = await withServices((s) => s.adminTokens.list());
      print(options, { admin_tokens: list }, () =>
        table(
          list.map((t) => ({ ...t, state: t.revoked_at ? `revoked ${t.revoked_at}` : 'active' })),
          [
            ['admin_token_id', 'ADMIN TOKEN'],
            ['name', 'NAME'],
            ['prefix', 'PREFIX'],
            ['state', 'STATE'],
            ['last_used_at', 'LAST USED'],
          ],
        ),
      );
    });
  adminTokens
    .command('revoke')
    .argument('<admin_token_id>')
    .option('--json', 'print one JSON object')
    .action(async (tokenId: string, options: JsonOption) => {
      const token = await withServices((s) => s.adminTokens.revoke(tokenId));
      print(options, token, () => `revoked ${token.admin_token_id} at ${token.revoked_at}`);
    });

  const revenue = program.command('revenue').description('the revenue ledger');
  revenue
    .command('import')
    .description('import partner settlements (CSV with a header line, or JSON lines), all or nothing')
    .requiredOption('--tenant <id>', 'tenant id')
    .argument('<file>')
    .option('--json', 'print one JSON object')
    .action(async (file: string, options: JsonOption & { tenant: string }) => {
      const result = await withServices((s) => s.revenue.importFile(options.tenant, file));
      print(options, result, () => `imported ${result.imported}, skipped ${result.skipped} already imported`);
    });
  return program;
}

const KNOWN_FAILURES = [CliFailure, TenantError, ImportError, AdminTokenNotFound];

/** Exit codes: 0 done, 1 the command failed (the message says why), 2 the command line is wrong. */
const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** The engine's or the system's own words under a translated error: "database or disk is full". */
function rootMessage(error: unknown): string {
  let root = error as Error;
  while (root.cause instanceof Error) root = root.cause;
  return root.message;
}

/** One message for a failure, whatever raised it: no stack traces, no "unexpected failure" prefixes. */
export function describeFailure(error: unknown): string {
  const failure = error as NodeJS.ErrnoException;
  if (KNOWN_FAILURES.some((kind) => error instanceof kind)) {
    return error instanceof ImportError ? 'import refused, nothing was written' : failure.message;
  }
  // what the operator can do about it: the database is there, the space it writes into is not
  if (isDiskFull(error))
    return `the disk is full (${rootMessage(error)}): free space on the disk that holds DATA_DIR and run the command again`;
  if (failure.code === 'ENOENT' && failure.path) return `no such file: ${failure.path}`;
  if (failure.code === 'EACCES' && failure.path) return `not allowed to read ${failure.path}`;
  if (failure.code === 'EISDIR') return `a directory, not a file: ${failure.path ?? ''}`;
  return failure.message;
}

/** Runs one command line; the exit code it ends with. */
export async function runAdmin(argv: string[], io: AdminIo): Promise<number> {
  const json = argv.includes('--json');
  const program = buildProgram(io);
  // commander's own usage errors go through the same single channel as ours
  // and the help an incomplete command asks for goes to stderr
  const output = {
    outputError: () => undefined,
    writeErr: (text: string) => void (json || io.err(text)),
    writeOut: (text: string) => io.out(text),
  };
  for (const command of [program, ...program.commands.flatMap((c) => [c, ...c.commands])]) {
    command.configureOutput(output);
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'commander.helpDisplayed' || code === 'commander.version') return EXIT.ok;
    // a command group without its subcommand: commander printed the group's help on stderr
    if (code === 'commander.help') {
      if (json) io.out(`${JSON.stringify({ error: 'a subcommand is missing' })}\n`);
      return EXIT.usage;
    }
    const usage = code?.startsWith('commander.') ?? false;
    const message = usage ? (error as Error).message.replace(/^error: /, '') : describeFailure(error);
    const problems = error instanceof ImportError ? error.problems : undefined;
    if (json) {
      // --json: exactly one JSON document, on stdout only
      io.out(`${JSON.stringify({ error: message, ...(problems ? { problems } : {}) })}\n`);
    } else {
      io.err(`error: ${message}\n`);
      for (const problem of problems ?? []) io.err(`  ${problem}\n`);
      if (usage) io.err(`(see: npm run --silent admin -- --help)\n`);
    }
    return usage ? EXIT.usage : EXIT.failed;
  }
}
