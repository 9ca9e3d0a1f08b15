import { parentPort, workerData } from 'node:worker_threads';
import { pino } from 'pino';
import { lowerThreadPriority } from '../threads/batch-priority.js';
import { openBlobStore } from '../blobs/open.js';
import { adoptRequestArrivals } from '../threads/give-way.js';
import type { LeaseKeeping } from '../queue/claim-loop.js';
import { parserPool } from '../pdf/pool.js';
import { RULE_JUDGES_MODULE } from '../rules/object-judges.js';
import { runLifecycle } from '../runs/lifecycle.js';
import { adoptStoreThreadShare, openStore } from '../store/open.js';
import { systemClock } from '../kernel/time.js';
import { createRunWorker } from '../worker/index.js';
import {
  type FromRunThread,
  NEWS_MS,
  type RunThreadData,
  type RunThreadNews,
  type ToRunThread,
} from './run-thread.js';

/** The run thread of an API process (src/start/run-thread.ts): the `worker` role's runs, on a thread. */
const port = parentPort;
if (!port) throw new Error('run-thread-entry runs as a worker thread of an API process');
const post = (message: FromRunThread) => port.postMessage(message);
const { config, logLevel, storeShare, requestArrivals } = workerData as RunThreadData;
adoptRequestArrivals(requestArrivals);

let news: RunThreadNews | undefined;
let newsTimer: NodeJS.Timeout | undefined;
function sendNews(): void {
  clearTimeout(newsTimer);
  newsTimer = undefined;
  if (news) post({ news });
  news = undefined;
}
/** What happened is told within NEWS_MS, together with whatever else happened meanwhile. */
function told(): RunThreadNews {
  newsTimer ??= setTimeout(sendNews, NEWS_MS);
  return (news ??= { logs: [], parserTasks: [], parserHeap: 0, parserGaveWay: 0, leases: [] });
}

// a crash's last lines are the ones that explain it
process.on('uncaughtExceptionMonitor', sendNews);

// its leases are kept by the API's event loop (src/start/run-thread.ts), so it can take the idle policy
lowerThreadPriority();
const logger = pino(
  { level: logLevel, base: undefined, timestamp: pino.stdTimeFunctions.isoTime },
  { write: (line: string) => void told().logs.push(line) },
);
const blobs = await openBlobStore(config);
adoptStoreThreadShare(storeShare);
const store = await openStore(config, 'worker', runLifecycle);
const pool = parserPool(
  config,
  {
    parserTask: (kind, outcome, seconds) => void told().parserTasks.push([kind, outcome, seconds]),
    parserHeap: (bytes) => {
      const pending = told();
      pending.parserHeap = Math.max(pending.parserHeap, bytes);
    },
    parserGaveWay: (seconds) => void (told().parserGaveWay += seconds),
  },
  {
    size: Math.max(1, config.parserThreads),
    givesWayMs: config.parserYieldMs,
    judges: RULE_JUDGES_MODULE,
    // the API's requests come first: while they arrive, a thread of the pool stands back
    serving: { threads: config.parserThreadsServing, arrivals: requestArrivals },
  },
);
/** Leases the API's event loop keeps for this thread's runs, and those it found lost. */
const keptByTheProcess = new Set<string>();
const lostLeases = new Set<string>();
const leases: LeaseKeeping = (queueMessageId) => {
  keptByTheProcess.add(queueMessageId);
  // at once, while this thread has the CPU: its next news may come late
  told().leases.push([queueMessageId, 'keep']);
  sendNews();
  let lost = false;
  return {
    lost: () => lost || lostLeases.has(queueMessageId),
    markLost: () => {
      lost = true;
    },
    stop: () => {
      keptByTheProcess.delete(queueMessageId);
      lostLeases.delete(queueMessageId);
      told().leases.push([queueMessageId, 'drop']);
    },
  };
};
const worker = createRunWorker({ config, store, blobs, clock: systemClock, logger, pool, leases });
// a run's events are streamed and delivered by the process's event loop, which its engine may not tell
if (!store.events.hearsOtherConnections) store.events.watch(() => post({ eventsWritten: true }));
// the run worker's timers are unref'd: this keeps the thread until it is told to stop
const alive = setInterval(() => undefined, 1 << 30);

async function stop(): Promise<void> {
  await worker.stop();
  await pool.close();
  await store.close();
  clearInterval(alive);
  sendNews();
  process.exit(0);
}

port.on('message', (message: ToRunThread) => {
  if ('nudge' in message) worker.nudge();
  else if ('leaseLost' in message) {
    if (keptByTheProcess.has(message.leaseLost)) lostLeases.add(message.leaseLost);
  } else
    stop().catch((error: unknown) => {
      logger.error({ err: error }, 'the run thread did not stop cleanly');
      sendNews();
      process.exit(1);
    });
});
worker.start();
post({ started: worker.workerId });
