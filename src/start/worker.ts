import { loadConfig } from '../kernel/config.js';
import { createLogger, exitWithLogs } from '../kernel/logger.js';
import { describeStore } from '../store/open.js';
import { createRuntime } from './create-runtime.js';
import { failStart, loadOrFail } from './fail.js';
import { refuseUnsupportedRuntime } from './runtime.js';

refuseUnsupportedRuntime();
/** A diagnosis worker without HTTP: more of these can run against the same database as the server. */
const config = await loadOrFail(() => loadConfig(process.env));
const logger = createLogger(config.logLevel);
const runtime = await createRuntime(config, 'worker', logger).catch((error: unknown) => failStart(error));
runtime.start();
logger.info(
  {
    worker_id: runtime.jobs.find((job) => job.name === 'runs')?.id,
    node: process.version,
    store: describeStore(config),
    blobs: runtime.blobs.description,
    jobs: runtime.jobs.map((job) => job.name),
  },
  'worker started',
);

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, async () => {
    logger.info({ signal }, 'worker stopping');
    await runtime.close();
    exitWithLogs(0);
  });
}
// the worker's timers are unref'd so that tests can drop it; this process lives until a signal
setInterval(() => undefined, 1 << 30);
