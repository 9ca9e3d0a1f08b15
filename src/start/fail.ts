import { ConfigError } from '../kernel/config.js';
import { isDiskFull } from '../blobs/disk-full.js';
import { StoreUnavailableError } from '../store/types.js';

/**
 * How an entry point dies of a start-up problem: one plain line per problem on stderr, exit code 1, no
 * stack trace (the cause is the operator's to fix, not ours to debug).
 */
export function failStart(error: unknown, apiPort?: number): never {
  const port = (error as { port?: number }).port ?? apiPort;
  // the port that failed names the setting that chose it: PORT, or METRICS_PORT for the metrics listener
  const setting = (error as { portSetting?: string }).portSetting ?? 'PORT';
  const lines =
    error instanceof ConfigError
      ? error.problems.map((problem) => `configuration: ${problem}`)
      : isDiskFull(error)
        ? [
            `start-up: the disk that holds DATA_DIR is full (${(error as Error).message}); free some space and start again`,
          ]
        : error instanceof StoreUnavailableError
          ? [
              `start-up: ${error.message} (${(error.cause as Error | undefined)?.message ?? 'no detail'}); check DATABASE_URL`,
            ]
          : (error as NodeJS.ErrnoException).code === 'EADDRINUSE'
            ? [
                `start-up: port ${port} is already in use; stop what listens there or set ${setting} to another port`,
              ]
            : (error as NodeJS.ErrnoException).code === 'EACCES'
              ? [
                  `start-up: not allowed to listen on port ${port}; use a port above 1023 or run with the right to bind it`,
                ]
              : [`start-up failed: ${(error as Error).message}`];
  process.stderr.write(`${lines.join('\n')}\n`);
  process.exit(1);
}

/** Reads the configuration or fails the start with every problem listed. */
export async function loadOrFail<T>(load: () => T | Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    failStart(error);
  }
}
