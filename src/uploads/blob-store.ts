import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, unlink } from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Where file bytes live. Keys are relative paths such as `files/<tenant>/<file>.pdf`. Writes are atomic:
 * bytes go to a temporary file, are fsynced, then renamed into place, so a reader or a crash never sees half
 * a file. The local-disk implementation below can be swapped for an object store.
 */
export interface BlobStore {
  /** Streams `source` into `key`, hashing it; refuses more than `maxBytes`. */
  put(key: string, source: Readable, maxBytes: number): Promise<BlobInfo>;
  /** Concatenates existing blobs into `key` in order, hashing the result. */
  concat(key: string, sources: string[]): Promise<BlobInfo>;
  read(key: string): Readable;
  delete(key: string): Promise<void>;
  deletePrefix(prefix: string): Promise<void>;
  /** A path on the local file system the PDF parser can read ranges of. */
  localPath(key: string): string;
}

export interface BlobInfo {
  size: number;
  sha256: string;
}

export class BlobTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`more than ${limit} bytes`);
  }
}

/** Counts and hashes bytes as they pass, and stops the stream once the limit is crossed. */
class HashingLimit extends Transform {
  readonly hash = createHash('sha256');
  size = 0;
  constructor(private readonly limit: number) {
    super();
  }
  override _transform(
    chunk: Buffer,
    _encoding: BufferEncoding,
    done: (error?: Error | null, data?: Buffer) => void,
  ) {
    this.size += chunk.length;
    if (this.size > this.limit) {
      done(new BlobTooLargeError(this.limit));
      return;
    }
    this.hash.update(chunk);
    done(null, chunk);
  }
}

export class LocalBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  localPath(key: string): string {
    const resolved = path.resolve(this.root, key);
    if (!resolved.startsWith(`${path.resolve(this.root)}${path.sep}`)) throw new Error(`bad blob key ${key}`);
    return resolved;
  }

  private async commit(key: string, write: (tempPath: string) => Promise<BlobInfo>): Promise<BlobInfo> {
    const finalPath = this.localPath(key);
    const dir = path.dirname(finalPath);
    await mkdir(dir, { recursive: true });
    const tempPath = path.join(dir, `.tmp-${randomUUID()}`);
    try {
      const info = await write(tempPath);
      const handle = await open(tempPath, 'r+');
      try {
        await handle.datasync();
      } finally {
        await handle.close();
      }
      await rename(tempPath, finalPath);
      await syncDir(dir);
      return info;
    } catch (error) {
      await unlink(tempPath).catch(() => undefined);
      throw error;
    }
  }

  put(key: string, source: Readable, maxBytes: number): Promise<BlobInfo> {
    return this.commit(key, async (tempPath) => {
      const meter = new HashingLimit(maxBytes);
      await pipeline(source, meter, createWriteStream(tempPath));
      return { size: meter.size, sha256: meter.hash.digest('hex') };
    });
  }

  concat(key: string, sources: string[]): Promise<BlobInfo> {
    return this.commit(key, async (tempPath) => {
      const hash = createHash('sha256');
      let size = 0;
      const out = createWriteStream(tempPath);
      try {
        for (const source of sources) {
          await pipeline(createReadStream(this.localPath(source)), async (chunks) => {
            for await (const chunk of chunks as AsyncIterable<Buffer>) {
              hash.update(chunk);
              size += chunk.length;
              if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
            }
          });
        }
      } finally {
        await new Promise<void>((resolve, reject) =>
          out.end((error?: Error | null) => (error ? reject(error) : resolve())),
        );
      }
      return { size, sha256: hash.digest('hex') };
    });
  }

  read(key: string): Readable {
    return createReadStream(this.localPath(key));
  }

  async delete(key: string): Promise<void> {
    await rm(this.localPath(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<void> {
    await rm(this.localPath(prefix), { recursive: true, force: true });
  }
}

async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
