/**
 * What a full disk under SQLite is called: to the client (the 503's message and Retry-After), to the
 * operator (the admin CLI's line) and in the log (the error's own message). SQLite's own SQLITE_FULL is
 * raised for real: a database capped at a few pages (`max_page_count`) fails as a full disk does.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { describeFailure } from '../../src/cli/admin-commands.js';
import { AppError, DiskFullError } from '../../src/kernel/errors.js';
import { translate as translatePostgresError } from '../../src/store/postgres/database.js';
import { translateSqliteError } from '../../src/store/sqlite/index.js';
import { StoreUnavailableError } from '../../src/store/types.js';

/** SQLite's error for a write that finds no room: "database or disk is full". */
function sqliteFull(): unknown {
  const db = new Database(':memory:');
  try {
    db.exec('CREATE TABLE t (x TEXT)');
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
    const insert = db.prepare('INSERT INTO t VALUES (?)');
    for (let i = 0; i < 10_000; i++) insert.run('x'.repeat(1000));
  } catch (error) {
    return error;
  } finally {
    db.close();
  }
  throw new Error('the capped database took every row');
}

function sqliteBusy(): unknown {
  return Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
}

describe('a full disk under SQLite', () => {
  it("is a 503 that says the disk is full, with Retry-After, and keeps SQLite's words as its cause", () => {
    const raw = sqliteFull();
    expect((raw as { code: string }).code).toBe('SQLITE_FULL');
    const translated = translateSqliteError(raw);
    expect(translated).toBeInstanceOf(AppError);
    const answer = translated as AppError;
    expect(answer.status).toBe(503);
    expect(answer.error).toBe('unavailable');
    expect(answer.message).toMatch(/disk is full/i);
    expect(answer.message).not.toMatch(/unavailable or overloaded/i);
    expect(Number(answer.headers?.['Retry-After'])).toBeGreaterThan(0);
    expect((answer.cause as Error).message).toBe('database or disk is full');
  });

  it('is told to the operator as a full disk, not as a database that is away', () => {
    const line = describeFailure(translateSqliteError(sqliteFull()));
    expect(line).toMatch(/^the disk is full \(database or disk is full\)/);
    expect(line).toMatch(/free space/);
    expect(line).not.toMatch(/unavailable/);
    // the same for SQLite's error as it comes, untranslated (a store that fails to open)
    expect(describeFailure(sqliteFull())).toMatch(/^the disk is full/);
  });

  it('leaves a busy database what it was: unavailable', () => {
    const translated = translateSqliteError(sqliteBusy());
    expect(translated).toBeInstanceOf(StoreUnavailableError);
    expect(describeFailure(translated)).toBe('the database is unavailable');
  });

  it("is PostgreSQL's disk_full (53100) too, as a full disk and not as a database that is away", () => {
    const pgFull = Object.assign(new Error('could not extend file: No space left on device'), {
      code: '53100',
    });
    const translated = translatePostgresError(pgFull);
    expect(translated).toBeInstanceOf(DiskFullError);
    expect((translated as AppError).status).toBe(503);
    expect(describeFailure(translated)).toMatch(/^the disk is full/);
  });
});
