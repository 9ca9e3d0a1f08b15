import type { FileRow, PartRow, PendingLimits, UploadChanges, UploadRepo, UploadRow } from '../types.js';
import { type SqlDialect, type SqlValue, TEXT } from './dialect.js';
import { ofUnitTenant, type WorkSession } from './unit-of-work.js';

const UPLOAD =
  'id, tenant_id, file_name, size_bytes, content_type, sha256, part_size, part_count, status, file_id, created_at, expires_at, multipart_id';
const FILE =
  'id, tenant_id, upload_id, file_name, size_bytes, sha256, page_count, pdf_version, encrypted, storage_key, created_at';

/** What a tenant's unexpired pending uploads count and reserve: the figures `judgePendingLimits` reads. */
const PENDING_TOTALS = `SELECT COUNT(*) AS count, COALESCE(SUM(size_bytes), 0) AS bytes FROM uploads
  WHERE tenant_id = ? AND status = 'pending' AND expires_at >= ?`;

/** Whether one more pending upload would pass the tenant's limits, and which. */
function judgePendingLimits(
  totals: { count: number; bytes: number },
  upload: Pick<UploadRow, 'size_bytes'>,
  limits: PendingLimits,
): 'too_many' | 'too_many_bytes' | undefined {
  if (totals.count + 1 > limits.count) return 'too_many';
  if (Number(totals.bytes) + upload.size_bytes > limits.bytes) return 'too_many_bytes';
  return undefined;
}

/** An upload's lease is free to its holder (the first `?`) when nobody holds it, it does, or it ran out by now. */
const LEASE_IS_FREE = '(lease_holder IS NULL OR lease_holder = ? OR leased_until <= ?)';

/** SQLite keeps a boolean as 0 or 1, PostgreSQL as a boolean (which takes 0 and 1 as input too). */
type FileRecord = Omit<FileRow, 'encrypted'> & { encrypted: boolean | number };

function toFile(row: FileRecord | undefined): FileRow | undefined {
  return row && { ...row, encrypted: Boolean(row.encrypted) };
}

/** What a unit of work changes of the tenant's uploads, in its transaction `tx`. */
export function sqlUploadChanges(sql: SqlDialect, tx: WorkSession, tenantId: string): UploadChanges {
  return {
    async create(upload, limits) {
      ofUnitTenant(upload, tenantId);
      // the tenant's creations take turns, so two at once cannot both pass the limits
      await sql.takeTurn(tx, `uploads:${tenantId}`);
      const totals = await tx.get<{ count: number; bytes: number }>(PENDING_TOTALS, [tenantId, limits.now]);
      const refused = judgePendingLimits(totals!, upload, limits);
      if (refused) return refused;
      const values: SqlValue[] = [
        upload.id,
        upload.tenant_id,
        upload.file_name,
        upload.size_bytes,
        upload.content_type,
        upload.sha256,
        upload.part_size,
        upload.part_count,
        upload.status,
        upload.file_id,
        upload.created_at,
        upload.expires_at,
        upload.multipart_id,
      ];
      await tx.run(`INSERT INTO uploads (${UPLOAD}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, values);
      return 'created';
    },
    async complete(file) {
      ofUnitTenant(file, tenantId);
      const won = await tx.run(
        `UPDATE uploads SET status = 'completed', file_id = ? WHERE id = ? AND tenant_id = ? AND status = 'pending'`,
        [file.id, file.upload_id, tenantId],
      );
      if (won === 0) {
        // the row lock of the UPDATE waited for a concurrent complete to commit: its file is there now
        const existing = toFile(
          await tx.get<FileRecord>(`SELECT ${FILE} FROM files WHERE upload_id = ? AND tenant_id = ?`, [
            file.upload_id,
            tenantId,
          ]),
        );
        if (!existing) throw new Error(`upload ${file.upload_id} is neither pending nor completed`);
        return { file: existing, created: false };
      }
      await tx.run(`INSERT INTO files (${FILE}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
        file.id,
        file.tenant_id,
        file.upload_id,
        file.file_name,
        file.size_bytes,
        file.sha256,
        file.page_count,
        file.pdf_version,
        file.encrypted ? 1 : 0,
        file.storage_key,
        file.created_at,
      ]);
      await tx.run('DELETE FROM upload_parts WHERE upload_id = ?', [file.upload_id]);
      return { file, created: true };
    },
  };
}

export function sqlUploads(sql: SqlDialect): UploadRepo {
  return {
    async listPending(tenantId, now, limit, offset, startingAfter) {
      let after = { expiresAt: '', id: '' };
      if (startingAfter !== undefined) {
        const cursor = await sql.get<{ expires_at: string }>(
          `SELECT expires_at FROM uploads WHERE id = ? AND tenant_id = ? AND status = 'pending' AND expires_at >= ?`,
          [startingAfter, tenantId, now],
        );
        if (!cursor) return undefined;
        after = { expiresAt: cursor.expires_at, id: startingAfter };
      }
      // the page and the count are one statement: one snapshot
      const rows = await sql.all<Partial<UploadRow> & { total: number }>(
        `WITH total AS (SELECT CAST(COUNT(*) AS bigint) AS total FROM uploads
                        WHERE tenant_id = ${TEXT} AND status = 'pending' AND expires_at >= ${TEXT}),
         page AS (SELECT ${UPLOAD} FROM uploads
                  WHERE tenant_id = ${TEXT} AND status = 'pending' AND expires_at >= ${TEXT}
                    AND (expires_at > ${TEXT} OR (expires_at = ${TEXT} AND id > ${TEXT}))
                  ORDER BY expires_at, id LIMIT ${sql.text.pageBound('?')} OFFSET ${sql.text.pageBound('?')})
         SELECT total.total, page.* FROM total LEFT JOIN page ON true ORDER BY page.expires_at, page.id`,
        [tenantId, now, tenantId, now, after.expiresAt, after.expiresAt, after.id, limit + 1, offset],
      );
      const found = rows.flatMap(({ total: _, ...row }) => (row.id == null ? [] : [row as UploadRow]));
      const items = found.slice(0, limit);
      return {
        items,
        total: rows[0]?.total ?? 0,
        lastId: found.length > limit ? items[items.length - 1]!.id : null,
      };
    },
    async get(tenantId, uploadId) {
      return sql.get<UploadRow>(`SELECT ${UPLOAD} FROM uploads WHERE id = ? AND tenant_id = ?`, [
        uploadId,
        tenantId,
      ]);
    },
    async parts(uploadId) {
      return sql.all<PartRow>(
        'SELECT upload_id, part_number, size_bytes, sha256, received_at FROM upload_parts WHERE upload_id = ? ORDER BY part_number',
        [uploadId],
      );
    },
    async putPart(part) {
      const written = await sql.run(
        `INSERT INTO upload_parts (upload_id, part_number, size_bytes, sha256, received_at)
         SELECT ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM uploads WHERE id = ? AND status = 'pending')
         ON CONFLICT (upload_id, part_number) DO UPDATE SET
           size_bytes = excluded.size_bytes, sha256 = excluded.sha256, received_at = excluded.received_at`,
        [part.upload_id, part.part_number, part.size_bytes, part.sha256, part.received_at, part.upload_id],
      );
      return written === 1;
    },
    async deletePending(tenantId, uploadId) {
      const deleted = await sql.run(
        `DELETE FROM uploads WHERE id = ? AND tenant_id = ? AND status = 'pending'`,
        [uploadId, tenantId],
      );
      return deleted === 1;
    },
    async expired(now, limit) {
      return sql.all<UploadRow>(
        `SELECT ${UPLOAD} FROM uploads WHERE status = 'pending' AND expires_at < ? ORDER BY expires_at LIMIT ?`,
        [now, limit],
      );
    },
    async getFile(tenantId, fileId) {
      return toFile(
        await sql.get<FileRecord>(`SELECT ${FILE} FROM files WHERE id = ? AND tenant_id = ?`, [
          fileId,
          tenantId,
        ]),
      );
    },
    async setMultipart(uploadId, multipartId) {
      await sql.run('UPDATE uploads SET multipart_id = ? WHERE id = ?', [multipartId, uploadId]);
    },
    async lease(id, holder, until, now) {
      const taken = await sql.run(
        `UPDATE uploads SET lease_holder = ?, leased_until = ? WHERE id = ? AND ${LEASE_IS_FREE}`,
        [holder, until, id, holder, now],
      );
      if (taken === 1) return 'held';
      return (await sql.get('SELECT 1 AS present FROM uploads WHERE id = ?', [id])) ? 'busy' : 'gone';
    },
    async release(uploadId, holder) {
      await sql.run(
        'UPDATE uploads SET lease_holder = NULL, leased_until = NULL WHERE id = ? AND lease_holder = ?',
        [uploadId, holder],
      );
    },
  };
}
