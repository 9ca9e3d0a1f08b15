import { REFRESH_BATCH, RUN_VIEW, type StoredView, TRANSACTION_VIEW } from '../stored-views.js';
import type { Postgres } from './database.js';

/**
 * Rewrites the stored JSON an older view wrote (see stored-views.ts), a batch per transaction, in key order.
 * A batch locks its rows (a concurrent writer of one waits, then writes its own copy, already current); the
 * processes starting together share the work through SKIP LOCKED.
 */
export async function refreshStoredViews(db: Postgres): Promise<void> {
  await refresh(db, RUN_VIEW);
  await refresh(db, TRANSACTION_VIEW);
}

async function refresh<Row extends { id: string }>(db: Postgres, view: StoredView<Row>): Promise<void> {
  const [current] = await db.query<{ version: number }>('SELECT version FROM stored_views WHERE name = $1', [
    view.name,
  ]);
  if (current?.version === view.version) return;
  let after = '';
  for (;;) {
    const rewritten = await db.transaction(async (tx) => {
      const { rows } = await tx.query<Row>(
        `SELECT ${view.columns.join(', ')} FROM ${view.table} WHERE id > $1 AND record_view <> $2
         ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED`,
        [after, view.version, REFRESH_BATCH],
      );
      if (rows.length === 0) return 0;
      await tx.query(
        `UPDATE ${view.table} t SET record = v.record, record_view = $1
         FROM unnest($2::text[], $3::text[]) AS v(id, record) WHERE t.id = v.id`,
        [view.version, rows.map((row) => row.id), rows.map((row) => view.render(row))],
      );
      after = rows[rows.length - 1]!.id;
      return rows.length;
    });
    if (rewritten < REFRESH_BATCH) break;
  }
  await db.query(
    `INSERT INTO stored_views (name, version) VALUES ($1, $2)
     ON CONFLICT (name) DO UPDATE SET version = excluded.version`,
    [view.name, view.version],
  );
}
