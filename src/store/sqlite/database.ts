import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { type Migration, migrations } from './migrations.js';

export type Db = Database.Database;

/** How long a write waits for another connection's transaction before it fails as unavailable. */
export const BUSY_TIMEOUT_MS = 5000;

/** Opens (creating if needed) the database under dataDir and applies pending migrations. */
export function openDatabase(dataDir: string): Db {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(path.join(dataDir, 'open-tenant.sqlite'));
  db.pragma('journal_mode = WAL');
  // WAL + NORMAL is durable against process crashes; a power loss may drop the last transactions.
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  // the admin CLI and a separate worker process share the file with the server
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  migrate(db);
  return db;
}

/** Applies the given migrations (all of them unless a test stops at an older schema) that are not applied yet. */
export function migrate(db: Db, upTo: readonly Migration[] = migrations): void {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`);
  const apply = db.transaction((version: number, name: string, sql: string, checkKeys: boolean) => {
    // re-checked inside the write transaction: two processes starting together apply each migration once
    const done = db.prepare('SELECT 1 FROM schema_migrations WHERE version = ?').get(version);
    if (done) return;
    db.exec(sql);
    if (checkKeys && (db.pragma('foreign_key_check') as unknown[]).length > 0) {
      throw new Error(`migration ${version} would break foreign keys`);
    }
    db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
      version,
      name,
      new Date().toISOString(),
    );
  });
  const applied = new Set(
    (db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map(
      (r) => r.version,
    ),
  );
  for (const m of upTo) {
    if (applied.has(m.version)) continue;
    // SQLite's documented way to rebuild a table: foreign keys off around the transaction (not inside it)
    if (m.rebuildsTables) db.pragma('foreign_keys = OFF');
    try {
      apply.immediate(m.version, m.name, m.sql, m.rebuildsTables === true);
    } finally {
      if (m.rebuildsTables) db.pragma('foreign_keys = ON');
    }
  }
}
