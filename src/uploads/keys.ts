import type { MultipartTarget } from '../blobs/blob-store.js';
import type { UploadRow } from '../store/types.js';

/** The file an upload becomes: its multipart upload is on this key from the start. */
export const fileKey = (upload: Pick<UploadRow, 'tenant_id' | 'id'>) =>
  `files/${upload.tenant_id}/${upload.id}.pdf`;

/** The blob store's multipart upload behind a pending upload. */
export function multipartOf(upload: UploadRow): MultipartTarget {
  return { key: fileKey(upload), id: upload.multipart_id };
}

/** The upload a key under `files/` or `uploads/` belongs to, as its tenant and id. */
export function ownerOfKey(key: string): { kind: string; tenantId: string; uploadId: string } | undefined {
  const [kind, tenantId, name] = key.split('/');
  if (!kind || !tenantId || !name) return undefined;
  // a file is named after its upload (before: after the file's own id)
  return { kind, tenantId, uploadId: name.replace(/\.pdf$/, '') };
}
