import type { RunLifecycle, Store } from '../types.js';
import { guardStore } from '../guard.js';
import { migrate, Postgres, type PostgresOptions, translate } from './database.js';
import { postgresEvents } from './events.js';
import { postgresRateBuckets } from './rate-buckets.js';
import { postgresRunEngine } from './runs.js';
import { sqlRuns } from '../sql/runs.js';
import { refreshStoredViews } from './stored-views.js';
import { BLOCK_BITS, SUPERBLOCK_BITS } from '../sql/run-rules.js';
import { withTokenCache } from './tenants.js';
import { PostgresDialect } from './dialect.js';
import { sqlIdempotency } from '../sql/idempotency.js';
import { sqlLedger } from '../sql/ledger.js';
import { sqlTenants } from '../sql/tenants.js';
import { sqlUploads } from '../sql/uploads.js';
import { postgresDueCandidates } from './webhooks.js';
import { sqlWebhooks } from '../sql/webhooks.js';
import { transactor } from '../sql/unit-of-work.js';
import { tenantUnits } from '../sql/units.js';
import { sqlPlatform } from '../sql/platform.js';
import { sqlOffboarding } from '../sql/offboarding.js';

export type { PostgresOptions } from './database.js';

/**
 * Connects, applies pending migrations (under a lock shared with every other process), and serves, applying
 * the run lifecycle it is given (src/runs/lifecycle.ts).
 */
export async function openPostgresStore(options: PostgresOptions, lifecycle: RunLifecycle): Promise<Store> {
  const db = new Postgres(options);
  try {
    await migrate(db);
    await refreshStoredViews(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  const sql = new PostgresDialect(db);
  const events = postgresEvents(db, sql);
  // what commits events is published to every process's streams
  const transact = transactor(sql, () => events.committed());
  const runEngine = postgresRunEngine(db, sql);
  const runs = sqlRuns(sql, runEngine, lifecycle, transact);
  const tenants = withTokenCache(sqlTenants(sql), db);
  return guardStore(
    {
      transaction: tenantUnits(sql, transact, runs.changes),
      tenants,
      platform: sqlPlatform(sql, transact, tenants.tokensChanged),
      offboarding: sqlOffboarding(sql),
      uploads: sqlUploads(sql),
      events,
      webhooks: sqlWebhooks(sql, postgresDueCandidates),
      runs: runs.repo,
      ledger: sqlLedger(sql),
      idempotency: sqlIdempotency(sql),
      rateBuckets: postgresRateBuckets(db),
      async ping() {
        await db.query('SELECT 1', [], 'ping');
      },
      async maintain() {
        await events.publishStragglers();
        // fold the striped counts of (super)blocks the shared sequence has left behind (a straggling
        // transaction that writes one later recreates its stripe row: the sums stay exact)
        await db.query(
          `WITH moved AS (
             DELETE FROM run_blocks WHERE stripe > 0 AND block < (SELECT last_value FROM runs_seq)
               >> CASE level WHEN 1 THEN ${BLOCK_BITS} ELSE ${SUPERBLOCK_BITS} END - 1
             RETURNING tenant_id, level, block, n)
           INSERT INTO run_blocks (tenant_id, level, block, stripe, n)
           SELECT tenant_id, level, block, 0, SUM(n) FROM moved GROUP BY tenant_id, level, block
           ON CONFLICT (tenant_id, level, block, stripe) DO UPDATE SET n = run_blocks.n + excluded.n`,
        );
      },
      async close() {
        tenants.close();
        runEngine.close();
        events.close();
        await db.close();
      },
    },
    translate,
  );
}
