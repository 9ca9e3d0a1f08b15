import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { Postgres } from '../src/store/postgres/database.js';
import { openPostgresStore } from '../src/store/postgres/index.js';
import { refreshStoredViews } from '../src/store/postgres/stored-views.js';
import { Tenants } from '../src/tenants/service.js';
import { systemClock } from '../src/kernel/time.js';
import { runLifecycle } from '../src/runs/lifecycle.js';

/**
 * Bulk runs for the PostgreSQL scenarios, written by SQL in one statement per tenant (the API would take
 * hours), then the counters and block counts rebuilt from the rows, so the database holds the invariants
 * the service keeps. Statuses and targets follow the SQLite seed's proportions.
 */
export interface SeededPostgresTenant {
  tenantId: string;
  token: string;
  fileId: string;
  runs: number;
}

export async function seedPostgresRuns(
  url: string,
  name: string,
  count: number,
): Promise<SeededPostgresTenant> {
  const store = await openPostgresStore(
    {
      url,
      poolSize: 2,
      statementTimeoutMs: 600_000,
      connectTimeoutMs: 5_000,
      applicationName: 'bench-seed',
    },
    runLifecycle,
  );
  const created = await new Tenants(store, systemClock).create(name);
  await store.close();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const fileId = randomUUID();
    const tenant = created.tenant_id;
    await client.query(
      `INSERT INTO files (id, tenant_id, upload_id, file_name, size_bytes, sha256, page_count, pdf_version, encrypted,
         storage_key, created_at) VALUES ($1, $2, $3, 'seed.pdf', 1, 'seed', 1, '1.4', false, 'none', $4)`,
      [fileId, tenant, randomUUID(), new Date().toISOString()],
    );
    if (count > 0) {
      await client.query(
        `INSERT INTO runs (id, tenant_id, file_id, user_id, created_by, created_by_type, target, status, progress,
           total_tasks, completed_tasks, failed_tasks, points_consumed, input_file_name, output_files, error, attempt,
           queue_message_id, created_at, started_at, completed_at)
         SELECT gen_random_uuid()::text, $1, $2, $3, $3, 'user', s.target, s.status,
           CASE WHEN s.done THEN 100 ELSE 0 END, CASE WHEN s.done THEN s.pages + 1 ELSE 0 END,
           CASE WHEN s.done THEN s.pages + 1 ELSE 0 END, 0, CASE WHEN s.status = 'succeeded' THEN s.pages * 2 ELSE 0 END,
           'invoice-' || g || '.pdf',
           CASE WHEN s.done THEN '["report.json","report.html"]'::jsonb ELSE '[]'::jsonb END, NULL, 1,
           gen_random_uuid()::text, s.at, CASE WHEN s.done THEN s.at END, CASE WHEN s.done THEN s.at END
         FROM generate_series(1, $4::bigint) g,
           LATERAL (SELECT (ARRAY['succeeded','succeeded','succeeded','failed','queued'])[1 + (g * 7919) % 5] AS status,
             (ARRAY['pdf-preflight','pdf-text'])[1 + (g * 104729) % 2] AS target, 1 + (g * 31) % 40 AS pages,
             to_char(timestamp '2026-01-01' + g * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at) s0,
           LATERAL (SELECT s0.*, s0.status IN ('succeeded', 'failed') AS done) s
         ORDER BY g`,
        [tenant, fileId, created.user_id, count],
      );
    }
    await client.query('DELETE FROM run_counts WHERE tenant_id = $1', [tenant]);
    await client.query(
      `INSERT INTO run_counts (tenant_id, status, target, stripe, n)
       SELECT tenant_id, status, target, seq % 16, COUNT(*) FROM runs WHERE tenant_id = $1 GROUP BY 1, 2, 3, 4`,
      [tenant],
    );
    await client.query('DELETE FROM run_blocks WHERE tenant_id = $1', [tenant]);
    // folded, as the service's maintenance leaves (super)blocks the sequence has moved past
    await client.query(
      `INSERT INTO run_blocks (tenant_id, level, block, stripe, n)
       SELECT tenant_id, 1, seq >> 10, 0, COUNT(*) FROM runs WHERE tenant_id = $1 GROUP BY 1, 3
       UNION ALL
       SELECT tenant_id, 2, seq >> 16, 0, COUNT(*) FROM runs WHERE tenant_id = $1 GROUP BY 1, 3`,
      [tenant],
    );
    await writeStoredViews(url);
    // the JSON was written by a second pass of updates: the table rewritten compact, as rows the service
    // inserts whole would lie
    await client.query('VACUUM FULL runs');
    // as autovacuum would in time: statistics for the planner, and a visibility map for index-only scans
    await client.query('VACUUM ANALYZE');
    return { tenantId: tenant, token: created.token, fileId, runs: count };
  } finally {
    await client.end();
  }
}

/** The contract JSON of the rows inserted here, written by the service's own views (src/records). */
async function writeStoredViews(url: string): Promise<void> {
  const db = new Postgres({
    url,
    poolSize: 2,
    statementTimeoutMs: 600_000,
    connectTimeoutMs: 10_000,
    applicationName: 'bench-seed',
  });
  try {
    await db.query('DELETE FROM stored_views');
    await refreshStoredViews(db);
  } finally {
    await db.close();
  }
}

/** Rows of a query on the bench database (counts and sums as numbers). */
export async function postgresQuery<R>(url: string, text: string, values: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as R[];
  } finally {
    await client.end();
  }
}
