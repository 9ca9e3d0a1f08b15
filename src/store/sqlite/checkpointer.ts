import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Db } from './database.js';

/** How often the checkpoint thread copies the WAL's new pages into the database file. */
export const CHECKPOINT_EVERY_MS = 50;
/**
 * The WAL size (pages) past which a commit of this process's connection checkpoints on its own thread, as
 * SQLite does by default at 1,000: with the checkpoint thread copying pages meanwhile, that commit has only
 * the rest to copy, and it lets the next transaction start the WAL over (a checkpoint on another thread
 * rarely finishes between two of a busy writer's transactions, so it alone would let the WAL grow). Bounds
 * the WAL at about 16 MB plus one transaction.
 */
export const WAL_PAGES_BEFORE_COMMIT_CHECKPOINT = 4000;

/**
 * The thread's loop: a PASSIVE checkpoint (it waits for no reader or writer, and takes no write lock) every
 * `everyMs` on a connection of its own. Plain JavaScript, so that it runs the same from dist/ and from the
 * TypeScript sources; better-sqlite3 is loaded by the path this module resolves.
 */
const THREAD = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); }
  catch (error) { parentPort.postMessage({ failed: String(error && error.message || error) }); }
}, workerData.everyMs);
parentPort.on('message', () => { clearInterval(timer); db.close(); parentPort.close(); });
`;

export interface Checkpointer {
  /** Stops the thread; resolves once its connection is closed. */
  stop(): Promise<void>;
}

/**
 * Copies a write-heavy connection's WAL into the database file on a thread of its own, so that the
 * connection's commits (a webhook dispatcher's, thousands a second) do not copy pages and fsync on the event
 * loop's thread; the connection's own automatic checkpoint stays as the bound on the WAL's size. Other
 * processes sharing the file keep SQLite's defaults: a PASSIVE checkpoint blocks none of them.
 */
export function startCheckpointer(
  db: Db,
  onError: (message: string) => void,
  everyMs = CHECKPOINT_EVERY_MS,
): Checkpointer {
  db.pragma(`wal_autocheckpoint = ${WAL_PAGES_BEFORE_COMMIT_CHECKPOINT}`);
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const thread = new Worker(THREAD, { eval: true, workerData: { driver, file: db.name, everyMs } });
  thread.unref();
  thread.on('message', (message: { failed?: string }) => {
    if (message.failed) onError(message.failed);
  });
  thread.on('error', (error) => onError(error.message));
  const ended = new Promise<void>((resolve) => thread.once('exit', () => resolve()));
  let stopped: Promise<void> | undefined;
  return {
    stop() {
      if (!stopped) {
        thread.postMessage('stop');
        stopped = ended.then(() => {
          if (db.open) db.pragma('wal_autocheckpoint = 1000');
        });
      }
      return stopped;
    },
  };
}
