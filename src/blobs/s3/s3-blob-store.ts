import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  type Part,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
  UploadPartCopyCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import {
  type AssembledBlob,
  type BlobInfo,
  BlobMissingError,
  BlobSizeError,
  type BlobStore,
  BlobTooLargeError,
  BlobUnavailableError,
  MultipartGoneError,
  type MultipartStore,
  type MultipartTarget,
  type OpenedBlob,
} from '../blob-store.js';
import { S3_MIN_PART_SIZE } from '../../kernel/config.js';
import { HashingLimit } from '../hashing-limit.js';

export interface S3Settings {
  bucket: string;
  /** Unset: AWS. */
  endpoint?: string;
  region: string;
  forcePathStyle: boolean;
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

const isSizeVerdict = (error: unknown) =>
  error instanceof BlobTooLargeError || error instanceof BlobSizeError;

const isNoSuchUpload = (error: unknown) =>
  error instanceof S3ServiceException && error.name === 'NoSuchUpload';

const QUIET = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

/** An S3 client set up to work with S3-compatible servers too (Swift's s3api, MinIO, ...). */
export function createS3Client(settings: Omit<S3Settings, 'bucket'>): S3Client {
  return new S3Client({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    forcePathStyle: settings.forcePathStyle,
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
    // without a logger of its own the SDK writes to the console when a streamed part is aborted, which
    // is a refusal this store reports to its caller already
    logger: QUIET,
    // a server that accepts and then says nothing must not hold a request for ever
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
    // servers other than AWS refuse the SDK's default aws-chunked trailing checksums
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** Errors that say the object store cannot answer now, rather than that the request was wrong. */
function unavailable(error: unknown): boolean {
  if (error instanceof S3ServiceException) return (error.$metadata.httpStatusCode ?? 500) >= 500;
  const code = (error as NodeJS.ErrnoException).code;
  return ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND'].includes(
    code ?? '',
  );
}

const isMissing = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404);

/**
 * Blobs in an S3-compatible object store (AWS S3, OpenStack Swift's s3api, ...). Uploads map onto S3
 * multipart uploads on the final key; run outputs and other whole objects are one PutObject each (they are
 * small and already in memory: `putBytes`).
 */
export class S3BlobStore implements BlobStore {
  readonly description: string;
  readonly multipart: MultipartStore;
  readonly client: S3Client;
  readonly bucket: string;

  constructor(settings: S3Settings) {
    this.bucket = settings.bucket;
    this.description = `s3://${settings.bucket}${settings.endpoint ? ` at ${settings.endpoint}` : ''}`;
    this.client = createS3Client(settings);
    this.multipart = new S3Multipart(this);
  }

  /** Every engine error leaves through here: an outage becomes BlobUnavailableError (503 to callers). */
  async call<T>(what: string, operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      if (unavailable(error)) throw new BlobUnavailableError(`object store: ${what} failed`, error);
      throw error;
    }
  }

  /** Checks at start that the bucket is there and the credentials reach it. */
  async check(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (error) {
      const status = error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;
      const reason =
        status === 404
          ? 'it does not exist'
          : status === 403
            ? 'access is denied with these credentials'
            : (error as Error).message || (error as Error).name;
      throw new Error(`S3 bucket ${this.bucket} cannot be used: ${reason}`, { cause: error });
    }
  }

  async putBytes(key: string, bytes: Uint8Array): Promise<BlobInfo> {
    await this.call('put', () =>
      this.client.send(
        new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: bytes, ContentLength: bytes.length }),
      ),
    );
    return { size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
  }

  /**
   * A multipart upload of 8 MiB parts as the stream gives them (lib-storage's Upload: two parts in memory at
   * most); a failure aborts it, so no part stays behind.
   */
  async putStream(key: string, source: Readable): Promise<BlobInfo> {
    const meter = new HashingLimit(Number.MAX_SAFE_INTEGER);
    const body = new PassThrough();
    const piping = pipeline(source, meter, body);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: body },
      partSize: 8 * 1024 * 1024,
      queueSize: 2,
      leavePartsOnError: false,
    });
    const [piped, sent] = await Promise.allSettled([piping, this.call('put stream', () => upload.done())]);
    if (piped.status === 'rejected') {
      // the source failed: whatever was sent must not stand as the object
      await upload.abort().catch(() => undefined);
      await this.delete(key).catch(() => undefined);
      throw piped.reason;
    }
    if (sent.status === 'rejected') throw sent.reason;
    return { size: meter.size, sha256: meter.digest() };
  }

  async open(key: string): Promise<OpenedBlob> {
    try {
      const object = await this.call('get', () =>
        this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key })),
      );
      return { stream: object.Body as Readable, size: object.ContentLength ?? 0 };
    } catch (error) {
      if (isMissing(error)) throw new BlobMissingError(`blob ${key} is missing`);
      throw error;
    }
  }

  /** Streams `key` into a new scratch file, hashing it; the caller removes the directory. */
  async download(key: string): Promise<{ dir: string; file: string; info: BlobInfo }> {
    const { stream } = await this.open(key);
    const dir = await mkdtemp(path.join(tmpdir(), 'ota-scratch-'));
    const file = path.join(dir, 'blob');
    try {
      const meter = new HashingLimit(Number.MAX_SAFE_INTEGER);
      await pipeline(stream, meter, createWriteStream(file));
      return { dir, file, info: { size: meter.size, sha256: meter.digest() } };
    } catch (error) {
      await rm(dir, { recursive: true, force: true });
      throw unavailable(error) ? new BlobUnavailableError('object store: read failed', error) : error;
    }
  }

  async withLocalFile<T>(key: string, use: (path: string) => Promise<T>): Promise<T> {
    const { dir, file } = await this.download(key);
    try {
      return await use(file);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.call('head', () =>
        this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key })),
      );
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.call('delete', () =>
      this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key })),
    );
  }

  async deletePrefix(prefix: string): Promise<void> {
    for await (const key of this.keys(prefix)) await this.delete(key);
  }

  /**
   * An object appears whole or not at all, and a multipart upload's parts are the store's until it is
   * completed or aborted (the sweep judges open uploads through `multipart.listOpen`): nothing to sweep.
   */
  async sweepLeftovers(): Promise<number> {
    return 0;
  }

  async *keys(prefix: string): AsyncIterable<string> {
    let token: string | undefined;
    do {
      const page = await this.call('list', () =>
        this.client.send(
          new ListObjectsV2Command({ Bucket: this.bucket, Prefix: `${prefix}/`, ContinuationToken: token }),
        ),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key) yield object.Key;
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }
}

class S3Multipart implements MultipartStore {
  readonly minPartSize = S3_MIN_PART_SIZE;

  constructor(private readonly s3: S3BlobStore) {}

  private get client() {
    return this.s3.client;
  }

  private get bucket() {
    return this.s3.bucket;
  }

  async start(key: string): Promise<string> {
    const started = await this.s3.call('start multipart upload', () =>
      this.client.send(
        new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key, ContentType: 'application/pdf' }),
      ),
    );
    if (!started.UploadId) throw new Error('the object store gave no UploadId');
    return started.UploadId;
  }

  async putPart(
    target: MultipartTarget,
    partNumber: number,
    source: Readable,
    size: number,
  ): Promise<BlobInfo> {
    // the body streams straight into UploadPart; a body that turns out too long or too short aborts the
    // request, so the object store keeps the part it had
    const meter = new HashingLimit(size, true);
    const body = new PassThrough();
    const controller = new AbortController();
    const piping = pipeline(source, meter, body).catch((error: unknown) => {
      controller.abort();
      throw error;
    });
    const sending = this.s3
      .call('upload part', () =>
        this.client.send(
          new UploadPartCommand({
            Bucket: this.bucket,
            Key: target.key,
            UploadId: target.id,
            PartNumber: partNumber,
            ContentLength: size,
            Body: body,
          }),
          { abortSignal: controller.signal },
        ),
      )
      .catch((error: unknown) => {
        // nobody reads the body any more: end it, or the pipeline waits on the request for ever
        body.destroy();
        throw error;
      });
    const [piped, sent] = await Promise.allSettled([piping, sending]);
    // the body's own verdict (too long, too short) first; then the object store's; then the client's
    if (piped.status === 'rejected' && isSizeVerdict(piped.reason)) throw piped.reason;
    if (sent.status === 'rejected') {
      if (isNoSuchUpload(sent.reason)) throw new MultipartGoneError(`multipart upload ${target.id} is gone`);
      if (piped.status === 'fulfilled' || sent.reason instanceof BlobUnavailableError) throw sent.reason;
    }
    if (piped.status === 'rejected') throw piped.reason;
    return { size: meter.size, sha256: meter.digest() };
  }

  private async parts(target: MultipartTarget): Promise<Part[]> {
    const parts: Part[] = [];
    let marker: string | undefined;
    for (;;) {
      const page = await this.s3.call('list parts', () =>
        this.client.send(
          new ListPartsCommand({
            Bucket: this.bucket,
            Key: target.key,
            UploadId: target.id,
            PartNumberMarker: marker,
          }),
        ),
      );
      parts.push(...(page.Parts ?? []));
      if (!page.IsTruncated || !page.NextPartNumberMarker) return parts;
      marker = page.NextPartNumberMarker;
    }
  }

  async complete<T>(
    target: MultipartTarget,
    partSizes: number[],
    use: (assembled: AssembledBlob) => Promise<T>,
    onReopened: (id: string) => Promise<void>,
  ): Promise<T> {
    await this.assemble(target, partSizes);
    // S3 gives no SHA-256 of a multipart object, and the parser needs the bytes on local disk anyway:
    // one read into a scratch file does both
    let scratch: Awaited<ReturnType<S3BlobStore['download']>> | undefined;
    try {
      scratch = await this.s3.download(target.key);
      return await use({ ...scratch.info, path: scratch.file });
    } catch (error) {
      // should this fail too, the next completion finds the object where the multipart upload was
      await this.reopen(target, partSizes, onReopened).catch(() => undefined);
      throw error;
    } finally {
      if (scratch) await rm(scratch.dir, { recursive: true, force: true });
    }
  }

  /** CompleteMultipartUpload of the parts, each of its recorded size. */
  private async assemble(target: MultipartTarget, partSizes: number[]): Promise<void> {
    let listed: Part[];
    try {
      listed = await this.parts(target);
    } catch (error) {
      if (!isNoSuchUpload(error)) throw error;
      // a completion whose process died after S3 assembled the object and before its record was kept
      if (await this.s3.exists(target.key)) return;
      throw new MultipartGoneError(`multipart upload ${target.id} is gone`);
    }
    const stored = new Map(listed.map((part) => [part.PartNumber, part]));
    const chosen = partSizes.map((size, index) => {
      const part = stored.get(index + 1);
      if (!part || part.Size !== size) throw new BlobSizeError(size, part?.Size ?? 0);
      return { PartNumber: index + 1, ETag: part.ETag };
    });
    await this.s3.call('complete multipart upload', () =>
      this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: target.key,
          UploadId: target.id,
          MultipartUpload: { Parts: chosen },
        }),
      ),
    );
  }

  /** Makes the completed object a multipart upload again, part by part, by server-side copies. */
  private async reopen(
    target: MultipartTarget,
    partSizes: number[],
    onReopened: (id: string) => Promise<void>,
  ): Promise<void> {
    const id = await this.start(target.key);
    let offset = 0;
    for (const [index, size] of partSizes.entries()) {
      const range = `bytes=${offset}-${offset + size - 1}`;
      offset += size;
      await this.s3.call('copy part', () =>
        this.client.send(
          new UploadPartCopyCommand({
            Bucket: this.bucket,
            Key: target.key,
            UploadId: id,
            PartNumber: index + 1,
            CopySource: `${this.bucket}/${encodeURI(target.key)}`,
            CopySourceRange: range,
          }),
        ),
      );
    }
    await onReopened(id);
    await this.s3.delete(target.key);
  }

  async abort(target: MultipartTarget): Promise<void> {
    try {
      await this.s3.call('abort multipart upload', () =>
        this.client.send(
          new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: target.key, UploadId: target.id }),
        ),
      );
    } catch (error) {
      if (!isNoSuchUpload(error)) throw error;
    }
  }

  async *listOpen(prefix: string): AsyncIterable<MultipartTarget & { startedAt: number }> {
    let keyMarker: string | undefined;
    let idMarker: string | undefined;
    for (;;) {
      const page = await this.s3.call('list multipart uploads', () =>
        this.client.send(
          new ListMultipartUploadsCommand({
            Bucket: this.bucket,
            Prefix: `${prefix}/`,
            KeyMarker: keyMarker,
            UploadIdMarker: idMarker,
          }),
        ),
      );
      for (const upload of page.Uploads ?? []) {
        if (upload.Key && upload.UploadId)
          yield {
            key: upload.Key,
            id: upload.UploadId,
            startedAt: upload.Initiated?.getTime() ?? 0,
          };
      }
      if (!page.IsTruncated) return;
      keyMarker = page.NextKeyMarker;
      idMarker = page.NextUploadIdMarker;
    }
  }
}
