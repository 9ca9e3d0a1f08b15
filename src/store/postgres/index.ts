import type { Store } from '../types.js';
import { guardStore } from '../guard.js';
import { migrate, Postgres, type PostgresOptions, translate } from './database.js';
import { postgresLedger } from './ledger.js';
import { postgresRuns } from './runs.js';
import { postgresTenants } from './tenants.js';
import { postgresUploads } from './uploads.js';

export type { PostgresOptions } from './database.js';

/** Connects, applies pending migrations (under a lock shared with every other process), and serves. */
export async function openPostgresStore(options: PostgresOptions): Promise<Store> {
  const db = new Postgres(options);
  try {
    await migrate(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  const runs = postgresRuns(db);
  return guardStore(
    {
      tenants: postgresTenants(db),
      uploads: postgresUploads(db),
      runs,
      ledger: postgresLedger(db),
      async ping() {
        await db.query('SELECT 1', [], 'ping');
      },
      async close() {
        await db.close();
      },
    },
    translate,
  );
}
