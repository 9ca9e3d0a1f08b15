import { guardStore } from '../guard.js';
import { StoreUnavailableError, type Store } from '../types.js';
import { openDatabase } from './database.js';
import { sqliteEvents } from './events.js';
import { sqliteIdempotency } from './idempotency.js';
import { sqliteLedger } from './ledger.js';
import { sqliteRuns } from './runs.js';
import { sqliteTenants } from './tenants.js';
import { refreshStoredViews } from './stored-views.js';
import { sqliteUploads } from './uploads.js';
import { sqliteWebhooks } from './webhooks.js';

/** Busy past busy_timeout, a full or failing disk, a closed handle: nothing the request did wrong. */
function translate(error: unknown): unknown {
  const code = (error as { code?: unknown } | undefined)?.code;
  const transient =
    (typeof code === 'string' && /^SQLITE_(BUSY|LOCKED|FULL|IOERR|CANTOPEN|PROTOCOL)/.test(code)) ||
    (error instanceof TypeError && /database connection is not open/.test(error.message));
  return transient ? new StoreUnavailableError('the database is unavailable', error) : error;
}

export function openSqliteStore(dataDir: string): Store {
  const db = openDatabase(dataDir);
  refreshStoredViews(db);
  const ping = db.prepare('SELECT 1');
  return guardStore(
    {
      tenants: sqliteTenants(db),
      uploads: sqliteUploads(db),
      events: sqliteEvents(db),
      webhooks: sqliteWebhooks(db),
      runs: sqliteRuns(db),
      ledger: sqliteLedger(db),
      idempotency: sqliteIdempotency(db),
      rateBuckets: null,
      async ping() {
        ping.get();
      },
      async maintain() {
        // nothing to do: SQLite's counters are single rows (one writer at a time)
      },
      async close() {
        if (db.open) db.close();
      },
    },
    translate,
  );
}
