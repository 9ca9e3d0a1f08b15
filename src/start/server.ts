import { loadConfig } from '../kernel/config.js';
import { createLogger, exitWithLogs } from '../kernel/logger.js';
import { startServer } from './http-server.js';
import { failStart, loadOrFail } from './fail.js';
import { refuseUnsupportedRuntime } from './runtime.js';

refuseUnsupportedRuntime();
const config = await loadOrFail(() => loadConfig());

/**
 * Where the listener is bound, as it is: a wildcard HOST binds every interface, which the banner says
 * before the loopback URL it can be reached at here (a URL that named 127.0.0.1 alone hid the exposure).
 */
function boundAt(host: string, url: string): string {
  if (host !== '0.0.0.0' && host !== '::') return url;
  const { port } = new URL(url);
  return `every interface (HOST=${host}, port ${port}), here at ${url}`;
}
const logger = createLogger(config.logLevel);

try {
  const running = await startServer(config, logger, (url, metricsUrl, adminUrl) =>
    process.stdout.write(
      `Open Tenant API listening on ${boundAt(config.host, url)} (reference: ${url}/docs)` +
        (metricsUrl ? `; metrics on ${metricsUrl}/metrics` : '') +
        (adminUrl ? `; admin API on ${adminUrl} (reference: ${adminUrl}/docs)` : '') +
        '\n',
    ),
  );
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
  failStart(error, config.port);
}
