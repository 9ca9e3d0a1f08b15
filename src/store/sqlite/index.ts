import { asDiskFull, isDiskFull } from '../../blobs/disk-full.js';
import { guardStore } from '../guard.js';
import { type RunLifecycle, StoreUnavailableError, type Store } from '../types.js';
import { openDatabase } from './database.js';
import { SqliteDialect } from './dialect.js';
import { sqlIdempotency } from '../sql/idempotency.js';
import { sqlLedger } from '../sql/ledger.js';
import { sqlTenants } from '../sql/tenants.js';
import { sqliteEvents } from './events.js';
import { sqliteRunEngine } from './runs.js';
import { sqlRuns } from '../sql/runs.js';
import { refreshStoredViews } from './stored-views.js';
import { sqlUploads } from '../sql/uploads.js';
import { sqliteDueCandidates } from './webhooks.js';
import { sqlWebhooks } from '../sql/webhooks.js';
import { transactor } from '../sql/unit-of-work.js';
import { tenantUnits } from '../sql/units.js';
import { sqlPlatform } from '../sql/platform.js';
import { sqlOffboarding } from '../sql/offboarding.js';

/**
 * Busy past busy_timeout, a full or failing disk, a closed handle: nothing the request did wrong. A full
 * disk ("database or disk is full") says so, to the client and in the log, as DiskFullError (503 with
 * Retry-After): "the database is unavailable" would send the operator to look for an outage.
 */
export function translateSqliteError(error: unknown): unknown {
  if (isDiskFull(error)) return asDiskFull(error);
  const code = (error as { code?: unknown } | undefined)?.code;
  const transient =
    (typeof code === 'string' && /^SQLITE_(BUSY|LOCKED|IOERR|CANTOPEN|PROTOCOL)/.test(code)) ||
    (error instanceof TypeError && /database connection is not open/.test(error.message));
  return transient ? new StoreUnavailableError('the database is unavailable', error) : error;
}

/** The store on SQLite under `dataDir`, applying the run lifecycle it is given (src/runs/lifecycle.ts). */
export function openSqliteStore(dataDir: string, lifecycle: RunLifecycle): Store {
  const db = openDatabase(dataDir);
  refreshStoredViews(db);
  const sql = new SqliteDialect(db);
  const events = sqliteEvents(sql);
  // what commits events wakes this process's streams
  const transact = transactor(sql, () => events.written());
  const runs = sqlRuns(sql, sqliteRunEngine(sql), lifecycle, transact);
  return guardStore(
    {
      transaction: tenantUnits(sql, transact, runs.changes),
      tenants: sqlTenants(sql),
      // one process serves SQLite: no token cache to tell
      platform: sqlPlatform(sql, transact, async () => undefined),
      offboarding: sqlOffboarding(sql),
      uploads: sqlUploads(sql),
      events,
      webhooks: sqlWebhooks(sql, sqliteDueCandidates),
      runs: runs.repo,
      ledger: sqlLedger(sql),
      idempotency: sqlIdempotency(sql),
      rateBuckets: null,
      async ping() {
        await sql.get('SELECT 1');
      },
      async maintain() {
        // nothing to do: SQLite's counters are single rows (one writer at a time)
      },
      async close() {
        await sql.idle();
        if (db.open) db.close();
      },
    },
    translateSqliteError,
  );
}
