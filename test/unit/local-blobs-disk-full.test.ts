/**
 * The local engine on a disk that fills up: a small tmpfs of its own (we mount it; where mounting is not
 * allowed the filesystem tests say so and skip, and the recognition of a full disk is still tested). Every
 * failing write is DiskFullError (503 `unavailable` with Retry-After), removes its temporary file at once,
 * and leaves what was stored before as it was; space freed is space used, with no restart.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DiskFullError, isDiskFull } from '../../src/blobs/disk-full.js';
import { LocalBlobStore } from '../../src/blobs/local/local-blob-store.js';
import { StoreUnavailableError } from '../../src/store/types.js';

describe('isDiskFull', () => {
  it.each([
    ['ENOSPC', Object.assign(new Error('no space left on device'), { code: 'ENOSPC' })],
    ['EDQUOT', Object.assign(new Error('disk quota exceeded'), { code: 'EDQUOT' })],
    ['SQLITE_FULL', Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' })],
    ["SQLite's message alone", new Error('database or disk is full')],
    [
      'a translated error with one as cause',
      new StoreUnavailableError('the database is unavailable', { code: 'SQLITE_FULL' }),
    ],
    ['DiskFullError', new DiskFullError()],
  ])('knows %s', (_name, error) => {
    expect(isDiskFull(error)).toBe(true);
  });

  it.each([
    ['ENOENT', Object.assign(new Error('missing'), { code: 'ENOENT' })],
    ['SQLITE_BUSY', Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })],
    ['nothing', undefined],
    ['a string', 'ENOSPC'],
  ])('is not fooled by %s', (_name, error) => {
    expect(isDiskFull(error)).toBe(false);
  });

  it("renders as the contract's 503 unavailable with Retry-After", () => {
    const cause = Object.assign(new Error('no space'), { code: 'ENOSPC' });
    const error = new DiskFullError(cause);
    expect(error).toMatchObject({ status: 503, error: 'unavailable' });
    expect(error.message).toMatch(/disk is full/);
    expect(Number(error.headers?.['Retry-After'])).toBeGreaterThanOrEqual(1);
    expect(error.cause).toBe(cause);
  });
});

const DISK_BYTES = 1024 * 1024;
let mountPoint: string | undefined;
let mountRefused = '';

beforeAll(() => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ota-full-disk-unit-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${DISK_BYTES}`, 'tmpfs', dir], { stdio: 'pipe' });
    mountPoint = dir;
  } catch (error) {
    mountRefused = String((error as { stderr?: Buffer }).stderr ?? error).trim();
    rmSync(dir, { recursive: true, force: true });
  }
});
afterAll(() => {
  if (!mountPoint) return;
  // a write still open on it (a test that failed mid-way) makes it busy: detached, it goes once closed
  try {
    execFileSync('umount', [mountPoint], { stdio: 'pipe' });
  } catch {
    execFileSync('umount', ['-l', mountPoint], { stdio: 'pipe' });
  }
  rmSync(mountPoint, { recursive: true, force: true });
});

describe('the local engine on a full disk', () => {
  let root: string;
  let blobs: LocalBlobStore;
  const filler = () => path.join(mountPoint!, 'filler');

  beforeEach(async (ctx) => {
    if (!mountPoint) ctx.skip(`a tmpfs cannot be mounted here (${mountRefused}): no small disk to fill`);
    root = path.join(mountPoint!, 'blobs');
    blobs = new LocalBlobStore(root);
    await blobs.check();
  });
  afterEach(() => {
    if (!mountPoint) return;
    rmSync(root, { recursive: true, force: true });
    rmSync(filler(), { force: true });
  });

  const freeBytes = () => {
    const fs = statfsSync(mountPoint!);
    return fs.bavail * fs.bsize;
  };
  /** Fills the disk until `leave` bytes are free. */
  const fillLeaving = (leave: number) =>
    writeFileSync(filler(), Buffer.alloc(Math.max(0, freeBytes() - leave)));
  /** Every file under the store's root, temporary ones too. */
  const filesUnder = (dir = root): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [entry.name],
    );
  const temporaries = () => filesUnder().filter((name) => name.startsWith('.tmp-'));
  const part = (bytes: number) => Readable.from([Buffer.alloc(bytes, 7)]);

  it('a write that does not fit is DiskFullError and leaves no temporary file', async () => {
    fillLeaving(64 * 1024);
    await expect(blobs.putBytes('runs/t/r/report.json', Buffer.alloc(256 * 1024))).rejects.toBeInstanceOf(
      DiskFullError,
    );
    expect(temporaries()).toEqual([]);
  });

  it('a multipart upload that cannot start leaves no folder behind', async () => {
    fillLeaving(0);
    await expect(blobs.multipart.start('files/t/u.pdf')).rejects.toBeInstanceOf(DiskFullError);
    expect(filesUnder()).toEqual([]);
    expect(readdirSync(path.join(root, '.multipart'))).toEqual([]);
  });

  it('a part that does not fit is DiskFullError; the part stored before stays', async () => {
    const id = await blobs.multipart.start('files/t/u.pdf');
    const target = { key: 'files/t/u.pdf', id };
    await blobs.multipart.putPart(target, 1, part(100 * 1024), 100 * 1024);
    fillLeaving(64 * 1024);
    await expect(blobs.multipart.putPart(target, 1, part(200 * 1024), 200 * 1024)).rejects.toBeInstanceOf(
      DiskFullError,
    );
    expect(temporaries()).toEqual([]);
    // freed space is used at once
    rmSync(filler());
    await expect(blobs.multipart.putPart(target, 2, part(200 * 1024), 200 * 1024)).resolves.toMatchObject({
      size: 200 * 1024,
    });
  });

  it('parts that fit but whose assembled file does not: DiskFullError, no temporary file, the upload still open', async () => {
    const key = 'files/t/u.pdf';
    const id = await blobs.multipart.start(key);
    const target = { key, id };
    const sizes = [200 * 1024, 200 * 1024];
    for (const [i, size] of sizes.entries()) await blobs.multipart.putPart(target, i + 1, part(size), size);
    fillLeaving(150 * 1024);
    let used = false;
    await expect(
      blobs.multipart.complete(
        target,
        sizes,
        async () => {
          used = true;
        },
        async () => undefined,
      ),
    ).rejects.toBeInstanceOf(DiskFullError);
    expect(used).toBe(false);
    expect(temporaries()).toEqual([]);

    rmSync(filler());
    const assembled = await blobs.multipart.complete(
      target,
      sizes,
      async (file) => file,
      async () => undefined,
    );
    expect(assembled.size).toBe(400 * 1024);
  });
});
