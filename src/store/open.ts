import type { Config } from '../kernel/config.js';
import type { Role } from '../kernel/role.js';
import { openSqliteStore } from './sqlite/index.js';
import {
  adoptWriteTurns,
  releaseTurnsOf,
  type SharedWriteTurns,
  sharedWriteTurns,
} from './sqlite/write-turns.js';
import type { RunLifecycle, Store } from './types.js';

/**
 * The engine the environment selects: PostgreSQL when DATABASE_URL is set, else SQLite under DATA_DIR. It
 * applies the run lifecycle it is given.
 */
export async function openStore(config: Config, role: Role, lifecycle: RunLifecycle): Promise<Store> {
  if (!config.database) return openSqliteStore(config.dataDir, lifecycle);
  // loaded only when chosen: the embedded default does not pay for the pg driver at start
  const { openPostgresStore } = await import('./postgres/index.js');
  return openPostgresStore({ ...config.database, applicationName: `open-tenant-${role}` }, lifecycle);
}

/** What logs may say about the engine: never the password. */
export function describeStore(config: Config): string {
  if (!config.database) return `sqlite:${config.dataDir}`;
  const url = new URL(config.database.url);
  return `postgres://${url.hostname}:${url.port || 5432}${url.pathname}`;
}

/**
 * What a thread that opens a store of its own takes from this thread's (workerData): on SQLite, the write
 * turns of the database files (src/store/sqlite/write-turns.ts), so that neither thread's write blocks the
 * other's event loop. PostgreSQL's connections need nothing shared.
 */
export interface StoreThreadShare {
  sqliteWriteTurns: SharedWriteTurns;
}

export function storeThreadShare(): StoreThreadShare {
  return { sqliteWriteTurns: sharedWriteTurns() };
}

/** In the new thread, before it opens its store. */
export function adoptStoreThreadShare(share: StoreThreadShare): void {
  adoptWriteTurns(share.sqliteWriteTurns);
}

/** A thread that ended (crashed, terminated) in the middle of a transaction holds nothing any more. */
export function storeThreadEnded(threadId: number): void {
  releaseTurnsOf(threadId);
}
