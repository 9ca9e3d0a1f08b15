import type { HeldKey } from '../held-key.js';
import type { EventDataJson, FileRow, PartRow, PendingLimits, UploadRepo, UploadRow } from '../types.js';
import type { Db } from './database.js';
import { outboxWriter } from './events.js';
import { judgePendingLimits, leaseIsFree, pendingTotalsQuery } from '../uploads-core.js';
import { effectRecorder } from './idempotency.js';

type FileRecord = Omit<FileRow, 'encrypted'> & { encrypted: number };

function toFile(row: FileRecord | undefined): FileRow | undefined {
  return row && { ...row, encrypted: row.encrypted === 1 };
}

export function sqliteUploads(db: Db): UploadRepo {
  const recordEffect = effectRecorder(db);
  const outbox = outboxWriter(db);
  const uploadColumns =
    'id, tenant_id, file_name, size_bytes, content_type, sha256, part_size, part_count, status, file_id, created_at, expires_at, multipart_id';
  const insert = db.prepare(
    `INSERT INTO uploads (${uploadColumns}) VALUES (@id, @tenant_id, @file_name, @size_bytes, @content_type, @sha256,
     @part_size, @part_count, @status, @file_id, @created_at, @expires_at, @multipart_id)`,
  );
  const get = db.prepare(`SELECT ${uploadColumns} FROM uploads WHERE id = ? AND tenant_id = ?`);
  const parts = db.prepare(
    'SELECT upload_id, part_number, size_bytes, sha256, received_at FROM upload_parts WHERE upload_id = ? ORDER BY part_number',
  );
  const upsertPart = db.prepare(
    `INSERT INTO upload_parts (upload_id, part_number, size_bytes, sha256, received_at)
     SELECT @upload_id, @part_number, @size_bytes, @sha256, @received_at
     WHERE EXISTS (SELECT 1 FROM uploads WHERE id = @upload_id AND status = 'pending')
     ON CONFLICT (upload_id, part_number) DO UPDATE SET
       size_bytes = excluded.size_bytes, sha256 = excluded.sha256, received_at = excluded.received_at`,
  );
  const fileColumns =
    'id, tenant_id, upload_id, file_name, size_bytes, sha256, page_count, pdf_version, encrypted, storage_key, created_at';
  const insertFile = db.prepare(
    `INSERT INTO files (${fileColumns}) VALUES (@id, @tenant_id, @upload_id, @file_name, @size_bytes, @sha256,
     @page_count, @pdf_version, @encrypted, @storage_key, @created_at)`,
  );
  const markCompleted = db.prepare(
    `UPDATE uploads SET status = 'completed', file_id = ? WHERE id = ? AND tenant_id = ? AND status = 'pending'`,
  );
  const deleteParts = db.prepare('DELETE FROM upload_parts WHERE upload_id = ?');
  const fileByUpload = db.prepare(`SELECT ${fileColumns} FROM files WHERE upload_id = ? AND tenant_id = ?`);
  const getFile = db.prepare(`SELECT ${fileColumns} FROM files WHERE id = ? AND tenant_id = ?`);
  const removePending = db.prepare(
    `DELETE FROM uploads WHERE id = ? AND tenant_id = ? AND status = 'pending'`,
  );
  const expired = db.prepare(
    `SELECT ${uploadColumns} FROM uploads WHERE status = 'pending' AND expires_at < ? ORDER BY expires_at LIMIT ?`,
  );

  const setMultipart = db.prepare(`UPDATE uploads SET multipart_id = ? WHERE id = ?`);
  const takeLease = db.prepare(
    `UPDATE uploads SET lease_holder = @holder, leased_until = @until
     WHERE id = @id AND ${leaseIsFree('@holder', '@now')}`,
  );
  const exists = db.prepare('SELECT 1 FROM uploads WHERE id = ?');
  const releaseLease = db.prepare(
    'UPDATE uploads SET lease_holder = NULL, leased_until = NULL WHERE id = ? AND lease_holder = ?',
  );

  const pendingTotals = db.prepare(pendingTotalsQuery('@tenant', '@now'));
  const create = db.transaction((upload: UploadRow, limits: PendingLimits, effect?: HeldKey) => {
    const totals = pendingTotals.get({ tenant: upload.tenant_id, now: limits.now }) as {
      count: number;
      bytes: number;
    };
    const refused = judgePendingLimits(totals, upload, limits);
    if (refused) return refused;
    insert.run(upload);
    recordEffect(effect, upload.id);
    return 'created' as const;
  });

  const complete = db.transaction((file: FileRow, event: EventDataJson) => {
    const won = markCompleted.run(file.id, file.upload_id, file.tenant_id).changes === 1;
    if (!won) {
      const existing = toFile(fileByUpload.get(file.upload_id, file.tenant_id) as FileRecord | undefined);
      if (!existing) throw new Error(`upload ${file.upload_id} is neither pending nor completed`);
      return { file: existing, created: false };
    }
    insertFile.run({ ...file, encrypted: file.encrypted ? 1 : 0 });
    deleteParts.run(file.upload_id);
    outbox.write(file.tenant_id, 'upload.completed', file.created_at, event);
    return { file, created: true };
  });

  const pendingCount = db
    .prepare(`SELECT COUNT(*) FROM uploads WHERE tenant_id = ? AND status = 'pending' AND expires_at >= ?`)
    .pluck();
  const pendingCursor = db.prepare(
    `SELECT expires_at AS expiresAt FROM uploads
     WHERE id = ? AND tenant_id = ? AND status = 'pending' AND expires_at >= ?`,
  );
  const pendingPage = db.prepare(
    `SELECT ${uploadColumns} FROM uploads
     WHERE tenant_id = @tenant AND status = 'pending' AND expires_at >= @now
       AND (expires_at > @afterExpiry OR (expires_at = @afterExpiry AND id > @afterId))
     ORDER BY expires_at, id LIMIT @limit OFFSET @offset`,
  );

  return {
    async listPending(tenantId, now, limit, offset, startingAfter) {
      let after = { expiresAt: '', id: '' };
      if (startingAfter !== undefined) {
        const cursor = pendingCursor.get(startingAfter, tenantId, now) as { expiresAt: string } | undefined;
        if (!cursor) return undefined;
        after = { expiresAt: cursor.expiresAt, id: startingAfter };
      }
      const read = db.transaction(() => {
        const rows = pendingPage.all({
          tenant: tenantId,
          now,
          afterExpiry: after.expiresAt,
          afterId: after.id,
          limit: limit + 1,
          offset,
        }) as UploadRow[];
        return { rows, total: pendingCount.get(tenantId, now) as number };
      });
      const { rows, total } = read();
      const items = rows.slice(0, limit);
      return { items, total, lastId: rows.length > limit ? items[items.length - 1]!.id : null };
    },
    async create(upload, limits, effect) {
      return create.immediate(upload, limits, effect);
    },
    async get(tenantId, uploadId) {
      return get.get(uploadId, tenantId) as UploadRow | undefined;
    },
    async parts(uploadId) {
      return parts.all(uploadId) as PartRow[];
    },
    async putPart(part) {
      return upsertPart.run(part).changes === 1;
    },
    async complete(file, event) {
      return complete.immediate(file, event);
    },
    async deletePending(tenantId, uploadId) {
      return removePending.run(uploadId, tenantId).changes === 1;
    },
    async expired(now, limit) {
      return expired.all(now, limit) as UploadRow[];
    },
    async getFile(tenantId, fileId) {
      return toFile(getFile.get(fileId, tenantId) as FileRecord | undefined);
    },
    async setMultipart(uploadId, multipartId) {
      setMultipart.run(multipartId, uploadId);
    },
    async lease(id, holder, until, now) {
      if (takeLease.run({ id, holder, until, now }).changes === 1) return 'held';
      return exists.get(id) ? 'busy' : 'gone';
    },
    async release(uploadId, holder) {
      releaseLease.run(uploadId, holder);
    },
  };
}
