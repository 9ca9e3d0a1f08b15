import { Worker } from 'node:worker_threads';
import type { Config } from '../kernel/config.js';
import { pino } from 'pino';
import { requestArrivals } from '../threads/give-way.js';
import type { Logger } from '../kernel/logger.js';
import { type HeldLease, keepLease } from '../queue/claim-loop.js';
import type { Services } from '../composition/services.js';
import { type StoreThreadShare, storeThreadEnded, storeThreadShare } from '../store/open.js';
import { type StopTimer, systemTimers, type Timers } from '../kernel/time.js';
import type { Job } from './job.js';

/** What the API process gives its run thread. */
export interface RunThreadData {
  config: Config;
  /** The process logger's level, at which the thread logs too. */
  logLevel: string;
  storeShare: StoreThreadShare;
  /** The process's count of requests, to which the thread's parsers give way (src/threads/give-way.ts). */
  requestArrivals: Int32Array;
}

export type ToRunThread =
  | { nudge: true }
  | { stop: true }
  /** A lease this process kept for the thread was lost: its run stops. */
  | { leaseLost: string };

/** What the thread logged and measured since its last news, sent at most every NEWS_MS. */
export interface RunThreadNews {
  /** JSON lines of the thread's log. */
  logs: string[];
  parserTasks: [kind: string, outcome: string, seconds: number][];
  /** The largest parser heap reported since, or 0. */
  parserHeap: number;
  /** Seconds its parser threads waited for requests since (src/threads/give-way.ts). */
  parserGaveWay: number;
  /** Leases (queue entry ids) the process is to keep from now on, or no longer, in order. */
  leases: [queueMessageId: string, change: 'keep' | 'drop'][];
}

export type FromRunThread =
  | { started: string }
  | { news: RunThreadNews }
  /** The thread committed events: this process's streams and webhooks hear of them at once (SQLite). */
  | { eventsWritten: true };

/**
 * Each message wakes the API's event loop: a busy thread's logs and metrics go in one message per this
 * many ms rather than one per line or task (tens of them per second per parser thread).
 */
export const NEWS_MS = 200;

/**
 * A thread that ended without being asked is started again this much later, twice as late after each start
 * that failed within RESTART_RESET_MS, at most RESTART_MAX_MS.
 */
const RESTART_MS = 1000;
const RESTART_MAX_MS = 60_000;
const RESTART_RESET_MS = 60_000;
/** Until the thread starts, how often the process looks for runs queued elsewhere (the run worker's poll). */
const WAITING_POLL_MS = 500;

function threadEntry(): URL {
  const fromSource = import.meta.url.endsWith('.ts');
  return new URL(fromSource ? './run-thread-from-source.mjs' : './run-thread-entry.js', import.meta.url);
}

/**
 * A line of the thread's log, as the thread wrote it (its time, its serialized error), to the process
 * logger's destination: the thread logs at the same level.
 */
function writeLine(logger: Logger, line: string): void {
  const destination = (logger as unknown as Record<symbol, { write(line: string): void }>)[
    pino.symbols.streamSym
  ];
  destination?.write(line);
}

/**
 * The embedded worker's runs, executed on a thread of their own at batch priority (src/threads/batch-priority.ts),
 * as the `worker` role would in a process of its own. What a run does between its parser tasks (claiming it,
 * receiving the pages' facts, the report, booking it) then never holds up the event loop that answers
 * requests. On two cores with the parser threads saturated, the run list's p99 was 2.2-2.3x its idle p99
 * with the runs on the API's event loop, and 1.6-1.8x with them on this thread (bench/README, "The runs on a
 * thread of their own").
 * The thread has its own connection to the database; a queued run, metrics and log lines cross as messages.
 * It costs about 13 MB, so it starts with the first run there is to execute: one this process queues, one
 * another process queued (PostgreSQL tells; on SQLite the process looks every WAITING_POLL_MS, as the run
 * worker's own poll did), or one whose worker died. Its restarts, its poll and the leases it keeps wait on
 * `timers`, which a test moves on by hand.
 */
export function runThreadJob(services: Services, timers: Timers = systemTimers): Job {
  const { config, logger, metrics, store, clock } = services;
  // its runs hold a connection each, and claims and leases one more: not a second pool of DATABASE_POOL_SIZE
  const runsAtOnce = Math.max(1, config.parserThreads) * 2;
  const threadConfig: Config = config.database
    ? {
        ...config,
        database: { ...config.database, poolSize: Math.min(config.database.poolSize, runsAtOnce + 2) },
      }
    : config;
  let thread: Worker | undefined;
  let workerId: string | undefined;
  let begun = false;
  let stopping = false;
  let restart: StopTimer | undefined;
  let waitingPoll: StopTimer | undefined;
  let unwatch: (() => void) | undefined;
  let ended = Promise.resolve();
  const send = (message: ToRunThread) => thread?.postMessage(message);

  // The thread runs at the idle policy and may get no CPU for a while when other work keeps every core
  // busy: this event loop renews its runs' leases, so that a run it is slow to execute is not claimed again
  // (and, after three claims, failed). A run's lease is kept for at most its time limit.
  const kept = new Map<string, HeldLease>();
  const drop = (queueMessageId: string) => {
    kept.get(queueMessageId)?.stop();
    kept.delete(queueMessageId);
  };
  const keep = (queueMessageId: string, holder: string) => {
    const until = timers.elapsedMs() + config.runTimeoutMs + config.leaseMs;
    const renew = async () => {
      if (timers.elapsedMs() > until) {
        drop(queueMessageId);
        return true;
      }
      const leaseUntil = new Date(clock.now().getTime() + config.leaseMs).toISOString();
      const renewed = await store.runs.renewLease(queueMessageId, holder, leaseUntil);
      if (!renewed) {
        drop(queueMessageId);
        send({ leaseLost: queueMessageId });
      }
      return renewed;
    };
    kept.set(
      queueMessageId,
      keepLease(
        renew,
        config.leaseMs,
        (error) => logger.warn({ err: error, queue_message_id: queueMessageId }, 'lease renewal failed'),
        timers,
      ),
    );
  };

  let delayMs = RESTART_MS;
  const startAgain = () => {
    logger.error(`the run thread starts again in ${delayMs} ms`);
    restart = timers.after(delayMs, start);
    delayMs = Math.min(RESTART_MAX_MS, delayMs * 2);
  };
  const start = () => {
    restart = undefined;
    if (stopping) return;
    const data: RunThreadData = {
      config: threadConfig,
      logLevel: logger.level,
      storeShare: storeThreadShare(),
      requestArrivals: requestArrivals(),
    };
    let current: Worker;
    try {
      current = new Worker(threadEntry(), { workerData: data });
    } catch (error) {
      logger.error({ err: error }, 'the run thread could not be created');
      startAgain();
      return;
    }
    const startedAt = timers.elapsedMs();
    const currentId = current.threadId;
    thread = current;
    ended = new Promise((resolve) => current.once('exit', () => resolve()));
    current.on('message', (message: FromRunThread) => {
      if ('started' in message) workerId = message.started;
      else if ('eventsWritten' in message) store.events.heard();
      else {
        const { logs, parserTasks, parserHeap, parserGaveWay, leases } = message.news;
        for (const [queueMessageId, change] of leases) {
          if (change === 'drop') drop(queueMessageId);
          else if (workerId) keep(queueMessageId, workerId);
        }
        for (const line of logs) writeLine(logger, line);
        for (const task of parserTasks) metrics.parserTask(...task);
        if (parserHeap > 0) metrics.parserHeap(parserHeap);
        if (parserGaveWay > 0) metrics.parserGaveWay(parserGaveWay);
      }
    });
    current.on('error', (error) => logger.error({ err: error }, 'the run thread failed'));
    current.once('exit', (code) => {
      storeThreadEnded(currentId);
      if (thread === current) thread = undefined;
      workerId = undefined;
      // its runs are no longer executed: their leases lapse, and a new thread (or another process) claims
      // them again
      for (const queueMessageId of [...kept.keys()]) drop(queueMessageId);
      if (stopping) return;
      logger.error({ exit_code: code }, 'the run thread ended');
      if (timers.elapsedMs() - startedAt > RESTART_RESET_MS) delayMs = RESTART_MS;
      startAgain();
    });
  };

  const begin = () => {
    if (begun || stopping) return;
    begun = true;
    waitingPoll?.();
    unwatch?.();
    start();
  };
  const lookForWaiting = () =>
    store.runs.anyWaiting(clock.now().toISOString()).then(
      (waiting) => waiting && begin(),
      // the database is away: the next look, or the next run queued here, tries again
      () => undefined,
    );

  // a run queued here starts at once, not at the thread's next poll
  const unlisten = services.runs.queued.listen(() => (begun ? send({ nudge: true }) : begin()));
  return {
    name: 'runs',
    get id() {
      return workerId;
    },
    start() {
      // a notice means "maybe" (one comes each time the engine starts listening): look
      unwatch = store.runs.watch(() => void lookForWaiting());
      void lookForWaiting();
      // housekeeping never keeps a process alive
      waitingPoll = timers.every(WAITING_POLL_MS, () => void lookForWaiting(), { unref: true });
    },
    async stop() {
      stopping = true;
      waitingPoll?.();
      unwatch?.();
      unlisten();
      restart?.();
      send({ stop: true });
      await ended;
    },
  };
}
