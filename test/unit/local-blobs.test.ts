/**
 * The local engine behind the sealed blob interface: its multipart ids, staging folders and temporary files
 * are its own, and it sweeps its own leftovers through the caller's "still referenced?".
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalBlobStore } from '../../src/blobs/local/local-blob-store.js';
import type { MultipartTarget } from '../../src/blobs/blob-store.js';

let root: string;
let blobs: LocalBlobStore;
beforeEach(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'ota-local-blobs-'));
  blobs = new LocalBlobStore(root);
  await blobs.check();
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const openUploads = async (prefix: string) => {
  const found: (MultipartTarget & { startedAt: number })[] = [];
  for await (const open of blobs.multipart.listOpen(prefix)) found.push(open);
  return found;
};

const putParts = async (target: MultipartTarget, parts: string[]) => {
  for (const [i, part] of parts.entries())
    await blobs.multipart.putPart(target, i + 1, Readable.from([Buffer.from(part)]), part.length);
};

describe('the local engine', () => {
  it('a multipart upload is started on its key alone, listed as open until completed, and leaves nothing', async () => {
    const key = 'files/t1/u1.pdf';
    const id = await blobs.multipart.start(key);
    expect(id).not.toContain('/');
    expect((await openUploads('files')).map(({ key, id }) => ({ key, id }))).toEqual([{ key, id }]);
    expect(await openUploads('runs')).toEqual([]);
    await putParts({ key, id }, ['abc', 'de']);
    const sha = await blobs.multipart.complete(
      { key, id },
      [3, 2],
      async (assembled) => assembled.sha256,
      async () => undefined,
    );
    expect(sha).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(path.join(root, key), 'utf8')).toBe('abcde');
    expect(await openUploads('files')).toEqual([]);
    expect(existsSync(path.join(root, '.multipart', id))).toBe(false);
  });

  it('an aborted upload is no longer open and its parts are gone', async () => {
    const target = { key: 'files/t1/u2.pdf', id: await blobs.multipart.start('files/t1/u2.pdf') };
    await putParts(target, ['xyz']);
    await blobs.multipart.abort(target);
    expect(await openUploads('files')).toEqual([]);
    expect(existsSync(path.join(root, '.multipart', target.id))).toBe(false);
  });

  it('an upload started before 2026-11-27 (its id the folder of its parts) still completes', async () => {
    const target = { key: 'files/t1/u3.pdf', id: 'uploads/t1/u3' };
    await putParts(target, ['old', 'er']);
    await blobs.multipart.complete(
      target,
      [3, 2],
      async () => undefined,
      async () => undefined,
    );
    expect(readFileSync(path.join(root, target.key), 'utf8')).toBe('older');
    expect(existsSync(path.join(root, 'uploads/t1/u3'))).toBe(false);
  });

  it('sweeps old temporary files and old blobs nobody refers to; keeps young ones, referenced ones and open uploads', async () => {
    const old = Date.now() / 1000 - 7200;
    const write = (key: string, age?: number) => {
      const file = path.join(root, key);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, 'x');
      if (age !== undefined) utimesSync(file, age, age);
    };
    write('files/t1/.tmp-crashed', old);
    write('files/t1/orphan.pdf', old);
    write('files/t1/kept.pdf', old);
    write('files/t1/.tmp-in-progress');
    const open = await blobs.multipart.start('files/t1/open.pdf');
    const asked: string[] = [];
    const removed = await blobs.sweepLeftovers(Date.now() - 3600_000, async (key) => {
      asked.push(key);
      return key.endsWith('kept.pdf');
    });
    expect(removed).toBe(2);
    expect(asked.sort()).toEqual(['files/t1/kept.pdf', 'files/t1/orphan.pdf']);
    expect(existsSync(path.join(root, 'files/t1/.tmp-crashed'))).toBe(false);
    expect(existsSync(path.join(root, 'files/t1/orphan.pdf'))).toBe(false);
    expect(existsSync(path.join(root, 'files/t1/kept.pdf'))).toBe(true);
    expect(existsSync(path.join(root, 'files/t1/.tmp-in-progress'))).toBe(true);
    expect((await openUploads('files')).map((u) => u.id)).toEqual([open]);
  });
});
