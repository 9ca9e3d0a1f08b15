import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { openSqliteStore } from '../src/store/sqlite/index.js';
import { refreshStoredViews } from '../src/store/sqlite/stored-views.js';
import { RUN_COLUMNS } from '../src/store/sql/run-rules.js';
import { RUN_VIEW_VERSION, runJson, type RunRow } from '../src/records/run.js';
import { type LedgerEntry, TRANSACTION_VIEW_VERSION, transactionJson } from '../src/records/transaction.js';
import { Tenants } from '../src/tenants/service.js';
import { systemClock } from '../src/kernel/time.js';
import { runLifecycle } from '../src/runs/lifecycle.js';

/**
 * Deterministic bulk data for the benchmarks, written straight into SQLite in large transactions (the API
 * would take hours for a million rows). Counters and daily sums are rebuilt from the rows afterwards, so the
 * seeded database holds the same invariants the service keeps.
 */

export interface SeededTenant {
  tenantId: string;
  token: string;
  runs: number;
}

/** A small deterministic generator, so two seeds of the same size are the same data. */
function generator(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const STATUSES = ['succeeded', 'succeeded', 'succeeded', 'failed', 'queued'] as const;
const TARGETS = ['pdf-preflight', 'pdf-text'] as const;

export async function createTenant(
  dataDir: string,
  name: string,
): Promise<{ tenantId: string; userId: string; token: string }> {
  const store = openSqliteStore(dataDir, runLifecycle);
  try {
    const created = await new Tenants(store, systemClock).create(name);
    return { tenantId: created.tenant_id, userId: created.user_id, token: created.token };
  } finally {
    await store.close();
  }
}

/** Every view's version as the rows inserted here were written (a copy of another would be rewritten). */
function writeStoredViews(db: Database.Database): void {
  db.exec('DELETE FROM stored_views');
  refreshStoredViews(db);
}

/** `count` runs for a new tenant, newest last; the queue holds no open entries (nothing to execute). */
export async function seedRuns(dataDir: string, name: string, count: number): Promise<SeededTenant> {
  const { tenantId, userId, token } = await createTenant(dataDir, name);
  const db = new Database(path.join(dataDir, 'open-tenant.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const random = generator(count);
  const fileId = randomUUID();
  db.prepare(
    `INSERT INTO files (id, tenant_id, upload_id, file_name, size_bytes, sha256, page_count, pdf_version, encrypted, storage_key, created_at)
     VALUES (?, ?, ?, 'seed.pdf', 1, 'seed', 1, '1.4', 0, 'none', ?)`,
  ).run(fileId, tenantId, randomUUID(), new Date().toISOString());
  // each row whole with its JSON, as the service writes a run (a second pass of updates would leave the
  // table's pages split, and reads slower than the service's own rows)
  const insert = db.prepare(
    `INSERT INTO runs (seq, ${RUN_COLUMNS.join(', ')}, record, record_view)
     VALUES (@seq, ${RUN_COLUMNS.map((c) => `@${c}`).join(', ')}, @record, ${RUN_VIEW_VERSION})`,
  );
  const start = Date.parse('2026-01-01T00:00:00.000Z');
  const batch = db.transaction((from: number, to: number) => {
    for (let seq = from; seq <= to; seq++) {
      const status = STATUSES[Math.floor(random() * STATUSES.length)]!;
      const target = TARGETS[Math.floor(random() * TARGETS.length)]!;
      const pages = 1 + Math.floor(random() * 40);
      const done = status === 'succeeded' || status === 'failed';
      const created = new Date(start + seq * 1000).toISOString();
      const run: RunRow = {
        id: randomUUID(),
        tenant_id: tenantId,
        file_id: fileId,
        user_id: userId,
        created_by: userId,
        created_by_type: 'user',
        target,
        status,
        progress: done ? 100 : 0,
        total_tasks: done ? pages + 1 : 0,
        completed_tasks: done ? pages + 1 : 0,
        failed_tasks: 0,
        points_consumed: status === 'succeeded' ? pages * 2 : 0,
        input_file_name: `invoice-${seq}.pdf`,
        output_files: done ? ['report.json', 'report.html'] : [],
        error: null,
        error_code: null,
        attempt: 1,
        queue_message_id: randomUUID(),
        created_at: created,
        started_at: done ? created : null,
        completed_at: done ? created : null,
        options: {},
      };
      insert.run({
        ...run,
        seq,
        output_files: JSON.stringify(run.output_files),
        options: JSON.stringify(run.options),
        record: runJson(run),
      });
    }
  });
  for (let from = 1; from <= count; from += 20_000) batch(from, Math.min(count, from + 19_999));
  db.prepare('UPDATE tenants SET run_seq = ? WHERE id = ?').run(count, tenantId);
  db.prepare('DELETE FROM run_counts WHERE tenant_id = ?').run(tenantId);
  db.prepare(
    `INSERT INTO run_counts (tenant_id, status, target, n)
     SELECT tenant_id, status, target, COUNT(*) FROM runs WHERE tenant_id = ? GROUP BY status, target`,
  ).run(tenantId);
  writeStoredViews(db);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return { tenantId, token, runs: count };
}

/** `total` ledger rows spread evenly over `tenants` new tenants and the last 400 days. */
export async function seedLedger(dataDir: string, tenants: number, total: number): Promise<SeededTenant[]> {
  const created: SeededTenant[] = [];
  for (let i = 0; i < tenants; i++) {
    const t = await createTenant(dataDir, `ledger-${total}-${i}`);
    created.push({ tenantId: t.tenantId, token: t.token, runs: 0 });
  }
  const db = new Database(path.join(dataDir, 'open-tenant.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const random = generator(total);
  const insert = db.prepare(
    `INSERT INTO ledger (id, tenant_id, type, amount, currency, description, source, run_id, queue_message_id,
       external_id, occurred_at, created_at, record, record_view)
     VALUES (@id, @tenant_id, @type, @amount, @currency, @description, @source, @run_id, NULL, @external_id,
       @occurred_at, @created_at, @record, ${TRANSACTION_VIEW_VERSION})`,
  );
  const now = Date.now();
  const perTenant = Math.ceil(total / tenants);
  const batch = db.transaction((tenantId: string, from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const tech = random() < 0.6;
      const occurred = new Date(now - Math.floor(random() * 400 * 86_400_000)).toISOString();
      const entry: LedgerEntry = {
        id: randomUUID(),
        tenant_id: tenantId,
        type: tech ? 'tech' : 'ecosystem',
        amount: Math.floor(random() * 100_000) - (tech ? 0 : 5_000),
        currency: 'USD',
        description: tech ? 'Diagnosis run' : 'Partner settlement',
        source: tech ? 'run' : 'import',
        run_id: null,
        external_id: tech ? null : `seed-${i}`,
        occurred_at: occurred,
        created_at: occurred,
      };
      insert.run({ ...entry, record: transactionJson(entry) });
    }
  });
  for (const t of created) {
    for (let from = 0; from < perTenant; from += 20_000)
      batch(t.tenantId, from, Math.min(perTenant, from + 20_000));
  }
  db.exec('DELETE FROM ledger_days');
  db.exec(
    `INSERT INTO ledger_days (tenant_id, day, tech, ecosystem, tech_count, ecosystem_count)
     SELECT tenant_id, substr(occurred_at, 1, 10),
       COALESCE(SUM(amount) FILTER (WHERE type = 'tech'), 0), COALESCE(SUM(amount) FILTER (WHERE type = 'ecosystem'), 0),
       COUNT(*) FILTER (WHERE type = 'tech'), COUNT(*) FILTER (WHERE type = 'ecosystem')
     FROM ledger GROUP BY 1, 2`,
  );
  db.exec('DELETE FROM ledger_totals');
  db.exec(
    `INSERT INTO ledger_totals (tenant_id, type, amount, abs_amount, tx_count, latest_at)
     SELECT tenant_id, type, SUM(amount), SUM(ABS(amount)), COUNT(*), MAX(occurred_at) FROM ledger GROUP BY 1, 2`,
  );
  writeStoredViews(db);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return created;
}

/**
 * A copy of the database for the bare reference server, in the layout the ceiling was defined on: the same
 * rows, without the stored `record` column of ours (migration 10). Read from the same file, the reference
 * would pay for rows that carry our serialized copy and the ceiling would sink under our own change.
 */
export function referenceCopy(dataDir: string, copyDir: string): string {
  mkdirSync(copyDir, { recursive: true });
  const target = path.join(copyDir, 'open-tenant.sqlite');
  rmSync(target, { force: true });
  const source = new Database(path.join(dataDir, 'open-tenant.sqlite'), { readonly: true });
  try {
    source.prepare('VACUUM INTO ?').run(target);
  } finally {
    source.close();
  }
  const db = new Database(target);
  try {
    const columns = db.prepare("SELECT name FROM pragma_table_xinfo('runs')").pluck().all() as string[];
    if (columns.includes('record')) {
      db.exec('ALTER TABLE runs DROP COLUMN record');
      db.exec('VACUUM');
    }
  } finally {
    db.close();
  }
  return copyDir;
}
