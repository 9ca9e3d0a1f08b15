import type { Schemas } from '../contract/schemas.js';
import type { FileRow, PartRow, UploadRow } from '../store/types.js';

export type UploadView = Schemas['Upload'];

/** The parts an upload still needs, by number. */
export function missingParts(upload: UploadRow, parts: PartRow[]): number[] {
  const have = new Set(parts.map((p) => p.part_number));
  const missing: number[] = [];
  for (let n = 1; n <= upload.part_count; n++) if (!have.has(n)) missing.push(n);
  return missing;
}

/** A pending upload has expired once `now` reaches its expiry. */
export function isExpired(upload: UploadRow, now: string): boolean {
  return upload.status === 'pending' && upload.expires_at <= now;
}

/** The contract's Upload: the row with its parts, and `expired` once past its expiry. */
export function uploadView(upload: UploadRow, parts: PartRow[], now: string): UploadView {
  const { id, tenant_id: _tenant, multipart_id: _multipart, status, ...rest } = upload;
  return {
    upload_id: id,
    ...rest,
    status: isExpired(upload, now) ? 'expired' : status,
    parts: parts.map(({ upload_id: _u, ...part }) => part),
    missing_parts: upload.status === 'pending' ? missingParts(upload, parts) : [],
  };
}

/** The contract's CompletedUpload: what `complete` answers, the first time and every time after. */
export function completedView(upload: UploadRow, file: FileRow): Schemas['CompletedUpload'] {
  return {
    upload_id: upload.id,
    file_id: file.id,
    status: 'completed',
    file_name: file.file_name,
    size_bytes: file.size_bytes,
    sha256: file.sha256,
    page_count: file.page_count,
    created_at: file.created_at,
  };
}

/** The contract's StoredFile. */
export function fileView(file: FileRow): Schemas['StoredFile'] {
  return {
    file_id: file.id,
    upload_id: file.upload_id,
    file_name: file.file_name,
    size_bytes: file.size_bytes,
    sha256: file.sha256,
    page_count: file.page_count,
    pdf_version: file.pdf_version,
    encrypted: file.encrypted,
    created_at: file.created_at,
  };
}
