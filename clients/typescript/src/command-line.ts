import { type Command, type CommanderError, InvalidArgumentError } from 'commander';
import { IntegrityError, OtaError } from './errors.js';
import type { RetryNotice } from './retry.js';

/**
 * What `ota` and the server's `npm run admin` share as command lines: where they write, how a value on the
 * command line is checked, and how a command's failure is printed and becomes the exit code (0 done, 1 the
 * command failed, 2 the command line is wrong). --json prints exactly one JSON document on stdout.
 */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

export const PROCESS_IO: CliIo = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
};

/** The command line is wrong (exit 2), said in words commander does not know. */
export class UsageError extends Error {}

/**
 * A command failed for a reason other than the API's answer (a file that is not there, a refused import):
 * `lines` are printed under the message, `fields` join it in the --json document.
 */
export class CommandFailed extends Error {
  constructor(
    message: string,
    readonly lines: string[] = [],
    readonly fields: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export function positiveInt(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new InvalidArgumentError('must be a whole number >= 1');
  return Number(value);
}

export function nonNegativeInt(value: string): number {
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n)) throw new InvalidArgumentError('must be a whole number >= 0');
  return n;
}

const UUID = /^[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;

/**
 * An argument the contract says is a UUID (every id is): anything else is refused here, exit 2, rather than
 * sent to the server for a 404 or a 422 that says less. `where` says where to find one.
 */
export function idArgument(what: string, where: string): (value: string) => string {
  return (value) => {
    if (!UUID.test(value))
      throw new InvalidArgumentError(
        `${what} is a UUID, such as 5d6f0e3a-8a0c-4a55-9a34-0d1c7c0f5b1e (${where} shows them)`,
      );
    return value;
  };
}

/** A tenant named by its id or by the platform's own external id (TenantExternalId in openapi.yaml). */
export function tenantArgument(where: string): (value: string) => string {
  return (value) => {
    if (!UUID.test(value) && !/^[A-Za-z0-9._:@-]{1,255}$/.test(value))
      throw new InvalidArgumentError(
        `a tenant is its id (a UUID) or its external id (letters, digits and . _ : @ -; ${where} shows them)`,
      );
    return value;
  };
}

/** One line on stderr per retry, so that a wait is never silent (stdout keeps only the result). */
export function retryNotice(io: CliIo): (notice: RetryNotice) => void {
  return (notice) => {
    const seconds = Math.max(1, Math.round(notice.delayMs / 1000));
    const why =
      notice.status === 429
        ? notice.error === 'rate_limited'
          ? 'rate limited'
          : `refused for now (${notice.error ?? 429})`
        : notice.status === 409
          ? 'the same request is still being executed'
          : notice.status === 'network'
            ? notice.url
              ? `could not connect to ${new URL(notice.url).origin}${notice.reason ? ` (${notice.reason})` : ''}`
              : 'the connection failed'
            : `the server is busy (${notice.status})`;
    io.err(`${why}, retrying in ${seconds} s\n`);
  };
}

export interface RunOptions {
  /** An error the program prints its own way: the exit code, or undefined to print it as any other. */
  own?(error: unknown, json: boolean): number | undefined;
  /** A hint under an API failure's message, and the fields it adds to the --json document. */
  hint?(error: OtaError): { hint: string; fields: Record<string, unknown> } | undefined;
}

/** Runs a command line of `program`; the exit code it ends with. */
export async function runProgram(
  program: Command,
  argv: string[],
  io: CliIo,
  options: RunOptions = {},
): Promise<number> {
  const json = argv.includes('--json');
  const every = (command: Command): Command[] => [command, ...command.commands.flatMap(every)];
  const words = (command: Command): string[] =>
    command.parent ? [...words(command.parent), command.name()] : [command.name()];
  for (const command of every(program)) {
    // errors are printed once, below; help asked for by an incomplete command goes to stderr
    command.configureOutput({
      outputError: () => undefined,
      writeErr: (text) => void (json || io.err(text)),
      writeOut: (text) => io.out(text),
    });
    // a wrong command line is told the usage of the command it was for
    command.exitOverride((error: CommanderError) => {
      throw Object.assign(error, { usage: `${words(command).join(' ')} ${command.usage()}` });
    });
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    // commander's errors carry a string code (OtaError's `code` is the HTTP status)
    const raw = (error as { code?: unknown }).code;
    const code = typeof raw === 'string' ? raw : undefined;
    if (code === 'commander.helpDisplayed' || code === 'commander.version') return 0;
    const own = options.own?.(error, json);
    if (own !== undefined) return own;
    // a command group without its subcommand: commander printed the group's help on stderr
    if (code === 'commander.help') {
      if (json) io.out(`${JSON.stringify({ error: 'usage', message: 'a subcommand is missing' })}\n`);
      return 2;
    }
    const usage = error instanceof UsageError || (code?.startsWith('commander.') ?? false);
    const usageLine = (error as { usage?: string }).usage;
    const hint = error instanceof OtaError ? options.hint?.(error) : undefined;
    const message =
      error instanceof OtaError
        ? error.describe()
        : error instanceof IntegrityError
          ? error.message
          : (error as Error).message.replace(/^error: /, '');
    const lines = error instanceof CommandFailed ? error.lines : [];
    if (json) {
      const body =
        error instanceof OtaError
          ? {
              error: error.error,
              status: error.status,
              message: error.message,
              request_id: error.request_id,
              detail: error.detail,
              ...(hint?.fields ?? {}),
            }
          : {
              error: usage ? 'usage' : 'failed',
              message,
              ...(usageLine ? { usage: usageLine } : {}),
              ...(error instanceof CommandFailed ? error.fields : {}),
            };
      io.out(`${JSON.stringify(body)}\n`);
    } else {
      io.err(
        `error: ${message}\n${lines.map((line) => `  ${line}\n`).join('')}` +
          `${usageLine ? `usage: ${usageLine}\n` : ''}${hint ? `hint: ${hint.hint}\n` : ''}`,
      );
    }
    return usage ? 2 : 1;
  }
}
