import { Command, InvalidArgumentError } from 'commander';
import { loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { ImportError } from '../revenue/import.js';
import { createServices, type Services } from '../services.js';
import { openSqliteStore } from '../store/sqlite/index.js';
import { TenantError } from '../tenants/service.js';

/**
 * Operator commands against the same DATA_DIR as the server (safe while it runs: SQLite WAL with a busy
 * timeout). With --json every command prints exactly one JSON object on stdout, errors included.
 */

interface JsonOption {
  json?: boolean;
}

class CliFailure extends Error {}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new InvalidArgumentError('must be a non-negative integer');
  return n;
}

function print(options: JsonOption, value: object, human: () => string): void {
  process.stdout.write(options.json ? `${JSON.stringify(value)}\n` : `${human()}\n`);
}

async function withServices<T>(fn: (services: Services) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const store = openSqliteStore(config.dataDir);
  try {
    return await fn(createServices(config, store, createLogger('silent')));
  } finally {
    await store.close();
  }
}

function table(rows: object[]): string {
  if (rows.length === 0) return '(none)';
  return rows.map((row) => Object.values(row).join('  ')).join('\n');
}

export function buildProgram(): Command {
  const program = new Command('admin').description('Open Tenant API administration').exitOverride();

  const tenants = program.command('tenants').description('tenants and their first user and token');
  tenants
    .command('create')
    .requiredOption('--name <name>', 'unique tenant name')
    .option('--currency <code>', 'ISO 4217 currency of the ledger', 'USD')
    .option('--price-per-point <minor>', 'price of one diagnosis point in minor units', positiveInt)
    .option('--json', 'print one JSON object')
    .action(async (options: JsonOption & { name: string; currency: string; pricePerPoint?: number }) => {
      const created = await withServices((s) =>
        s.tenants.create(options.name, options.currency, options.pricePerPoint),
      );
      print(
        options,
        created,
        () =>
          `tenant ${created.tenant_id}\nuser   ${created.user_id}\ntoken  ${created.token} (shown only now)`,
      );
    });
  tenants
    .command('list')
    .option('--json', 'print one JSON object')
    .action(async (options: JsonOption) => {
      const rows = await withServices((s) => s.store.tenants.list());
      const list = rows.map(({ id, ...rest }) => ({ tenant_id: id, ...rest }));
      print(options, { tenants: list }, () => table(list));
    });
  tenants
    .command('set-price')
    .requiredOption('--tenant <id>', 'tenant id')
    .requiredOption('--price-per-point <minor>', 'price of one diagnosis point in minor units', positiveInt)
    .option('--json', 'print one JSON object')
    .action(async (options: JsonOption & { tenant: string; pricePerPoint: number }) => {
      const ok = await withServices((s) =>
        s.store.tenants.setPricePerPoint(options.tenant, options.pricePerPoint),
      );
      if (!ok) throw new CliFailure(`no tenant ${options.tenant}`);
      const result = { tenant_id: options.tenant, price_per_point: options.pricePerPoint };
      print(options, result, () => `price per point of ${options.tenant} is now ${options.pricePerPoint}`);
    });

  const tokens = program.command('tokens').description('API tokens');
  tokens
    .command('issue')
    .requiredOption('--tenant <id>', 'tenant id')
    .option('--name <name>', 'a label for the token', 'token')
    .option('--expires-in <days>', 'days until the token expires', positiveInt)
    .option('--json', 'print one JSON object')
    .action(async (options: JsonOption & { tenant: string; name: string; expiresIn?: number }) => {
      const issued = await withServices((s) =>
        s.tenants.issueToken(options.tenant, options.name, options.expiresIn),
      );
      print(options, issued, () => `token ${issued.token_id}: ${issued.token} (shown only now)`);
    });
  tokens
    .command('list')
    .requiredOption('--tenant <id>', 'tenant id')
    .option('--json', 'print one JSON object')
    .action(async (options: JsonOption & { tenant: string }) => {
      const list = await withServices((s) => s.tenants.listTokens(options.tenant));
      print(options, { tokens: list }, () => table(list));
    });
  tokens
    .command('revoke')
    .argument('<token_id>')
    .option('--json', 'print one JSON object')
    .action(async (tokenId: string, options: JsonOption) => {
      const token = await withServices((s) => s.tenants.revokeToken(tokenId));
      print(options, token, () => `revoked ${token.token_id} at ${token.revoked_at}`);
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

const KNOWN_FAILURES = [CliFailure, TenantError, ImportError];

async function main(argv: string[]): Promise<number> {
  const json = argv.includes('--json');
  try {
    await buildProgram().parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'commander.helpDisplayed' || code === 'commander.version') return 0;
    const known = KNOWN_FAILURES.some((kind) => error instanceof kind) || code?.startsWith('commander.');
    const message = known ? (error as Error).message : `unexpected failure: ${(error as Error).message}`;
    if (json) {
      const problems = error instanceof ImportError ? error.problems : undefined;
      process.stdout.write(`${JSON.stringify({ error: message, ...(problems ? { problems } : {}) })}\n`);
    } else if (!code?.startsWith('commander.')) {
      process.stderr.write(`${message}\n`);
    }
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
