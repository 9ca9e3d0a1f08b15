import { loadConfig } from '../config.js';
import { createLogger, exitWithLogs } from '../logger.js';
import { openBlobStore } from '../blobs/open.js';
import { createServices } from '../services.js';
import { describeStore, openStore } from '../store/open.js';
import { createRunWorker } from '../worker/index.js';
import { createWebhookDispatcher } from '../events/dispatcher.js';
import { failStart, loadOrFail } from './fail.js';
import { refuseUnsupportedRuntime } from './runtime.js';

refuseUnsupportedRuntime();
/** A diagnosis worker without HTTP: more of these can run against the same database as the server. */
const config = await loadOrFail(() => loadConfig(process.env, 'worker'));
const logger = createLogger(config.logLevel);
const blobs = await openBlobStore(config);
await blobs.check().catch((error: unknown) => failStart(error));
const store = await openStore(config, 'worker').catch((error: unknown) => failStart(error));
const services = createServices(
  { ...config, workerThreads: Math.max(1, config.workerThreads) },
  store,
  blobs,
  logger,
);
const worker = createRunWorker(services);
worker.start();
const dispatcher = createWebhookDispatcher(services);
dispatcher.start();
logger.info(
  {
    worker_id: worker.workerId,
    node: process.version,
    store: describeStore(config),
    blobs: blobs.description,
  },
  'worker started',
);

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, async () => {
    logger.info({ signal }, 'worker stopping');
    await Promise.all([worker.stop(), dispatcher.stop()]);
    await services.close();
    await store.close();
    exitWithLogs(0);
  });
}
// the worker's timers are unref'd so that tests can drop it; this process lives until a signal
setInterval(() => undefined, 1 << 30);
