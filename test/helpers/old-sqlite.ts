import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from '../../src/store/sqlite/database.js';
import { migrations } from '../../src/store/sqlite/migrations.js';

/** When the old deployment's rows were written. */
export const OLD_AT = '2026-01-01T00:00:00.000Z';

/**
 * A SQLite deployment under `parent` stopped at migration `version`, as an older release left it, holding
 * tenant `t1` (USD) whose runs are numbered up to `runSeq`: the rows a test writes next are the old release's.
 */
export function sqliteDeploymentAt(
  parent: string,
  version: number,
  runSeq = 0,
): { dataDir: string; db: Database.Database } {
  const dataDir = path.join(parent, 'old');
  mkdirSync(dataDir);
  const db = new Database(path.join(dataDir, 'open-tenant.sqlite'));
  migrate(
    db,
    migrations.filter((m) => m.version <= version),
  );
  db.prepare(
    `INSERT INTO tenants (id, name, currency, price_per_point, run_seq, created_at) VALUES ('t1', 'old', 'USD', 10, ?, ?)`,
  ).run(runSeq, OLD_AT);
  return { dataDir, db };
}
