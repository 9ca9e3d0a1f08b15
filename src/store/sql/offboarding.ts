import type {
  AuditRow,
  ExportOutcome,
  OffboardingRepo,
  RecordKind,
  RecordPage,
  TenantExportRow,
} from '../types.js';
import type { SqlDialect, SqlSession, SqlValue } from './dialect.js';
import { insertAudit } from './audit.js';
import type { Transact } from './unit-of-work.js';

export const EXPORT = `id, tenant_id, status, entries_done, entries_total, size_bytes, sha256, storage_key, error_code,
  error_message, lease_owner, lease_until, created_at, started_at, completed_at`;

/** An export as its table holds it, for a platform change to write (repos/platform.ts createExport). */
export function insertExport(tx: SqlSession, row: TenantExportRow): Promise<number> {
  return tx.run(
    `INSERT INTO tenant_exports (${EXPORT}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      row.id,
      row.tenant_id,
      row.status,
      row.entries_done,
      row.entries_total,
      row.size_bytes,
      row.sha256,
      row.storage_key,
      row.error_code,
      row.error_message,
      row.lease_owner,
      row.lease_until,
      row.created_at,
      row.started_at,
      row.completed_at,
    ],
  );
}

/** How each kind is read page after page: by a sequence, or by (time, id) in a JSON cursor. */
interface KindQuery {
  select: string;
  from: string;
  /** `seq`: an integer column; otherwise the time column of a (time, id) order */
  order: 'seq' | string;
}

const KINDS: Record<RecordKind, KindQuery> = {
  uploads: {
    select: `id, tenant_id, file_name, size_bytes, content_type, sha256, part_size, part_count, status, file_id,
      created_at, expires_at, multipart_id`,
    from: 'uploads',
    order: 'created_at',
  },
  files: {
    select:
      'id, tenant_id, upload_id, file_name, size_bytes, sha256, page_count, pdf_version, encrypted, storage_key, created_at',
    from: 'files',
    order: 'created_at',
  },
  runs: { select: 'seq, record', from: 'runs', order: 'seq' },
  transactions: { select: 'id, occurred_at, record', from: 'ledger', order: 'occurred_at' },
  events: { select: 'seq, body AS record', from: 'events', order: 'seq' },
  webhook_attempts: {
    select:
      'seq, endpoint_id, event_id, attempt, attempted_at, status_code, error, duration_ms, response_body',
    from: 'webhook_attempts',
    order: 'seq',
  },
};

/**
 * Every table that holds a tenant's rows, in an order that deletes what refers to a row before the row. The
 * footprint (the catalog's tables with a tenant_id) is what a test holds this list to.
 */
const ERASED_IN_ORDER = [
  'webhook_attempts',
  'webhook_deliveries',
  'webhook_endpoints',
  'events',
  'idempotency_keys',
  'run_queue',
  'run_counts',
  'run_blocks',
  'runs',
  'ledger',
  'ledger_days',
  'ledger_totals',
  'uploads',
  'files',
  'tenant_exports',
  'api_tokens',
  'users',
];

/** PlatformRepo.eraseTenant: every row of a tenant whose grace period is over, in one transaction. */
export function eraseTenant(
  sql: SqlDialect,
  transact: Transact,
  tenantId: string,
  now: string,
  auditRow: (rows: number) => AuditRow,
): Promise<{ rows: number } | undefined> {
  return transact(async (tx) => {
    // the one moment the ledger's rows of the tenant may be deleted (the append-only trigger reads it)
    const due = await tx.run(
      'UPDATE tenants SET erasing_at = ? WHERE id = ? AND erase_at IS NOT NULL AND erase_at <= ?',
      [now, tenantId, now],
    );
    if (due === 0) return undefined;
    let rows = 0;
    rows += await tx.run(
      'DELETE FROM upload_parts WHERE upload_id IN (SELECT id FROM uploads WHERE tenant_id = ?)',
      [tenantId],
    );
    for (const table of ERASED_IN_ORDER)
      rows += await tx.run(`DELETE FROM ${table} WHERE tenant_id = ?`, [tenantId]);
    await tx.run('UPDATE admin_audit SET detail = NULL WHERE tenant_id = ?', [tenantId]);
    rows += await tx.run('DELETE FROM tenants WHERE id = ?', [tenantId]);
    const row: AuditRow = auditRow(rows);
    await insertAudit(sql, tx, row);
    return { rows };
  });
}

export function sqlOffboarding(sql: SqlDialect): OffboardingRepo {
  const tenantTables = async () =>
    (await sql.all<{ name: string }>(sql.text.tablesWithColumn('tenant_id'))).map((row) => row.name);
  return {
    getExport: (tenantId, exportId) =>
      sql.get<TenantExportRow>(`SELECT ${EXPORT} FROM tenant_exports WHERE id = ? AND tenant_id = ?`, [
        exportId,
        tenantId,
      ]),
    claimExport: (owner, now, leaseUntil) =>
      sql.transaction(async (tx) => {
        const next = await tx.get<{ id: string }>(
          `SELECT id FROM tenant_exports
           WHERE status = 'queued' OR (status = 'running' AND lease_until <= ?)
           ORDER BY created_at, id LIMIT 1${sql.text.rowLock('skip-locked')}`,
          [now],
        );
        if (!next) return undefined;
        await tx.run(
          `UPDATE tenant_exports SET status = 'running', lease_owner = ?, lease_until = ?,
             started_at = COALESCE(started_at, ?), entries_done = 0 WHERE id = ?`,
          [owner, leaseUntil, now, next.id],
        );
        return tx.get<TenantExportRow>(`SELECT ${EXPORT} FROM tenant_exports WHERE id = ?`, [next.id]);
      }),
    async exportProgress(exportId, owner, progress, leaseUntil) {
      const changed = await sql.run(
        `UPDATE tenant_exports SET entries_done = ?, entries_total = ?, lease_until = ?
         WHERE id = ? AND lease_owner = ? AND status = 'running'`,
        [progress.done, progress.total, leaseUntil, exportId, owner],
      );
      return changed > 0;
    },
    async finishExport(exportId, owner, outcome: ExportOutcome) {
      const values: SqlValue[] =
        outcome.status === 'succeeded'
          ? [
              'succeeded',
              outcome.entries,
              outcome.entries,
              outcome.size_bytes,
              outcome.sha256,
              outcome.storage_key,
              null,
              null,
              outcome.at,
            ]
          : ['failed', null, null, null, null, null, outcome.error_code, outcome.error_message, outcome.at];
      const changed = await sql.run(
        `UPDATE tenant_exports SET status = ?, entries_done = COALESCE(?, entries_done),
           entries_total = COALESCE(?, entries_total), size_bytes = ?, sha256 = ?,
           storage_key = COALESCE(?, storage_key), error_code = ?, error_message = ?, completed_at = ?,
           lease_owner = NULL, lease_until = NULL
         WHERE id = ? AND lease_owner = ? AND status = 'running'`,
        [...values, exportId, owner],
      );
      return changed > 0;
    },
    async countRecords(tenantId, kind) {
      const row = await sql.get<{ n: number }>(
        `SELECT CAST(COUNT(*) AS integer) AS n FROM ${KINDS[kind].from} WHERE tenant_id = ?`,
        [tenantId],
      );
      return Number(row?.n ?? 0);
    },
    async recordPage(tenantId, kind, cursor, limit): Promise<RecordPage> {
      const query = KINDS[kind];
      let rows: Record<string, unknown>[];
      if (query.order === 'seq') {
        rows = await sql.all(
          `SELECT ${query.select} FROM ${query.from} WHERE tenant_id = ? AND seq > ? ORDER BY seq LIMIT ?`,
          [tenantId, cursor === null ? 0 : Number(cursor), limit],
        );
      } else {
        const [at, id] = cursor === null ? ['', ''] : (JSON.parse(cursor) as [string, string]);
        rows = await sql.all(
          `SELECT ${query.select} FROM ${query.from}
           WHERE tenant_id = ? AND (${query.order} > ? OR (${query.order} = ? AND id > ?))
           ORDER BY ${query.order}, id LIMIT ?`,
          [tenantId, at, at, id, limit],
        );
      }
      const last = rows.at(-1);
      const next =
        rows.length < limit || !last
          ? null
          : query.order === 'seq'
            ? String(last['seq'] as number)
            : JSON.stringify([last[query.order], last['id']]);
      return { rows, next };
    },
    async dueErasures(now, limit) {
      const rows = await sql.all<{ id: string }>(
        `SELECT id FROM tenants WHERE erase_at IS NOT NULL AND erase_at <= ?
           AND NOT EXISTS (SELECT 1 FROM runs WHERE runs.tenant_id = tenants.id AND runs.status = 'running')
         ORDER BY erase_at, id LIMIT ?`,
        [now, limit],
      );
      return rows.map((row) => row.id);
    },
    async footprint(tenantId) {
      const counts: Record<string, number> = {};
      for (const table of await tenantTables()) {
        const row = await sql.get<{ n: number }>(
          `SELECT CAST(COUNT(*) AS integer) AS n FROM ${table} WHERE tenant_id = ?`,
          [tenantId],
        );
        counts[table] = Number(row?.n ?? 0);
      }
      const tenants = await sql.get<{ n: number }>(
        'SELECT CAST(COUNT(*) AS integer) AS n FROM tenants WHERE id = ?',
        [tenantId],
      );
      counts['tenants'] = Number(tenants?.n ?? 0);
      const parts = await sql.get<{ n: number }>(
        'SELECT CAST(COUNT(*) AS integer) AS n FROM upload_parts WHERE upload_id IN (SELECT id FROM uploads WHERE tenant_id = ?)',
        [tenantId],
      );
      counts['upload_parts'] = Number(parts?.n ?? 0);
      return counts;
    },
  };
}
