import { randomUUID } from 'node:crypto';
import { openBlobStore } from '../blobs/open.js';
import type { BlobStore } from '../blobs/blob-store.js';
import type { Config } from '../kernel/config.js';
import { createWebhookDispatcher, type WebhookDispatcher } from '../events/delivering/dispatcher.js';
import type { Logger } from '../kernel/logger.js';
import { createServices, type Services } from '../composition/services.js';
import { sweepOnce } from './sweep-pass.js';
import { openStore } from '../store/open.js';
import type { Store } from '../store/types.js';
import { createRunWorker } from '../worker/index.js';
import { intervalJob, type Job } from './job.js';
import { runThreadJob } from './run-thread.js';
import type { RunWorker } from '../worker/runner.js';

import type { Role } from '../kernel/role.js';
import { runLifecycle } from '../runs/lifecycle.js';

export type { Role };

export interface Runtime {
  readonly config: Config;
  readonly services: Services;
  readonly store: Store;
  readonly blobs: BlobStore;
  readonly jobs: readonly Job[];
  start(): void;
  /** Stops the jobs; `close` does it too, for a caller that must wait for them and something else at once. */
  stopJobs(): Promise<void>;
  /** In order: the jobs, then the services (parser threads, streams), then the database. Once. */
  close(): Promise<void>;
}

/** How often the store's housekeeping runs (PostgreSQL folds block counts; see Store.maintain). */
const STORE_MAINTENANCE_MS = 10_000;

/** Expired uploads, stray blobs, idempotency keys and events past their time, in one pass. */
function sweepJob(services: Services): Job {
  const { config, logger } = services;
  return intervalJob(
    'sweep',
    config.sweepIntervalMs,
    async () => {
      const report = await sweepOnce(services);
      if (Object.values(report).some((n) => n > 0)) logger.info(report, 'swept records past their time');
    },
    logger,
    true,
  );
}

/** How often an API process looks for exports queued by another, or left by one that died. */
const EXPORT_POLL_MS = 2_000;

/**
 * Builds tenants' exports, one at a time per process, as they are queued: at once when this process queued
 * one, else within EXPORT_POLL_MS.
 */
function exportJob(services: Services): Job {
  const owner = `exports-${randomUUID()}`;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  const drain = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      try {
        do {
          again = false;
          while (!stopped && (await services.exports.buildNext(owner, () => stopped)));
        } while (again && !stopped);
      } catch (error) {
        services.logger.warn({ err: error, job: 'exports' }, 'exports failed');
      } finally {
        running = undefined;
      }
    })();
  };
  let timer: NodeJS.Timeout | undefined;
  return {
    name: 'exports',
    id: owner,
    start() {
      services.exports.onQueued(drain);
      timer = setInterval(drain, EXPORT_POLL_MS);
      timer.unref();
      drain();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

/** The run worker on this process's event loop: a `worker` process has nothing else to keep quick. */
function runJob(services: Services): Job {
  // made at start, not here: the run worker starts the parser threads, which a process would otherwise
  // spawn before it is ready (+0.4 s to its start-up)
  let worker: RunWorker | undefined;
  return {
    name: 'runs',
    get id() {
      return worker?.workerId;
    },
    start() {
      const { config, store, blobs, clock, logger } = services;
      const created = createRunWorker({ config, store, blobs, clock, logger, pool: services.pdfPool() });
      services.runs.queued.listen(() => created.nudge());
      (worker = created).start();
    },
    stop: async () => worker?.stop(),
  };
}

function jobsOf(role: Role, services: Services, store: Store): Job[] {
  const embedded = role === 'api' && services.config.embeddedWorker;
  const jobs: Job[] = [];
  if (role === 'worker' || embedded) {
    jobs.push(embedded ? runThreadJob(services) : runJob(services));
    let dispatcher: WebhookDispatcher | undefined;
    jobs.push({
      name: 'webhooks',
      start: () => (dispatcher = createWebhookDispatcher(services)).start(),
      stop: async () => dispatcher?.stop(),
    });
  }
  if (role === 'api') {
    jobs.push(sweepJob(services));
    jobs.push(exportJob(services));
    jobs.push(
      intervalJob('store maintenance', STORE_MAINTENANCE_MS, () => store.maintain(), services.logger),
    );
  }
  return jobs;
}

/**
 * The one wiring of a process: the blob store (checked), the database, the services over them, and the
 * jobs of its role. Each entry point (start/server.ts, start/worker.ts, cli/admin-commands.ts) builds its runtime
 * here and only adds what is its own (HTTP, signals, a command).
 */
export async function createRuntime(config: Config, role: Role, logger: Logger): Promise<Runtime> {
  const blobs = await openBlobStore(config);
  await blobs.check();
  const store = await openStore(config, role, runLifecycle);
  // a worker process parses on every thread it was given, at least one
  const processConfig =
    role === 'worker' ? { ...config, parserThreads: Math.max(1, config.parserThreads) } : config;
  const services = createServices(processConfig, store, blobs, logger);
  if (role !== 'admin') for (const line of config.deprecated) logger.warn(line);
  const jobs = jobsOf(role, services, store);
  let stopping: Promise<void> | undefined;
  let closing: Promise<void> | undefined;
  const stopJobs = () => (stopping ??= Promise.all(jobs.map((job) => job.stop())).then(() => undefined));
  return {
    config: processConfig,
    services,
    store,
    blobs,
    jobs,
    start() {
      for (const job of jobs) job.start();
    },
    stopJobs,
    close() {
      closing ??= (async () => {
        await stopJobs();
        await services.close();
        await store.close();
      })();
      return closing;
    },
  };
}
