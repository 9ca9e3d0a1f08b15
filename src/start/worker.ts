import { loadConfig } from '../config.js';
import { createLogger, exitWithLogs } from '../logger.js';
import { createServices } from '../services.js';
import { openSqliteStore } from '../store/sqlite/index.js';
import { createRunWorker } from '../worker/index.js';
import { loadOrFail } from './fail.js';

/** A diagnosis worker without HTTP: more of these can run against the same DATA_DIR as the server. */
const config = await loadOrFail(() => loadConfig());
const logger = createLogger(config.logLevel);
const store = openSqliteStore(config.dataDir);
const services = createServices(
  { ...config, workerThreads: Math.max(1, config.workerThreads) },
  store,
  logger,
);
const worker = createRunWorker(services);
worker.start();
logger.info({ worker_id: worker.workerId, data_dir: config.dataDir }, 'worker started');

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, async () => {
    logger.info({ signal }, 'worker stopping');
    await worker.stop();
    await services.close();
    await store.close();
    exitWithLogs(0);
  });
}
// the worker's timers are unref'd so that tests can drop it; this process lives until a signal
setInterval(() => undefined, 1 << 30);
