import { REFRESH_BATCH, RUN_VIEW, type StoredView, TRANSACTION_VIEW } from '../stored-views.js';
import type { LedgerEntry } from '../types.js';
import type { Db } from './database.js';
import { type RunRecord, toRun } from '../sql/run-engine.js';

type Stored = Record<string, unknown>;

/** Rewrites the stored JSON an older view wrote (see stored-views.ts), a batch per transaction. */
export function refreshStoredViews(db: Db): void {
  refresh(db, RUN_VIEW, (stored) => toRun(stored as RunRecord));
  refresh(db, TRANSACTION_VIEW, (stored) => stored as unknown as LedgerEntry);
}

function refresh<Row>(db: Db, view: StoredView<Row>, toRow: (stored: Stored) => Row): void {
  const current = db.prepare('SELECT version FROM stored_views WHERE name = ?').pluck().get(view.name);
  if (current === view.version) return;
  const stale = db.prepare(
    `SELECT rowid AS _rowid, ${view.columns.join(', ')} FROM ${view.table}
     WHERE rowid > ? AND record_view <> ? ORDER BY rowid LIMIT ?`,
  );
  const write = db.prepare(`UPDATE ${view.table} SET record = ?, record_view = ? WHERE rowid = ?`);
  // by rowid from where the last batch ended: each batch reads its own rows only
  let after = 0;
  const batch = db.transaction((): number => {
    const rows = stale.all(after, view.version, REFRESH_BATCH) as ({ _rowid: number } & Record<
      string,
      unknown
    >)[];
    for (const { _rowid, ...stored } of rows) {
      write.run(view.render(toRow(stored)), view.version, _rowid);
      after = _rowid;
    }
    return rows.length;
  });
  while (batch.immediate() === REFRESH_BATCH);
  db.prepare(
    'INSERT INTO stored_views (name, version) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET version = excluded.version',
  ).run(view.name, view.version);
}
