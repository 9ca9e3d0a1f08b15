import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
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
  /**
   * Streams `source` aside, hashing it, without touching `key`: the caller looks at the result and then
   * commits it into place (replacing what `key` held) or discards it. A body that is refused, too long or
   * cut off therefore changes nothing that was stored.
   */
  stage(key: string, source: Readable, maxBytes: number): Promise<StagedBlob>;
  /** Concatenates existing blobs into `key` in order, hashing the result. */
  concat(key: string, sources: string[]): Promise<BlobInfo>;
  read(key: string): Readable;
  /** Opens `key` for reading; rejects with BlobMissingError before a byte is promised to anyone. */
  open(key: string): Promise<Readable>;
  delete(key: string): Promise<void>;
  deletePrefix(prefix: string): Promise<void>;
  /** Every blob under `prefix` (temporary files too), with when it was last written. */
  list(prefix: string): AsyncIterable<{ key: string; modifiedAt: number }>;
  /** A path on the local file system the PDF parser can read ranges of. */
  localPath(key: string): string;
}

export interface BlobInfo {
  size: number;
  sha256: string;
}

export interface StagedBlob extends BlobInfo {
  commit(): Promise<void>;
  discard(): Promise<void>;
}

export class BlobMissingError extends Error {}

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

  /** Writes into a temporary file beside `key` and syncs it; nothing is in place until commit(). */
  private async write(key: string, write: (tempPath: string) => Promise<BlobInfo>): Promise<StagedBlob> {
    const finalPath = this.localPath(key);
    const dir = path.dirname(finalPath);
    await mkdir(dir, { recursive: true });
    const tempPath = path.join(dir, `${TEMP_PREFIX}${randomUUID()}`);
    const discard = () => unlink(tempPath).catch(() => undefined);
    try {
      const info = await write(tempPath);
      const handle = await open(tempPath, 'r+');
      try {
        await handle.datasync();
      } finally {
        await handle.close();
      }
      return {
        ...info,
        commit: async () => {
          try {
            await rename(tempPath, finalPath);
          } catch (error) {
            await discard();
            throw error;
          }
          await syncDir(dir);
        },
        discard,
      };
    } catch (error) {
      await discard();
      throw error;
    }
  }

  private async commit(key: string, write: (tempPath: string) => Promise<BlobInfo>): Promise<BlobInfo> {
    const staged = await this.write(key, write);
    await staged.commit();
    return { size: staged.size, sha256: staged.sha256 };
  }

  private streamTo(source: Readable, maxBytes: number) {
    return async (tempPath: string) => {
      const meter = new HashingLimit(maxBytes);
      await pipeline(source, meter, createWriteStream(tempPath));
      return { size: meter.size, sha256: meter.hash.digest('hex') };
    };
  }

  put(key: string, source: Readable, maxBytes: number): Promise<BlobInfo> {
    return this.commit(key, this.streamTo(source, maxBytes));
  }

  stage(key: string, source: Readable, maxBytes: number): Promise<StagedBlob> {
    return this.write(key, this.streamTo(source, maxBytes));
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

  open(key: string): Promise<Readable> {
    const stream = createReadStream(this.localPath(key));
    return new Promise((resolve, reject) => {
      stream.once('open', () => resolve(stream));
      stream.once('error', (error: NodeJS.ErrnoException) =>
        reject(error.code === 'ENOENT' ? new BlobMissingError(`blob ${key} is missing`) : error),
      );
    });
  }

  async delete(key: string): Promise<void> {
    await rm(this.localPath(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<void> {
    await rm(this.localPath(prefix), { recursive: true, force: true });
  }

  async *list(prefix: string): AsyncIterable<{ key: string; modifiedAt: number }> {
    const root = path.resolve(this.root);
    const walk = async function* (dir: string): AsyncGenerator<{ key: string; modifiedAt: number }> {
      let entries;
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw error;
      }
      for (const entry of entries) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) yield* walk(full);
        else if (entry.isFile()) {
          const info = await stat(full).catch(() => undefined);
          if (info)
            yield { key: path.relative(root, full).split(path.sep).join('/'), modifiedAt: info.mtimeMs };
        }
      }
    };
    yield* walk(this.localPath(prefix));
  }
}

/** Temporary files are named so; a sweep removes those a crash left behind. */
export const TEMP_PREFIX = '.tmp-';

async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
