import type { Store } from '../types.js';
import { openDatabase } from './database.js';
import { sqliteLedger } from './ledger.js';
import { sqliteRuns } from './runs.js';
import { sqliteTenants } from './tenants.js';
import { sqliteUploads } from './uploads.js';

export function openSqliteStore(dataDir: string): Store {
  const db = openDatabase(dataDir);
  const ping = db.prepare('SELECT 1');
  return {
    tenants: sqliteTenants(db),
    uploads: sqliteUploads(db),
    runs: sqliteRuns(db),
    ledger: sqliteLedger(db),
    async ping() {
      ping.get();
    },
    async close() {
      if (db.open) db.close();
    },
  };
}
