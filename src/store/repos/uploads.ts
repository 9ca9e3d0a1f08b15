import type { Page } from './runs.js';

/** Uploads in parts, and the files they become. Part of the storage layer's contract (../types.ts). */

export interface UploadRow {
  id: string;
  tenant_id: string;
  file_name: string;
  size_bytes: number;
  content_type: string;
  sha256: string | null;
  part_size: number;
  part_count: number;
  status: 'pending' | 'completed';
  file_id: string | null;
  created_at: string;
  expires_at: string;
  /** The blob store's id of the multipart upload behind it. */
  multipart_id: string;
}

export interface PartRow {
  upload_id: string;
  part_number: number;
  size_bytes: number;
  sha256: string;
  received_at: string;
}

export interface FileRow {
  id: string;
  tenant_id: string;
  upload_id: string;
  file_name: string;
  size_bytes: number;
  sha256: string;
  page_count: number | null;
  pdf_version: string | null;
  encrypted: boolean;
  storage_key: string;
  created_at: string;
}

export interface PendingLimits {
  count: number;
  bytes: number;
  /** Uploads that expired before this no longer count. */
  now: string;
}

/** What a unit of work (./unit-of-work.ts) changes of a tenant's uploads, inside its transaction. */
export interface UploadChanges {
  /**
   * Inserts a pending upload unless the tenant's unexpired pending uploads would then number more than
   * `limits.count` or reserve more than `limits.bytes` (declared sizes): the tenant's creations take turns.
   */
  create(upload: UploadRow, limits: PendingLimits): Promise<'created' | 'too_many' | 'too_many_bytes'>;
  /**
   * Marks the upload completed with its file, once: `created` false and the file that won when another
   * completion did (it waited for that one's commit).
   */
  complete(file: FileRow): Promise<{ file: FileRow; created: boolean }>;
}

export interface UploadRepo {
  get(tenantId: string, uploadId: string): Promise<UploadRow | undefined>;
  parts(uploadId: string): Promise<PartRow[]>;
  /** Inserts or replaces a part of a pending upload; false when the upload is no longer pending. */
  putPart(part: PartRow): Promise<boolean>;
  /** Deletes the upload and its part rows if it is still pending; false when it is not (or is gone). */
  deletePending(tenantId: string, uploadId: string): Promise<boolean>;
  /**
   * The tenant's unexpired pending uploads, the soonest to expire first (then by id), `offset` and `limit`
   * applied after `startingAfter` (an upload id of the tenant's pending uploads; undefined when it is not
   * one). `total` counts them all; `lastId` is the page's last upload when more follow it.
   */
  listPending(
    tenantId: string,
    now: string,
    limit: number,
    offset: number,
    startingAfter?: string,
  ): Promise<(Page<UploadRow> & { lastId: string | null }) | undefined>;
  /** Pending uploads whose expiry is before `now`, oldest first. */
  expired(now: string, limit: number): Promise<UploadRow[]>;
  getFile(tenantId: string, fileId: string): Promise<FileRow | undefined>;
  /** Records that the blob store's multipart upload behind a pending upload changed. */
  setMultipart(uploadId: string, multipartId: string): Promise<void>;
  /**
   * Takes or renews the upload's lease for `holder` until `until`, shared by every process on the database:
   * 'held' when it is now `holder`'s, 'busy' while another holder's lease runs, 'gone' when there is no
   * such upload.
   */
  lease(uploadId: string, holder: string, until: string, now: string): Promise<'held' | 'busy' | 'gone'>;
  /** Gives the lease back, if `holder` still has it. */
  release(uploadId: string, holder: string): Promise<void>;
}
