import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteDialect } from '../../src/store/sqlite/dialect.js';

/**
 * better-sqlite3's one connection is shared by every request: a transaction whose body awaits must keep
 * other requests' statements (and the repositories that still use the connection directly) out of it.
 */
describe('the SQLite dialect', () => {
  let dir: string;
  let db: Database.Database;
  let sql: SqliteDialect;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'ota-dialect-'));
    db = new Database(path.join(dir, 'd.sqlite'));
    db.exec('CREATE TABLE t (v INTEGER NOT NULL)');
    sql = new SqliteDialect(db);
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const values = () => (db.prepare('SELECT v FROM t ORDER BY v').all() as { v: number }[]).map((r) => r.v);

  it('keeps a statement issued during an open transaction out of it: a rollback does not undo it', async () => {
    let outside: Promise<number> | undefined;
    const failed = sql.transaction(async (tx) => {
      await tx.run('INSERT INTO t (v) VALUES (1)');
      outside = sql.run('INSERT INTO t (v) VALUES (2)');
      await new Promise((resolve) => setTimeout(resolve, 20));
      // the other statement has not run yet: it waits for this transaction's end
      expect(values()).toEqual([1]);
      throw new Error('rolled back');
    });
    await expect(failed).rejects.toThrow('rolled back');
    await expect(outside).resolves.toBe(1);
    expect(values()).toEqual([2]);
  });

  it('runs transactions one after the other, each whole', async () => {
    const add = (v: number) =>
      sql.transaction(async (tx) => {
        const n = (await tx.get<{ n: number }>('SELECT COUNT(*) AS n FROM t'))!.n;
        await new Promise((resolve) => setTimeout(resolve, 1));
        await tx.run('INSERT INTO t (v) VALUES (?)', [v * 100 + n]);
      });
    await Promise.all([add(1), add(2), add(3)]);
    // each saw the rows of the ones before it, none saw another's half
    expect(values().map((v) => v % 100)).toEqual([0, 1, 2]);
  });

  it('runs a statement at once when no transaction is open', async () => {
    void sql.run('INSERT INTO t (v) VALUES (7)');
    expect(values()).toEqual([7]);
  });

  it("makes a second connection to the same file in this process wait for the first one's transaction", async () => {
    // without the shared gate the second BEGIN IMMEDIATE would block the thread in busy_timeout, and the
    // first transaction, whose body awaits, could never reach its COMMIT
    const other = new Database(path.join(dir, 'd.sqlite'));
    other.pragma('busy_timeout = 100');
    db.pragma('busy_timeout = 100');
    const second = new SqliteDialect(other);
    try {
      const first = sql.transaction(async (tx) => {
        await tx.run('INSERT INTO t (v) VALUES (1)');
        await new Promise((resolve) => setTimeout(resolve, 20));
        await tx.run('INSERT INTO t (v) VALUES (2)');
      });
      const then = second.transaction(async (tx) => {
        const n = (await tx.get<{ n: number }>('SELECT COUNT(*) AS n FROM t'))!.n;
        await tx.run('INSERT INTO t (v) VALUES (?)', [10 + n]);
      });
      await Promise.all([first, then]);
      expect(values()).toEqual([1, 2, 12]);
    } finally {
      other.close();
    }
  });

  it('locks no rows itself (the write transaction holds the whole database)', () => {
    expect(sql.text.rowLock('wait')).toBe('');
    expect(sql.text.rowLock('skip-locked')).toBe('');
  });

  it('reads a JSON array as the texts of a subquery, whatever its length', async () => {
    await sql.run('INSERT INTO t (v) VALUES (1), (2), (3)');
    const rows = await sql.all<{ v: number }>(
      `SELECT v FROM t WHERE v IN ${sql.text.jsonTexts('?')} ORDER BY v`,
      [JSON.stringify(['1', '3'])],
    );
    expect(rows.map((r) => r.v)).toEqual([1, 3]);
  });
});
