import type { Config } from '../config.js';
import type { Role } from '../role.js';
import { openSqliteStore } from './sqlite/index.js';
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
