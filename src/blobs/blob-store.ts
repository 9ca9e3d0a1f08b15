import type { Readable } from 'node:stream';

/**
 * Where file bytes live: uploaded parts, assembled files and run outputs. Keys are relative paths such as
 * `files/<tenant>/<upload>.pdf`. Two engines: the local disk (src/blobs/local) and an S3-compatible object
 * store (src/blobs/s3), chosen by BLOB_STORE; nothing outside src/blobs knows which.
 *
 * Every write is all or nothing: a reader never sees half an object, and a body that is refused, too long
 * or cut off changes nothing that was stored.
 */
export interface BlobStore {
  /** What logs and the start-up line call it. */
  readonly description: string;
  /**
   * Removes what a crash left of this engine's own writing: temporary files, and blobs written before
   * `olderThan` (ms since the epoch) that `stillReferenced` says no record names. An engine whose every write
   * is whole and named by a record or an open multipart upload has nothing to sweep. Returns how many went.
   */
  sweepLeftovers(olderThan: number, stillReferenced: (key: string) => Promise<boolean>): Promise<number>;
  /** Checks at start that the store can be used (the bucket exists, the credentials reach it). */
  check(): Promise<void>;
  /**
   * Writes bytes already in memory (a run's outputs) to `key`. Bodies that arrive over the network stream
   * through `multipart` instead; a stream's machinery for bytes in hand cost the event loop more than twice
   * the time of the write.
   */
  putBytes(key: string, bytes: Uint8Array): Promise<BlobInfo>;
  /**
   * Writes a stream of a length nobody knows ahead (an export's archive) to `key`, all or nothing: a source
   * that fails leaves no object. Its size and SHA-256 as written.
   */
  putStream(key: string, source: Readable): Promise<BlobInfo>;
  /** Opens `key` for reading; rejects with BlobMissingError before a byte is promised to anyone. */
  open(key: string): Promise<OpenedBlob>;
  delete(key: string): Promise<void>;
  deletePrefix(prefix: string): Promise<void>;
  /** The keys of the objects stored under `prefix` (an engine's temporary files are no objects). */
  keys(prefix: string): AsyncIterable<string>;
  /**
   * Runs `use` with `key` as a file on the local disk (the PDF parser reads files by ranges, synchronously).
   * An engine that keeps objects elsewhere copies the object into a scratch file and removes it afterwards.
   */
  withLocalFile<T>(key: string, use: (path: string) => Promise<T>): Promise<T>;

  /** Multipart uploads, S3's model: parts in any order, replaced when sent again, assembled at the end. */
  readonly multipart: MultipartStore;
}

export interface MultipartStore {
  /** Every part but the last must be at least this big (S3: 5 MiB). */
  readonly minPartSize: number;
  /** Starts a multipart upload that will become `key`. Returns the upload's id in the engine. */
  start(key: string): Promise<string>;
  /**
   * Streams one part, which must be exactly `size` bytes: longer is refused with BlobTooLargeError as soon as
   * it is, shorter with BlobSizeError at its end; either way a part stored before stays as it was.
   */
  putPart(target: MultipartTarget, partNumber: number, source: Readable, size: number): Promise<BlobInfo>;
  /**
   * Assembles parts 1..`partSizes.length` (each of the given size) into the target's key and hands `use` the
   * result on local disk with its size and SHA-256. When `use` throws, the object is taken back apart: the
   * upload is open again with the same parts (its id may change: `onReopened` gets the new one).
   */
  complete<T>(
    target: MultipartTarget,
    partSizes: number[],
    use: (assembled: AssembledBlob) => Promise<T>,
    onReopened: (id: string) => Promise<void>,
  ): Promise<T>;
  /** Drops the upload and every part; the key is not touched. */
  abort(target: MultipartTarget): Promise<void>;
  /** Multipart uploads under `prefix` that are still open (for the sweep of what a crash left). */
  listOpen(prefix: string): AsyncIterable<MultipartTarget & { startedAt: number }>;
}

export interface MultipartTarget {
  key: string;
  /** The engine's id of the multipart upload, as `start` returned it. */
  id: string;
}

export interface BlobInfo {
  size: number;
  sha256: string;
}

export interface AssembledBlob extends BlobInfo {
  /** The whole object as a file on local disk, valid while `use` runs. */
  path: string;
}

export interface OpenedBlob {
  stream: Readable;
  size: number;
}

export class BlobMissingError extends Error {}

export class BlobTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`more than ${limit} bytes`);
  }
}

/** A part or object that ended before its declared size, or whose parts do not add up. */
export class BlobSizeError extends Error {
  constructor(
    readonly expected: number,
    readonly got: number,
  ) {
    super(`expected ${expected} bytes, got ${got}`);
  }
}

/** The object store cannot answer now (unreachable, 5xx): callers get 503 and retry. */
export class BlobUnavailableError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
    this.name = 'BlobUnavailableError';
  }
}

/** The multipart upload is no longer open in the store (completed or aborted meanwhile). */
export class MultipartGoneError extends Error {}
