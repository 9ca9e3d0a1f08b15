import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  type AssembledBlob,
  type BlobInfo,
  BlobMissingError,
  BlobSizeError,
  type BlobStore,
  MultipartGoneError,
  type MultipartStore,
  type MultipartTarget,
  type OpenedBlob,
} from '../blob-store.js';
import { asDiskFull } from '../disk-full.js';
import { HashingLimit } from '../hashing-limit.js';
import { noteStreamedBytes } from '../streamed-garbage.js';

/** Temporary files are named so: a write in progress, or what a crash left of one. */
const TEMP_PREFIX = '.tmp-';
const isTemporary = (key: string) => key.slice(key.lastIndexOf('/') + 1).startsWith(TEMP_PREFIX);
/** Multipart uploads in progress: `.multipart/<id>/` holds the parts and `target`, the key it will become. */
const MULTIPART_ROOT = '.multipart';
const TARGET_FILE = 'target';

/**
 * Where an upload's parts are kept. An id of the form `uploads/<tenant>/<upload>` is this engine's id from
 * before 2026-11-27, when the uploads domain chose the folder: its parts are still found there.
 */
const stagingOf = (id: string) => (id.includes('/') ? id : `${MULTIPART_ROOT}/${id}`);
const partKey = (id: string, part: number) => `${stagingOf(id)}/part-${String(part).padStart(6, '0')}`;

/**
 * Blobs as files under one directory. Writes go to a temporary file beside the key, are fsynced, then
 * renamed into place. A multipart upload keeps its parts as files under `.multipart/<id>` and concatenates
 * them at completion.
 */
export class LocalBlobStore implements BlobStore {
  readonly description: string;
  readonly multipart: MultipartStore;

  constructor(private readonly root: string) {
    this.description = `local disk (${root})`;
    this.multipart = new LocalMultipart(this);
  }

  async check(): Promise<void> {
    await mkdir(this.root, { recursive: true });
  }

  localPath(key: string): string {
    const resolved = path.resolve(this.root, key);
    if (!resolved.startsWith(`${path.resolve(this.root)}${path.sep}`)) throw new Error(`bad blob key ${key}`);
    return resolved;
  }

  /**
   * Every write to the disk goes through here: into a temporary file beside `key`, synced, then renamed into
   * place. A writer that syncs its file itself says so (`synced`), and the file is not opened a second time.
   * A write that fails removes its temporary file at once (a full disk must not stay full of it until the
   * sweep), and a full disk or spent quota leaves as DiskFullError: 503 with `Retry-After`, not a bug.
   */
  async write(
    key: string,
    write: (tempPath: string) => Promise<BlobInfo>,
    { synced = false } = {},
  ): Promise<BlobInfo> {
    const finalPath = this.localPath(key);
    const dir = path.dirname(finalPath);
    const tempPath = path.join(dir, `${TEMP_PREFIX}${randomUUID()}`);
    try {
      await mkdir(dir, { recursive: true });
      const info = await write(tempPath);
      if (!synced) {
        const handle = await open(tempPath, 'r+');
        try {
          await handle.datasync();
        } finally {
          await handle.close();
        }
      }
      await rename(tempPath, finalPath);
      await syncDir(dir);
      return info;
    } catch (error) {
      await unlink(tempPath).catch(() => undefined);
      throw asDiskFull(error);
    }
  }

  streamInto(source: Readable, meter: HashingLimit) {
    return async (tempPath: string) => {
      await pipeline(source, meter, createWriteStream(tempPath));
      return { size: meter.size, sha256: meter.digest() };
    };
  }

  putStream(key: string, source: Readable): Promise<BlobInfo> {
    return this.write(key, this.streamInto(source, new HashingLimit(Number.MAX_SAFE_INTEGER)));
  }

  putBytes(key: string, bytes: Uint8Array): Promise<BlobInfo> {
    return this.write(
      key,
      async (tempPath) => {
        const handle = await open(tempPath, 'wx');
        try {
          await handle.writeFile(bytes);
          await handle.datasync();
        } finally {
          await handle.close();
        }
        return { size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
      },
      { synced: true },
    );
  }

  async open(key: string): Promise<OpenedBlob> {
    let handle;
    try {
      handle = await open(this.localPath(key), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        throw new BlobMissingError(`blob ${key} is missing`);
      throw error;
    }
    try {
      const { size } = await handle.stat();
      return { stream: handle.createReadStream(), size };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async withLocalFile<T>(key: string, use: (path: string) => Promise<T>): Promise<T> {
    const file = this.localPath(key);
    try {
      await stat(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        throw new BlobMissingError(`blob ${key} is missing`);
      throw error;
    }
    return use(file);
  }

  async delete(key: string): Promise<void> {
    await rm(this.localPath(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<void> {
    // a writer racing the removal (a part landing in an upload being aborted) can put a file into a folder
    // rm is emptying: it then fails ENOTEMPTY, and trying again removes the newcomer too
    await rm(this.localPath(prefix), { recursive: true, force: true, maxRetries: 5, retryDelay: 5 });
  }

  /**
   * Temporary files and blobs no record names are plain files here: a walk of every folder but the open
   * multipart uploads' (which `multipart.listOpen` shows the sweep) finds what a crash left.
   */
  async sweepLeftovers(
    olderThan: number,
    stillReferenced: (key: string) => Promise<boolean>,
  ): Promise<number> {
    let removed = 0;
    for await (const blob of this.entries('')) {
      if (blob.modifiedAt > olderThan) continue;
      const temporary = isTemporary(blob.key);
      // an open upload's parts and target are judged through multipart.listOpen
      if (!temporary && blob.key.startsWith(`${MULTIPART_ROOT}/`)) continue;
      if (temporary || !(await stillReferenced(blob.key))) {
        await this.delete(blob.key);
        removed++;
      }
    }
    return removed;
  }

  async *keys(prefix: string): AsyncIterable<string> {
    for await (const { key } of this.entries(prefix)) if (!isTemporary(key)) yield key;
  }

  /** Every file under `prefix`, temporary ones too, with when it was last written. */
  private async *entries(prefix: string): AsyncIterable<{ key: string; modifiedAt: number }> {
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
    yield* walk(prefix === '' ? root : this.localPath(prefix));
  }
}

class LocalMultipart implements MultipartStore {
  readonly minPartSize = 1;

  constructor(private readonly blobs: LocalBlobStore) {}

  /** A folder of its own, named by a new id, that knows the key it will become. */
  async start(key: string): Promise<string> {
    const id = randomUUID();
    try {
      await this.blobs.putBytes(`${stagingOf(id)}/${TARGET_FILE}`, Buffer.from(key));
    } catch (error) {
      // a folder without its target is never listed open, so nothing would ever remove it
      await this.blobs.deletePrefix(stagingOf(id)).catch(() => undefined);
      throw error;
    }
    return id;
  }

  async putPart(
    target: MultipartTarget,
    partNumber: number,
    source: Readable,
    size: number,
  ): Promise<BlobInfo> {
    // the part is written aside and renamed over the old one only once it is whole and of the right size
    try {
      return await this.blobs.write(
        partKey(target.id, partNumber),
        this.blobs.streamInto(source, new HashingLimit(size, true)),
      );
    } catch (error) {
      // an abort or a completion removed the staging folder while the part was written into it
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        throw new MultipartGoneError(`multipart upload ${target.id} is gone`);
      throw error;
    }
  }

  async complete<T>(
    target: MultipartTarget,
    partSizes: number[],
    use: (assembled: AssembledBlob) => Promise<T>,
  ): Promise<T> {
    const assembled = await this.blobs.write(target.key, async (tempPath) => {
      const hash = createHash('sha256');
      let size = 0;
      const partPath = (n: number) => this.blobs.localPath(partKey(target.id, n));
      // one pipeline from the parts to the file: a failing write (ENOSPC) rejects it like any other error
      // instead of being an 'error' event nobody listens to, which would end the process
      await pipeline(async function* () {
        for (let n = 1; n <= partSizes.length; n++) {
          let partBytes = 0;
          for await (const chunk of createReadStream(partPath(n)) as AsyncIterable<Buffer>) {
            hash.update(chunk);
            noteStreamedBytes(chunk.length);
            partBytes += chunk.length;
            yield chunk;
          }
          if (partBytes !== partSizes[n - 1]) throw new BlobSizeError(partSizes[n - 1]!, partBytes);
          size += partBytes;
        }
      }, createWriteStream(tempPath));
      return { size, sha256: hash.digest('hex') };
    });
    let result: T;
    try {
      result = await use({ ...assembled, path: this.blobs.localPath(target.key) });
    } catch (error) {
      // the parts are still there: the upload is open again as it was
      await this.blobs.delete(target.key);
      throw error;
    }
    // the file is in place; parts a failure leaves here are removed by the sweep (their upload is done)
    await this.blobs.deletePrefix(stagingOf(target.id)).catch(() => undefined);
    return result;
  }

  async abort(target: MultipartTarget): Promise<void> {
    await this.blobs.deletePrefix(stagingOf(target.id));
  }

  async *listOpen(prefix: string): AsyncIterable<MultipartTarget & { startedAt: number }> {
    let ids: string[];
    try {
      ids = await readdir(this.blobs.localPath(MULTIPART_ROOT));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const id of ids) {
      const targetPath = this.blobs.localPath(`${MULTIPART_ROOT}/${id}/${TARGET_FILE}`);
      // the target is written (and synced) before start returns: a folder without one is an upload ending,
      // or a start that crashed before any record could name it (its temporary file is swept by age)
      const [key, info] = await Promise.all([
        readFile(targetPath, 'utf8').catch(() => undefined),
        stat(this.blobs.localPath(`${MULTIPART_ROOT}/${id}`)).catch(() => undefined),
      ]);
      if (key !== undefined && info && key.startsWith(`${prefix}/`))
        yield { key, id, startedAt: info.mtimeMs };
    }
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
