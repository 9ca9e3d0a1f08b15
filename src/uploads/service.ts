import type { HeldKey } from '../store/held-key.js';
import { randomUUID } from 'node:crypto';
import { pipeline, type Readable } from 'node:stream';
import {
  type AssembledBlob,
  BlobSizeError,
  type BlobStore,
  BlobTooLargeError,
  MultipartGoneError,
} from '../blobs/blob-store.js';
import type { Config } from '../kernel/config.js';
import type { Schemas } from '../contract/schemas.js';
import { ERRORS } from '../kernel/errors.js';
import type { Logger } from '../kernel/logger.js';
import { Signal } from '../kernel/signal.js';
import { type SweepPass, sweepInBatches } from '../store/sweep.js';
import type { FileRow, Store, UploadRow } from '../store/types.js';
import { jsonText } from '../records/json-text.js';
import type { Clock } from '../kernel/time.js';
import { fileKey, multipartOf } from './keys.js';
import { PartSlots } from './part-slots.js';
import { NOT_A_PDF_MESSAGE, PdfHeaderCheck } from './pdf-header.js';
import { type PdfProbe, type ProbedPdf, UnreadablePdfError } from './pdf-probe.js';
import { discardBytes, UploadSweep } from './sweep.js';
import { UploadLock } from './upload-lock.js';
import { completedView, fileView, isExpired, missingParts, uploadView, type UploadView } from './views.js';

export type { UploadView } from './views.js';

export type NewUpload = Schemas['CreateUploadRequest'];

/** What a 429 for too many pending uploads tells the caller to wait. */
const PENDING_RETRY_AFTER_SECONDS = 60;

export function expectedPartSize(upload: UploadRow, partNumber: number): number {
  return partNumber < upload.part_count
    ? upload.part_size
    : upload.size_bytes - (upload.part_count - 1) * upload.part_size;
}

/**
 * S3-style multipart upload of a PDF: start, send parts (each streamed to disk while hashed), complete
 * (verify, assemble atomically, open with the PDF library, then commit the file row).
 */
export class Uploads {
  /** A part was stored: its bytes. */
  readonly partStored = new Signal<number>();
  private readonly locks: UploadLock;
  private readonly partSlots: PartSlots;
  private readonly sweep: UploadSweep;

  constructor(
    private readonly store: Store,
    private readonly blobs: BlobStore,
    private readonly probe: PdfProbe,
    private readonly config: Config,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    this.partSlots = new PartSlots(config.maxConcurrentPartsPerTenant, config.maxConcurrentParts);
    this.locks = new UploadLock(store, clock, config.uploadLockWaitMs, config.uploadLeaseMs);
    this.sweep = new UploadSweep(store, blobs, clock, this.locks);
  }

  private isExpired(upload: UploadRow): boolean {
    return isExpired(upload, this.clock.now().toISOString());
  }

  private async view(upload: UploadRow): Promise<UploadView> {
    const parts = upload.status === 'pending' ? await this.store.uploads.parts(upload.id) : [];
    return uploadView(upload, parts, this.clock.now().toISOString());
  }

  private async pending(tenantId: string, uploadId: string): Promise<UploadRow> {
    const upload = await this.store.uploads.get(tenantId, uploadId);
    if (!upload) throw ERRORS.notFound('Upload');
    if (upload.status === 'completed') throw ERRORS.uploadCompleted('on_part');
    if (this.isExpired(upload)) throw ERRORS.uploadExpired(upload.expires_at);
    return upload;
  }

  async start(tenantId: string, request: NewUpload, effect?: HeldKey): Promise<UploadView> {
    if (request.size_bytes > this.config.maxUploadBytes) {
      throw ERRORS.uploadTooLarge(this.config.maxUploadBytes);
    }
    const now = this.clock.now();
    const id = randomUUID();
    const target = { tenant_id: tenantId, id };
    const multipartId = await this.blobs.multipart.start(fileKey(target));
    const upload: UploadRow = {
      id,
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
      multipart_id: multipartId,
    };
    const limits = {
      count: this.config.maxPendingUploadsPerTenant,
      bytes: this.config.maxPendingUploadBytesPerTenant,
      now: now.toISOString(),
    };
    const created = await this.store
      .transaction(
        tenantId,
        async (tx) => {
          const outcome = await tx.uploads.create(upload, limits);
          if (outcome === 'created') await tx.recordEffect(upload.id);
          return outcome;
        },
        effect,
      )
      .catch(async (error: unknown) => {
        await this.blobs.multipart.abort(multipartOf(upload)).catch(() => undefined);
        throw error;
      });
    if (created !== 'created') await this.blobs.multipart.abort(multipartOf(upload));
    if (created === 'too_many') {
      throw ERRORS.tooManyPendingUploads(this.config.maxPendingUploadsPerTenant, PENDING_RETRY_AFTER_SECONDS);
    }
    if (created === 'too_many_bytes') {
      throw ERRORS.pendingUploadBytesExceeded(
        this.config.maxPendingUploadBytesPerTenant,
        PENDING_RETRY_AFTER_SECONDS,
      );
    }
    return this.view(upload);
  }

  /** Part bodies this process is receiving now. */
  partsInFlight(): number {
    return this.partSlots.inFlight;
  }

  /** The tenant's pending uploads that have not expired, for a client that lost their ids. */
  async listPending(tenantId: string, limit: number, offset: number, startingAfter?: string) {
    const page = await this.store.uploads.listPending(
      tenantId,
      this.clock.now().toISOString(),
      limit,
      offset,
      startingAfter,
    );
    if (!page) throw ERRORS.notFound('Upload');
    return { ...page, items: await Promise.all(page.items.map((upload) => this.view(upload))) };
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
    if (partNumber > upload.part_count) throw ERRORS.partNumberTooHigh(upload.part_count);
    const expected = expectedPartSize(upload, partNumber);
    const tooLarge = () => ERRORS.partTooLong(partNumber, expected);
    const wrongSize = (got: number) => ERRORS.partSizeMismatch(partNumber, expected, got);
    if (declaredLength !== undefined && declaredLength > expected) throw tooLarge();
    if (declaredLength !== undefined && declaredLength < expected) throw wrongSize(declaredLength);

    // the part that holds the file's first bytes shows whether it can be a PDF at all
    const headerCheck =
      partNumber === 1 && PdfHeaderCheck.decides(expected, upload.part_count)
        ? new PdfHeaderCheck(expected)
        : undefined;

    // the blob store replaces a stored part only with a whole one of the right size
    const release = this.partSlots.acquire(tenantId);
    let stored;
    try {
      // piped only now: a body refused before this point is left unread (src/http/continue.ts); errors
      // travel both ways, a body cut off fails the write and a failed write stops reading the body
      const source = headerCheck ? pipeline(body, headerCheck, () => undefined) : body;
      stored = await this.blobs.multipart.putPart(multipartOf(upload), partNumber, source, expected);
    } catch (error) {
      if (headerCheck?.refused) throw ERRORS.invalidPdf(NOT_A_PDF_MESSAGE).because(error);
      if (error instanceof BlobTooLargeError) throw tooLarge();
      if (error instanceof BlobSizeError) throw wrongSize(error.got);
      if (error instanceof MultipartGoneError) throw this.goneWhileSent();
      throw error;
    } finally {
      release();
    }
    // the upload's lock: the part's record never changes while the upload is being completed or aborted
    return this.locks.run(uploadId, async () => {
      await this.pending(tenantId, uploadId);
      const recorded = await this.store.uploads.putPart({
        upload_id: upload.id,
        part_number: partNumber,
        size_bytes: stored.size,
        sha256: stored.sha256,
        received_at: this.clock.now().toISOString(),
      });
      if (!recorded) throw this.goneWhileSent();
      this.partStored.emit(stored.size);
      return {
        upload_id: upload.id,
        part_number: partNumber,
        size_bytes: stored.size,
        sha256: stored.sha256,
      };
    });
  }

  private goneWhileSent() {
    return ERRORS.uploadCompleted('while_part_sent');
  }

  async complete(tenantId: string, uploadId: string) {
    return this.locks.run(uploadId, async () => {
      const upload = await this.store.uploads.get(tenantId, uploadId);
      if (!upload) throw ERRORS.notFound('Upload');
      if (upload.status === 'completed') return completedView(upload, await this.existingFile(upload));
      if (this.isExpired(upload)) throw ERRORS.uploadExpired(upload.expires_at);

      const parts = await this.store.uploads.parts(upload.id);
      const missing = missingParts(upload, parts);
      if (missing.length > 0) throw ERRORS.uploadMissingParts(missing);
      const received = parts.reduce((sum, p) => sum + p.size_bytes, 0);
      if (received !== upload.size_bytes) throw ERRORS.sizeMismatch('parts', received, upload.size_bytes);

      const target = multipartOf(upload);
      const partSizes = parts.map((p) => p.size_bytes);
      try {
        return await this.blobs.multipart.complete(
          target,
          partSizes,
          (assembled) => this.admit(upload, target.key, assembled),
          (multipartId) => this.store.uploads.setMultipart(upload.id, multipartId),
        );
      } catch (error) {
        if (error instanceof MultipartGoneError) throw ERRORS.uploadPartsGone().because(error);
        if (error instanceof BlobSizeError)
          throw ERRORS.sizeMismatch('stored_part', error.got, error.expected).because(error);
        throw error;
      }
    });
  }

  /** Checks an assembled file and records it; throwing leaves the upload pending with its parts. */
  private async admit(upload: UploadRow, key: string, assembled: AssembledBlob) {
    if (assembled.size !== upload.size_bytes) {
      throw ERRORS.sizeMismatch('assembled', assembled.size, upload.size_bytes);
    }
    if (upload.sha256 && assembled.sha256 !== upload.sha256) {
      throw ERRORS.checksumMismatch(assembled.sha256, upload.sha256);
    }
    const facts = await this.probePdf(assembled.path, upload.tenant_id);
    if (facts.pageCount !== null && facts.pageCount > this.config.maxPages) {
      throw ERRORS.tooManyPages(facts.pageCount, this.config.maxPages);
    }
    const file: FileRow = {
      id: randomUUID(),
      tenant_id: upload.tenant_id,
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
    // The row is committed only now that the bytes are durable. Had another complete won the race, its
    // file is the same key with the same bytes.
    // upload.completed carries the upload as GET answers it once completed
    const completed = await this.view({ ...upload, status: 'completed', file_id: file.id });
    const result = await this.store.transaction(upload.tenant_id, async (tx) => {
      const outcome = await tx.uploads.complete(file);
      if (outcome.created) await tx.emit('upload.completed', file.created_at, jsonText(completed));
      return outcome;
    });
    return completedView(upload, result.file);
  }

  private async probePdf(path: string, tenantId: string): Promise<ProbedPdf> {
    try {
      return await this.probe(path, tenantId);
    } catch (error) {
      if (error instanceof UnreadablePdfError) throw ERRORS.invalidPdf(error.message).because(error);
      throw error;
    }
  }

  private async existingFile(upload: UploadRow): Promise<FileRow> {
    const file = upload.file_id && (await this.store.uploads.getFile(upload.tenant_id, upload.file_id));
    if (!file) throw new Error(`completed upload ${upload.id} has no file`);
    return file;
  }

  async abort(tenantId: string, uploadId: string) {
    // under the upload's lock, and the delete is conditional: an upload being completed is never aborted
    await this.locks.run(uploadId, async () => {
      const upload = await this.store.uploads.get(tenantId, uploadId);
      if (!upload) throw ERRORS.notFound('Upload');
      if (upload.status === 'completed') throw ERRORS.uploadCompleted('on_abort');
      if (!(await this.store.uploads.deletePending(tenantId, uploadId)))
        throw ERRORS.uploadCompleted('on_abort');
      // the upload is aborted once its row is gone; bytes a racing part write put back, or a failure here
      // left, are the leftover sweep's (no row refers to them)
      await discardBytes(this.blobs, upload).catch((error: unknown) => {
        this.logger.warn({ err: error, upload_id: uploadId }, 'an aborted upload kept some bytes');
      });
    });
    return { upload_id: uploadId, status: 'aborted' as const };
  }

  /** Deletes pending uploads past their expiry, bytes first, within the pass's budget; returns how many. */
  sweepExpired(pass: SweepPass): Promise<number> {
    return sweepInBatches((limit) => this.sweep.expired(limit), pass);
  }

  /** Removes what a crash left behind and no row refers to, older than `minAgeMs` (see UploadSweep). */
  sweepLeftovers(minAgeMs: number): Promise<number> {
    return this.sweep.leftovers(minAgeMs);
  }

  async getFile(tenantId: string, fileId: string): Promise<Schemas['StoredFile']> {
    const file = await this.store.uploads.getFile(tenantId, fileId);
    if (!file) throw ERRORS.notFound('File');
    return fileView(file);
  }
}
