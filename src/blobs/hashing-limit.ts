import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { BlobSizeError, BlobTooLargeError } from './blob-store.js';

/**
 * Counts and hashes bytes as they pass. Stops the stream once more than `limit` went through, and, when
 * `exact` is set, fails at the end if fewer did.
 */
export class HashingLimit extends Transform {
  private readonly hash = createHash('sha256');
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
      done(new BlobTooLargeError(this.limit));
      return;
    }
    this.hash.update(chunk);
    done(null, chunk);
  }

  override _flush(done: TransformCallback) {
    if (this.exact && this.size !== this.limit) done(new BlobSizeError(this.limit, this.size));
    else done();
  }

  digest(): string {
    return this.hash.digest('hex');
  }
}
