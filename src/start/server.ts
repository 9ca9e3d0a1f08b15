import { loadConfig } from '../config.js';
import { createLogger, exitWithLogs } from '../logger.js';
import { startServer } from '../server.js';

const config = loadConfig();
const logger = createLogger(config.logLevel);

try {
  const running = await startServer(config, logger);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      logger.info({ signal }, 'shutting down');
      running.close().then(
        () => exitWithLogs(0),
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          exitWithLogs(1);
        },
      );
    });
  }
} catch (error) {
  logger.fatal({ err: error }, 'start-up failed');
  exitWithLogs(1);
}
