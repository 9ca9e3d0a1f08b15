import { mkdtempSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../src/store/sqlite/database.js';
import {
  startCheckpointer,
  WAL_PAGES_BEFORE_COMMIT_CHECKPOINT,
} from '../../src/store/sqlite/checkpointer.js';

let dir: string;
let db: Db;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'ota-checkpoint-'));
  db = openDatabase(dir);
  db.exec('CREATE TABLE blobs (b BLOB)');
  db.pragma('wal_checkpoint(TRUNCATE)');
});
afterEach(() => {
  if (db.open) db.close();
  rmSync(dir, { recursive: true, force: true });
});

const fileSize = () => statSync(db.name).size;
const autocheckpoint = () => db.pragma('wal_autocheckpoint', { simple: true });

async function until(condition: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('not within the time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('the checkpoint thread', () => {
  it("copies the WAL's pages into the database file off this thread, until stopped", async () => {
    const errors: string[] = [];
    const checkpointer = startCheckpointer(db, (message) => errors.push(message), 10);
    expect(autocheckpoint()).toBe(WAL_PAGES_BEFORE_COMMIT_CHECKPOINT);
    const before = fileSize();
    // 1 MiB in the WAL (256 pages: under this connection's own checkpoint), none of it in the file yet
    db.prepare('INSERT INTO blobs VALUES (?)').run(Buffer.alloc(1 << 20, 7));
    expect(fileSize()).toBe(before);
    await until(() => fileSize() >= before + (1 << 20));
    await checkpointer.stop();
    expect(autocheckpoint()).toBe(1000);
    expect(await checkpointer.stop(), 'a second stop is the first one').toBeUndefined();
    // stopped: new pages stay in the WAL
    const stopped = fileSize();
    db.prepare('INSERT INTO blobs VALUES (?)').run(Buffer.alloc(1 << 20, 8));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(fileSize()).toBe(stopped);
    expect(errors).toEqual([]);
  });

  it('says why when its connection cannot open, and stops all the same', async () => {
    const errors: string[] = [];
    unlinkSync(db.name);
    const checkpointer = startCheckpointer(db, (message) => errors.push(message), 10);
    await until(() => errors.length > 0);
    expect(errors[0]).toMatch(/unable to open database file|does not exist/);
    await checkpointer.stop();
    expect(autocheckpoint()).toBe(1000);
  });
});
