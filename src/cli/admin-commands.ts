import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Command } from 'commander';
import { addAdminCommands } from '../../clients/typescript/src/admin-commands.js';
import { createAdminClient, type OpenTenantAdminClient } from '../../clients/typescript/src/admin-client.js';
import {
  type CliIo,
  CommandFailed,
  idArgument,
  retryNotice,
  runProgram,
} from '../../clients/typescript/src/command-line.js';
import { isDiskFull } from '../blobs/disk-full.js';
import { loadConfig } from '../kernel/config.js';
import { createApp } from '../http/app.js';
import { createLogger } from '../kernel/logger.js';
import { ImportError } from '../revenue/import.js';
import type { Services } from '../composition/services.js';
import { createRuntime, type Runtime } from '../start/create-runtime.js';
import { TenantError } from '../tenants/service.js';

/**
 * `npm run admin`: the admin command line of `ota admin` (clients/typescript/src/admin-commands.ts, the one
 * definition of its commands, arguments and output), run on the server against its own DATA_DIR. The admin
 * API is served in this process, on a loopback port open for the one command, to a secret only this process
 * holds: no ADMIN_PORT, no admin token, the same handlers and audit trail as the admin listener's (the
 * trail says `operator`). Safe while the server runs (SQLite WAL with a busy timeout).
 *
 * The platform's admin tokens are among those commands (`admin-tokens issue|list|revoke`): the operator's
 * secret holds every admin scope, so `admin-tokens issue` here mints the first admin token, from nothing but
 * DATA_DIR, through the same handler as a token's issue over ADMIN_PORT (every scope unless --scope, the
 * trail saying `operator`). Beside them, the one command that must reach the database itself: `revenue
 * import` (a settlement file, all or nothing however long; the API takes 500 entries a call). src/cli/admin.ts
 * runs this as a process; the tests run it here, in theirs (a process costs a second of CPU).
 */

/** Where a run of the command line reads its configuration and writes its output. */
export interface AdminIo extends CliIo {
  env: NodeJS.ProcessEnv;
}

/** The deployment of DATA_DIR, opened by the first command that needs it, and its admin API in process. */
class LocalDeployment {
  private runtime?: Promise<Runtime>;
  private served?: Promise<{ server: Server; client: OpenTenantAdminClient }>;

  constructor(private readonly io: AdminIo) {}

  /** The services over DATA_DIR; a deployment that does not open fails as a direct command does. */
  services(): Promise<Services> {
    this.runtime ??= createRuntime(loadConfig(this.io.env), 'admin', createLogger('silent'));
    return this.runtime.then(
      (runtime) => runtime.services,
      (error: unknown) => {
        throw failed(error);
      },
    );
  }

  adminApi(): Promise<OpenTenantAdminClient> {
    this.served ??= (async () => {
      const secret = `ota_admin_${randomBytes(32).toString('base64url')}`;
      const app = await createApp(await this.services(), 'admin', secret);
      const server = createServer(app.callback());
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => resolve());
      });
      const { port } = server.address() as AddressInfo;
      const client = createAdminClient({
        baseUrl: `http://127.0.0.1:${port}`,
        token: secret,
        onRetry: retryNotice(this.io),
      });
      return { server, client };
    })();
    return this.served.then(({ client }) => client);
  }

  async close(): Promise<void> {
    const served = await this.served?.catch(() => undefined);
    if (served) {
      served.server.closeAllConnections();
      await new Promise((resolve) => served.server.close(resolve));
    }
    await (await this.runtime?.catch(() => undefined))?.close();
  }
}

const KNOWN_FAILURES = [TenantError, ImportError];

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

/** A direct command's failure as the command line prints every failure (command-line.ts). */
function failed(error: unknown): CommandFailed {
  if (error instanceof CommandFailed) return error;
  const problems = error instanceof ImportError ? error.problems : undefined;
  return new CommandFailed(describeFailure(error), problems ?? [], problems ? { problems } : {});
}

const tenantId = idArgument('a tenant id', 'tenants list');

/** The command only the server has: it reaches the database directly. */
function addDirectCommands(program: Command, deployment: LocalDeployment, io: AdminIo): void {
  const out = (text: string): void => io.out(`${text}\n`);
  const printJson = (value: unknown): void => out(JSON.stringify(value, null, 2));
  const json = (command: Command) => command.optsWithGlobals<{ json?: boolean }>().json === true;
  const direct = async <T>(fn: (services: Services) => Promise<T>): Promise<T> => {
    const services = await deployment.services();
    try {
      return await fn(services);
    } catch (error) {
      throw failed(error);
    }
  };

  const revenue = program.command('revenue').description('the revenue ledger');
  revenue
    .command('import')
    .description('import partner settlements (CSV with a header line, or JSON lines), all or nothing')
    .argument('<tenant_id>', '', tenantId)
    .argument('<file>')
    .action(async (tenantId: string, file: string, _options: object, command: Command) => {
      const result = await direct((s) => s.revenue.importFile(tenantId, file));
      if (json(command)) return printJson(result);
      out(`imported ${result.imported}, skipped ${result.skipped} already imported`);
    });
}

function buildProgram(deployment: LocalDeployment, io: AdminIo): Command {
  const program = new Command('admin')
    .description(
      "Open Tenant API administration on this server's DATA_DIR: the commands of `ota admin`, with the same " +
        'arguments and output (the first admin token included), and settlement imports, which only the server does',
    )
    .option('--json', 'print exactly one JSON document on stdout');
  addAdminCommands(program, () => deployment.adminApi(), io);
  addDirectCommands(program, deployment, io);
  return program;
}

/** Runs one command line; the exit code it ends with. */
export async function runAdmin(argv: string[], io: AdminIo): Promise<number> {
  const deployment = new LocalDeployment(io);
  try {
    return await runProgram(buildProgram(deployment, io), argv, io);
  } finally {
    await deployment.close();
  }
}
