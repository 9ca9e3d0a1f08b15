import type { FileRow, PartRow, UploadRepo, UploadRow } from '../types.js';
import type { Postgres } from './database.js';
import { outbox } from './events.js';
import { judgePendingLimits, leaseIsFree, pendingTotalsQuery } from '../uploads-core.js';
import { recordEffect } from './idempotency.js';

const UPLOAD =
  'id, tenant_id, file_name, size_bytes, content_type, sha256, part_size, part_count, status, file_id, created_at, expires_at, multipart_id';
const FILE =
  'id, tenant_id, upload_id, file_name, size_bytes, sha256, page_count, pdf_version, encrypted, storage_key, created_at';

export function postgresUploads(db: Postgres, eventsWritten: () => Promise<void>): UploadRepo {
  return {
    async listPending(tenantId, now, limit, offset, startingAfter) {
      return db.transaction(async (tx) => {
        let after = { expiresAt: '', id: '' };
        if (startingAfter !== undefined) {
          const {
            rows: [cursor],
          } = await tx.query<{ expires_at: string }>(
            `SELECT expires_at FROM uploads WHERE id = $1 AND tenant_id = $2 AND status = 'pending' AND expires_at >= $3`,
            [startingAfter, tenantId, now],
          );
          if (!cursor) return undefined;
          after = { expiresAt: cursor.expires_at, id: startingAfter };
        }
        const { rows } = await tx.query<UploadRow>(
          `SELECT ${UPLOAD} FROM uploads
           WHERE tenant_id = $1 AND status = 'pending' AND expires_at >= $2
             AND (expires_at > $3 OR (expires_at = $3 AND id > $4))
           ORDER BY expires_at, id LIMIT $5 OFFSET $6`,
          [tenantId, now, after.expiresAt, after.id, limit + 1, offset],
        );
        const {
          rows: [count],
        } = await tx.query<{ n: number }>(
          `SELECT COUNT(*) AS n FROM uploads WHERE tenant_id = $1 AND status = 'pending' AND expires_at >= $2`,
          [tenantId, now],
        );
        const items = rows.slice(0, limit);
        return { items, total: count!.n, lastId: rows.length > limit ? items[items.length - 1]!.id : null };
      }, 'REPEATABLE READ');
    },
    async create(upload, limits, effect) {
      return db.transaction(async (tx) => {
        // the tenant's creations take turns, so two at once cannot both pass the limits
        await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 1))', [
          `uploads:${upload.tenant_id}`,
        ]);
        const {
          rows: [totals],
        } = await tx.query<{ count: number; bytes: number }>(pendingTotalsQuery('$1', '$2'), [
          upload.tenant_id,
          limits.now,
        ]);
        const refused = judgePendingLimits(totals!, upload, limits);
        if (refused) return refused;
        await tx.query(
          `INSERT INTO uploads (${UPLOAD}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
          [
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
          ],
        );
        await recordEffect(tx, effect, upload.id);
        return 'created' as const;
      });
    },
    async get(tenantId, uploadId) {
      const [row] = await db.query<UploadRow>(
        `SELECT ${UPLOAD} FROM uploads WHERE id = $1 AND tenant_id = $2`,
        [uploadId, tenantId],
        'upload.get',
      );
      return row;
    },
    async parts(uploadId) {
      return db.query<PartRow>(
        'SELECT upload_id, part_number, size_bytes, sha256, received_at FROM upload_parts WHERE upload_id = $1 ORDER BY part_number',
        [uploadId],
      );
    },
    async putPart(part) {
      const rows = await db.query(
        `INSERT INTO upload_parts (upload_id, part_number, size_bytes, sha256, received_at)
         SELECT $1, $2, $3, $4, $5 WHERE EXISTS (SELECT 1 FROM uploads WHERE id = $1 AND status = 'pending')
         ON CONFLICT (upload_id, part_number) DO UPDATE SET
           size_bytes = excluded.size_bytes, sha256 = excluded.sha256, received_at = excluded.received_at
         RETURNING part_number`,
        [part.upload_id, part.part_number, part.size_bytes, part.sha256, part.received_at],
      );
      return rows.length === 1;
    },
    async complete(file, event) {
      const result = await db.transaction(async (tx) => {
        const won = await tx.query(
          `UPDATE uploads SET status = 'completed', file_id = $1 WHERE id = $2 AND tenant_id = $3 AND status = 'pending'
           RETURNING id`,
          [file.id, file.upload_id, file.tenant_id],
        );
        if (won.rows.length === 0) {
          // the row lock of the UPDATE waited for a concurrent complete to commit: its file is there now
          const {
            rows: [existing],
          } = await tx.query<FileRow>(`SELECT ${FILE} FROM files WHERE upload_id = $1 AND tenant_id = $2`, [
            file.upload_id,
            file.tenant_id,
          ]);
          if (!existing) throw new Error(`upload ${file.upload_id} is neither pending nor completed`);
          return { file: existing, created: false };
        }
        await tx.query(`INSERT INTO files (${FILE}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`, [
          file.id,
          file.tenant_id,
          file.upload_id,
          file.file_name,
          file.size_bytes,
          file.sha256,
          file.page_count,
          file.pdf_version,
          file.encrypted,
          file.storage_key,
          file.created_at,
        ]);
        await tx.query('DELETE FROM upload_parts WHERE upload_id = $1', [file.upload_id]);
        await outbox.write(tx, file.tenant_id, 'upload.completed', file.created_at, event);
        return { file, created: true };
      });
      if (result.created) await eventsWritten();
      return result;
    },
    async deletePending(tenantId, uploadId) {
      const rows = await db.query(
        `DELETE FROM uploads WHERE id = $1 AND tenant_id = $2 AND status = 'pending' RETURNING id`,
        [uploadId, tenantId],
      );
      return rows.length === 1;
    },
    async expired(now, limit) {
      return db.query<UploadRow>(
        `SELECT ${UPLOAD} FROM uploads WHERE status = 'pending' AND expires_at < $1 ORDER BY expires_at LIMIT $2`,
        [now, limit],
      );
    },
    async getFile(tenantId, fileId) {
      const [row] = await db.query<FileRow>(
        `SELECT ${FILE} FROM files WHERE id = $1 AND tenant_id = $2`,
        [fileId, tenantId],
        'file.get',
      );
      return row;
    },
    async setMultipart(uploadId, multipartId) {
      await db.query('UPDATE uploads SET multipart_id = $1 WHERE id = $2', [multipartId, uploadId]);
    },
    async lease(id, holder, until, now) {
      const [row] = await db.query<{ held: boolean; present: boolean }>(
        `WITH taken AS (
           UPDATE uploads SET lease_holder = $2, leased_until = $3
           WHERE id = $1 AND ${leaseIsFree('$2', '$4')} RETURNING 1
         )
         SELECT EXISTS (SELECT 1 FROM taken) AS held, EXISTS (SELECT 1 FROM uploads WHERE id = $1) AS present`,
        [id, holder, until, now],
        'upload.lease',
      );
      const { held, present } = row!;
      return held ? 'held' : present ? 'busy' : 'gone';
    },
    async release(uploadId, holder) {
      await db.query(
        'UPDATE uploads SET lease_holder = NULL, leased_until = NULL WHERE id = $1 AND lease_holder = $2',
        [uploadId, holder],
      );
    },
  };
}
