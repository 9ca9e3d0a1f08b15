import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { BlobSizeError, BlobTooLargeError } from './blob-store.js';

export interface HashingLimitOptions {
  /** The body must be exactly `limit` bytes (else it may be shorter). */
  exact?: boolean;
  /** Passes bytes on in pieces of at least this many (but the last): fewer, larger socket writes. */
  batchBytes?: number;
}

/**
 * Counts and hashes bytes as they pass, and stops the stream once more than `limit` went through. With
 * `exact`, the body must be exactly `limit` bytes: the latest chunk is held back until the next one or the
 * end shows the size is right, so a body that runs long never gets its first `limit` bytes all the way
 * through (an upload of exactly `limit` bytes would complete downstream before the excess is seen).
 */
export class HashingLimit extends Transform {
  private readonly hash = createHash('sha256');
  private readonly exact: boolean;
  private readonly batchBytes: number;
  /** Bytes not passed on yet, oldest first. */
  private held: Buffer[] = [];
  private heldBytes = 0;
  size = 0;

  constructor(
    private readonly limit: number,
    options: HashingLimitOptions = {},
  ) {
    super();
    this.exact = options.exact ?? false;
    this.batchBytes = options.batchBytes ?? 0;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
    this.size += chunk.length;
    if (this.size > this.limit) {
      this.held = [];
      done(new BlobTooLargeError(this.limit));
      return;
    }
    this.hash.update(chunk);
    if (!this.exact && this.batchBytes === 0) {
      done(null, chunk);
      return;
    }
    this.held.push(chunk);
    this.heldBytes += chunk.length;
    // in exact mode the newest chunk always stays behind; the rest goes once there is a batch of it
    const keep = this.exact ? chunk.length : 0;
    if (this.heldBytes - keep >= Math.max(1, this.batchBytes)) {
      const last = this.exact ? this.held.pop()! : undefined;
      this.push(this.held.length === 1 ? this.held[0] : Buffer.concat(this.held));
      this.held = last ? [last] : [];
      this.heldBytes = keep;
    }
    done();
  }

  override _flush(done: TransformCallback) {
    if (this.exact && this.size !== this.limit) {
      done(new BlobSizeError(this.limit, this.size));
      return;
    }
    if (this.held.length > 0) this.push(Buffer.concat(this.held));
    this.held = [];
    done();
  }

  digest(): string {
    return this.hash.digest('hex');
  }
}
