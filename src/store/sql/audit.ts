import type { AuditRow } from '../types.js';
import type { SqlDialect, SqlSession } from './dialect.js';

export const AUDIT = 'id, at, actor, admin_token_id, action, tenant_id, target_id, request_id, detail';

/**
 * An audit row takes the next place in the trail. Writers take turns from here to their commit, so a place
 * is visible only after every smaller one: a cursor that has passed a row never meets an older one later.
 */
export async function insertAudit(sql: SqlDialect, tx: SqlSession, row: AuditRow): Promise<number> {
  await sql.takeTurn(tx, 'admin_audit');
  return tx.run(
    `INSERT INTO admin_audit (seq, ${AUDIT})
     VALUES ((SELECT COALESCE(MAX(seq), 0) + 1 FROM admin_audit), ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      row.id,
      row.at,
      row.actor,
      row.admin_token_id,
      row.action,
      row.tenant_id,
      row.target_id,
      row.request_id,
      row.detail,
    ],
  );
}
