import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { BlobSizeError, BlobTooLargeError } from './blob-store.js';
import { noteStreamedBytes } from './streamed-garbage.js';

/**
 * Counts and hashes bytes as they pass, and stops the stream once more than `limit` went through. With
 * `exact`, the body must be exactly `limit` bytes: the latest chunk is held back until the next one or the
 * end shows the size is right, so a body that runs long never gets its first `limit` bytes all the way
 * through (an upload of exactly `limit` bytes would complete downstream before the excess is seen).
 */
export class HashingLimit extends Transform {
  private readonly hash = createHash('sha256');
  private held: Buffer | undefined;
  size = 0;

  constructor(
    private readonly limit: number,
    private readonly exact = false,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
    this.size += chunk.length;
    if (this.size > this.limit) {
      this.held = undefined;
      done(new BlobTooLargeError(this.limit));
      return;
    }
    this.hash.update(chunk);
    noteStreamedBytes(chunk.length);
    if (!this.exact) {
      done(null, chunk);
      return;
    }
    const previous = this.held;
    this.held = chunk;
    done(null, previous);
  }

  override _flush(done: TransformCallback) {
    if (this.exact && this.size !== this.limit) {
      done(new BlobSizeError(this.limit, this.size));
      return;
    }
    done(null, this.held);
  }

  digest(): string {
    return this.hash.digest('hex');
  }
}
