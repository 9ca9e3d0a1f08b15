import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Readable } from 'node:stream';
import type { Config } from '../config.js';
import type { Schemas } from '../contract.js';
import { ERRORS } from '../errors.js';
import type { Logger } from '../logger.js';
import type { FileRow, PartRow, Store, UploadRow } from '../store/types.js';
import type { Clock } from '../time.js';
import type { ProbeFacts } from '../pdf/facts.js';
import { TaskFailure } from '../pdf/pool.js';
import { type BlobStore, BlobTooLargeError, type StagedBlob, TEMP_PREFIX } from '../blobs/blob-store.js';
import { KeyedLock } from './keyed-lock.js';
import { PartSlots } from './part-slots.js';

export type UploadView = Schemas['Upload'];

export type NewUpload = Schemas['CreateUploadRequest'];

/** Opens a stored file with the diagnosis's PDF library, off the event loop. */
export type PdfProbe = (path: string, tenantId: string) => Promise<ProbeFacts>;

/** What a 429 for too many pending uploads tells the caller to wait. */
const PENDING_RETRY_AFTER_SECONDS = 60;

const partKey = (upload: UploadRow, part: number) =>
  `uploads/${upload.tenant_id}/${upload.id}/part-${String(part).padStart(6, '0')}`;
const uploadPrefix = (upload: UploadRow) => `uploads/${upload.tenant_id}/${upload.id}`;
const fileKey = (tenantId: string, fileId: string) => `files/${tenantId}/${fileId}.pdf`;

export function expectedPartSize(upload: UploadRow, partNumber: number): number {
  return partNumber < upload.part_count
    ? upload.part_size
    : upload.size_bytes - (upload.part_count - 1) * upload.part_size;
}

export function missingParts(upload: UploadRow, parts: PartRow[]): number[] {
  const have = new Set(parts.map((p) => p.part_number));
  const missing: number[] = [];
  for (let n = 1; n <= upload.part_count; n++) if (!have.has(n)) missing.push(n);
  return missing;
}

/**
 * S3-style multipart upload of a PDF: start, send parts (each streamed to disk while hashed), complete
 * (verify, assemble atomically, open with the PDF library, then commit the file row).
 */
export class Uploads {
  /** Emits 'part' with its bytes each time a part is stored. */
  readonly events = new EventEmitter();
  private readonly locks = new KeyedLock();
  private readonly partSlots: PartSlots;

  constructor(
    private readonly store: Store,
    private readonly blobs: BlobStore,
    private readonly probe: PdfProbe,
    private readonly config: Config,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    this.partSlots = new PartSlots(config.maxConcurrentPartsPerTenant, config.maxConcurrentParts);
  }

  private isExpired(upload: UploadRow): boolean {
    return upload.status === 'pending' && upload.expires_at <= this.clock.now().toISOString();
  }

  private async view(upload: UploadRow): Promise<UploadView> {
    const parts = upload.status === 'pending' ? await this.store.uploads.parts(upload.id) : [];
    const { id, tenant_id: _tenant, status, ...rest } = upload;
    return {
      upload_id: id,
      ...rest,
      status: this.isExpired(upload) ? 'expired' : status,
      parts: parts.map(({ upload_id: _u, ...part }) => part),
      missing_parts: upload.status === 'pending' ? missingParts(upload, parts) : [],
    };
  }

  private async pending(tenantId: string, uploadId: string): Promise<UploadRow> {
    const upload = await this.store.uploads.get(tenantId, uploadId);
    if (!upload) throw ERRORS.notFound('Upload');
    if (upload.status === 'completed')
      throw ERRORS.conflict('upload_completed', 'Upload is already completed');
    if (this.isExpired(upload))
      throw ERRORS.conflict('upload_expired', `Upload expired at ${upload.expires_at}`);
    return upload;
  }

  async start(tenantId: string, request: NewUpload): Promise<UploadView> {
    if (request.size_bytes > this.config.maxUploadBytes) {
      throw ERRORS.payloadTooLarge(`size_bytes is over the maximum of ${this.config.maxUploadBytes} bytes`);
    }
    const now = this.clock.now();
    const upload: UploadRow = {
      id: randomUUID(),
      tenant_id: tenantId,
      file_name: request.file_name,
      size_bytes: request.size_bytes,
      content_type: request.content_type ?? 'application/pdf',
      sha256: request.sha256 ?? null,
      part_size: this.config.uploadPartSize,
      part_count: Math.ceil(request.size_bytes / this.config.uploadPartSize),
      status: 'pending',
      file_id: null,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + this.config.uploadTtlMs).toISOString(),
    };
    const created = await this.store.uploads.create(upload, {
      count: this.config.maxPendingUploadsPerTenant,
      bytes: this.config.maxPendingUploadBytesPerTenant,
      now: now.toISOString(),
    });
    if (created === 'too_many') {
      throw ERRORS.tooManyRequests(
        'too_many_pending_uploads',
        `The tenant already has ${this.config.maxPendingUploadsPerTenant} pending uploads; complete or abort some first`,
        PENDING_RETRY_AFTER_SECONDS,
      );
    }
    if (created === 'too_many_bytes') {
      throw ERRORS.tooManyRequests(
        'pending_upload_bytes_exceeded',
        `Pending uploads may declare ${this.config.maxPendingUploadBytesPerTenant} bytes in all; this one would pass it. Complete or abort some first`,
        PENDING_RETRY_AFTER_SECONDS,
      );
    }
    return this.view(upload);
  }

  /** Part bodies this process is receiving now. */
  partsInFlight(): number {
    return this.partSlots.inFlight;
  }

  async get(tenantId: string, uploadId: string): Promise<UploadView> {
    const upload = await this.store.uploads.get(tenantId, uploadId);
    if (!upload) throw ERRORS.notFound('Upload');
    return this.view(upload);
  }

  /**
   * Streams one part to disk. `declaredLength` is the request's Content-Length when it sent one: a body
   * that cannot be the right size is refused before a byte is read.
   */
  async putPart(
    tenantId: string,
    uploadId: string,
    partNumber: number,
    body: Readable,
    declaredLength?: number,
  ) {
    const upload = await this.pending(tenantId, uploadId);
    if (partNumber > upload.part_count) {
      throw ERRORS.validation([
        {
          loc: ['path', 'part_number'],
          msg: `Input should be less than or equal to ${upload.part_count}`,
          type: 'less_than_equal',
        },
      ]);
    }
    const expected = expectedPartSize(upload, partNumber);
    const tooLarge = () =>
      ERRORS.payloadTooLarge(`Part ${partNumber} must be exactly ${expected} bytes; the body is longer`);
    const wrongSize = (got: number) =>
      ERRORS.unprocessable(
        'part_size_mismatch',
        `Part ${partNumber} must be exactly ${expected} bytes, got ${got}`,
      );
    if (declaredLength !== undefined && declaredLength > expected) throw tooLarge();
    if (declaredLength !== undefined && declaredLength < expected) throw wrongSize(declaredLength);

    // the body goes aside first: only a whole part of the right size replaces what was stored
    const key = partKey(upload, partNumber);
    const release = this.partSlots.acquire(tenantId);
    let staged: StagedBlob;
    try {
      staged = await this.blobs.stage(key, body, expected);
    } catch (error) {
      if (error instanceof BlobTooLargeError) throw tooLarge();
      throw error;
    } finally {
      release();
    }
    let committed = false;
    try {
      if (staged.size !== expected) throw wrongSize(staged.size);
      // the upload's lock: a part never lands while the same upload is being completed or aborted
      return await this.locks.run(uploadId, async () => {
        await this.pending(tenantId, uploadId);
        await staged.commit();
        committed = true;
        const stored = await this.store.uploads.putPart({
          upload_id: upload.id,
          part_number: partNumber,
          size_bytes: staged.size,
          sha256: staged.sha256,
          received_at: this.clock.now().toISOString(),
        });
        if (!stored)
          throw ERRORS.conflict('upload_completed', 'Upload was completed while the part was sent');
        this.events.emit('part', staged.size);
        return {
          upload_id: upload.id,
          part_number: partNumber,
          size_bytes: staged.size,
          sha256: staged.sha256,
        };
      });
    } finally {
      if (!committed) await staged.discard();
    }
  }

  async complete(tenantId: string, uploadId: string) {
    return this.locks.run(uploadId, async () => {
      const upload = await this.store.uploads.get(tenantId, uploadId);
      if (!upload) throw ERRORS.notFound('Upload');
      if (upload.status === 'completed') return this.completedView(upload, await this.existingFile(upload));
      if (this.isExpired(upload))
        throw ERRORS.conflict('upload_expired', `Upload expired at ${upload.expires_at}`);

      const parts = await this.store.uploads.parts(upload.id);
      const missing = missingParts(upload, parts);
      if (missing.length > 0) {
        throw ERRORS.conflict('upload_incomplete', `Upload is missing parts: ${missing.join(', ')}`);
      }
      const received = parts.reduce((sum, p) => sum + p.size_bytes, 0);
      if (received !== upload.size_bytes) {
        throw ERRORS.conflict(
          'size_mismatch',
          `Parts add up to ${received} bytes, the upload declared ${upload.size_bytes}`,
        );
      }

      const fileId = randomUUID();
      const key = fileKey(tenantId, fileId);
      const assembled = await this.blobs.concat(
        key,
        parts.map((p) => partKey(upload, p.part_number)),
      );
      let committed = false;
      try {
        if (assembled.size !== upload.size_bytes) {
          throw ERRORS.conflict(
            'size_mismatch',
            `Parts hold ${assembled.size} bytes, the upload declared ${upload.size_bytes}`,
          );
        }
        if (upload.sha256 && assembled.sha256 !== upload.sha256) {
          throw ERRORS.unprocessable(
            'checksum_mismatch',
            `SHA-256 of the file is ${assembled.sha256}, the upload declared ${upload.sha256}`,
          );
        }
        const facts = await this.probePdf(this.blobs.localPath(key), tenantId);
        if (facts.pageCount !== null && facts.pageCount > this.config.maxPages) {
          throw ERRORS.unprocessable(
            'too_many_pages',
            `The PDF has ${facts.pageCount} pages; at most ${this.config.maxPages} are accepted`,
          );
        }
        const file: FileRow = {
          id: fileId,
          tenant_id: tenantId,
          upload_id: upload.id,
          file_name: upload.file_name,
          size_bytes: assembled.size,
          sha256: assembled.sha256,
          page_count: facts.pageCount,
          pdf_version: facts.pdfVersion,
          encrypted: facts.encrypted,
          storage_key: key,
          created_at: this.clock.now().toISOString(),
        };
        // The row is committed only now that the bytes are durable; another server may have won the race.
        const result = await this.store.uploads.complete(file);
        committed = result.created;
        if (committed) {
          await this.blobs.deletePrefix(uploadPrefix(upload)).catch((error: unknown) => {
            this.logger.warn(
              { err: error, upload_id: upload.id },
              'could not delete parts of a completed upload',
            );
          });
        }
        return this.completedView(upload, result.file);
      } finally {
        if (!committed) await this.blobs.delete(key);
      }
    });
  }

  private async probePdf(path: string, tenantId: string): Promise<ProbeFacts> {
    try {
      return await this.probe(path, tenantId);
    } catch (error) {
      if (error instanceof TaskFailure) {
        throw ERRORS.unprocessable(
          'invalid_pdf',
          error.kind === 'invalid_pdf' ? error.message : `The PDF could not be opened: ${error.message}`,
        );
      }
      throw error;
    }
  }

  private async existingFile(upload: UploadRow): Promise<FileRow> {
    const file = upload.file_id && (await this.store.uploads.getFile(upload.tenant_id, upload.file_id));
    if (!file) throw new Error(`completed upload ${upload.id} has no file`);
    return file;
  }

  private completedView(upload: UploadRow, file: FileRow): Schemas['CompletedUpload'] {
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

  async abort(tenantId: string, uploadId: string) {
    // under the upload's lock, and the delete is conditional: an upload being completed is never aborted
    await this.locks.run(uploadId, async () => {
      const upload = await this.store.uploads.get(tenantId, uploadId);
      if (!upload) throw ERRORS.notFound('Upload');
      if (upload.status === 'completed')
        throw ERRORS.conflict('upload_completed', 'A completed upload cannot be aborted');
      if (!(await this.store.uploads.deletePending(tenantId, uploadId)))
        throw ERRORS.conflict('upload_completed', 'A completed upload cannot be aborted');
      await this.blobs.deletePrefix(uploadPrefix(upload));
    });
    return { upload_id: uploadId, status: 'aborted' as const };
  }

  /**
   * Removes what a crash (kill -9, power loss) left behind and no row refers to: temporary files, an
   * assembled file whose row was never committed, the parts of an upload whose row is gone. Only things
   * older than `minAgeMs` go, so a write in progress in another process is never touched.
   */
  async sweepLeftovers(minAgeMs: number): Promise<number> {
    const before = this.clock.now().getTime() - minAgeMs;
    let removed = 0;
    for (const prefix of ['uploads', 'files']) {
      for await (const blob of this.blobs.list(prefix)) {
        if (blob.modifiedAt > before) continue;
        if (await this.isLeftover(blob.key)) {
          await this.blobs.delete(blob.key);
          removed++;
        }
      }
    }
    return removed;
  }

  private async isLeftover(key: string): Promise<boolean> {
    const name = key.slice(key.lastIndexOf('/') + 1);
    if (name.startsWith(TEMP_PREFIX)) return true;
    const [kind, tenantId, id] = key.split('/');
    if (!tenantId || !id) return false;
    if (kind === 'files') {
      return !(await this.store.uploads.getFile(tenantId, id.replace(/\.pdf$/, '')));
    }
    const upload = await this.store.uploads.get(tenantId, id);
    return !upload || upload.status !== 'pending';
  }

  /** Deletes pending uploads past their expiry, bytes first; returns how many went. */
  async sweepExpired(batch = 100): Promise<number> {
    const expired = await this.store.uploads.expired(this.clock.now().toISOString(), batch);
    for (const upload of expired) {
      await this.locks.run(upload.id, async () => {
        if (await this.store.uploads.deletePending(upload.tenant_id, upload.id))
          await this.blobs.deletePrefix(uploadPrefix(upload));
      });
    }
    return expired.length;
  }

  async getFile(tenantId: string, fileId: string): Promise<Schemas['StoredFile']> {
    const file = await this.store.uploads.getFile(tenantId, fileId);
    if (!file) throw ERRORS.notFound('File');
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
}
