import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../src/store/sqlite/database.js';
import { SqliteDialect } from '../../src/store/sqlite/dialect.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { sqlLedger } from '../../src/store/sql/ledger.js';
import { sqliteRunEngine } from '../../src/store/sqlite/runs.js';
import type { SqlDialect, SqlValue } from '../../src/store/sql/dialect.js';
import { runLifecycle } from '../../src/runs/lifecycle.js';
import { OLD_AT, sqliteDeploymentAt } from '../helpers/old-sqlite.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'ota-sqlite-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A statement a repository sent, with its values. */
interface Sent {
  text: string;
  values: SqlValue[];
}

/** The dialect, with every statement the repository sends kept beside its values. */
function recording(sql: SqlDialect): { dialect: SqlDialect; sent: Sent[] } {
  const sent: Sent[] = [];
  const keep =
    <F extends (text: string, values?: readonly SqlValue[]) => unknown>(call: F) =>
    (text: string, values: readonly SqlValue[] = []) => {
      sent.push({ text, values: [...values] });
      return call(text, values);
    };
  const dialect: SqlDialect = Object.create(sql) as SqlDialect;
  Object.assign(dialect, {
    all: keep(sql.all.bind(sql)),
    get: keep(sql.get.bind(sql)),
    column: keep(sql.column.bind(sql)),
  });
  return { dialect, sent };
}

/** What SQLite's planner says of the statement the repository sent that holds `pattern`. */
function planOf(db: Db, sent: Sent[], pattern: string): string[] {
  const statement = sent.find(({ text }) => text.includes(pattern));
  expect(statement, `no statement with ${pattern}`).toBeDefined();
  return (
    db.prepare(`EXPLAIN QUERY PLAN ${statement!.text}`).all(...statement!.values) as { detail: string }[]
  ).map((step) => step.detail);
}

describe('a deep page of runs of one target on SQLite', () => {
  it("finds its block from the target's index alone, without a search of the counts per block", async () => {
    const db = openDatabase(dir);
    const { dialect, sent } = recording(new SqliteDialect(db));
    await sqliteRunEngine(dialect).list('t1', { target: 'pdf-text' }, 20, 200_000);
    const plan = planOf(db, sent, 'FROM run_blocks');
    const blockReads = plan.filter((detail) => /\brun_blocks\b/.test(detail));
    expect(blockReads, plan.join('\n')).toEqual([
      expect.stringContaining('USING COVERING INDEX run_blocks_target'),
    ]);
    db.close();
  });
});

describe('a transactions page of one type on SQLite', () => {
  it("is read from the type's index alone, without a search of the table per row", async () => {
    const db = openDatabase(dir);
    const { dialect, sent } = recording(new SqliteDialect(db));
    await sqlLedger(dialect).list('t1', { type: 'tech', startDate: '2026-01-01' }, 20, 40);
    const plan = planOf(db, sent, 'FROM ledger WHERE');
    const ledgerReads = plan.filter((detail) => /\bledger\b/.test(detail));
    expect(ledgerReads, plan.join('\n')).toEqual([
      expect.stringContaining('USING COVERING INDEX ledger_tenant_type_time'),
    ]);
    db.close();
  });

  it('migration 22 keeps the rows of a ledger written before it, and lists them', async () => {
    const { dataDir: old, db } = sqliteDeploymentAt(dir, 21);
    const at = OLD_AT;
    const insert = db.prepare(
      `INSERT INTO ledger (id, tenant_id, type, amount, currency, description, source, occurred_at, created_at,
         record, record_view) VALUES (?, 't1', ?, ?, 'USD', 'row', 'import', ?, ?, ?, 0)`,
    );
    const rows = [
      { id: 'a', type: 'tech', amount: 100, at: '2026-01-02T00:00:00.000Z' },
      { id: 'b', type: 'ecosystem', amount: 7, at: '2026-01-03T00:00:00.000Z' },
      { id: 'c', type: 'tech', amount: -40, at: '2026-01-04T00:00:00.000Z' },
    ];
    for (const row of rows) insert.run(row.id, row.type, row.amount, row.at, at, '');
    db.close();

    const upgraded = openSqliteStore(old, runLifecycle);
    const tech = await upgraded.ledger.list('t1', { type: 'tech' }, 20, 0);
    expect(tech.items.map((item) => (JSON.parse(item) as { id: string }).id)).toEqual(['c', 'a']);
    const all = await upgraded.ledger.list('t1', {}, 20, 0);
    expect(all.items).toHaveLength(3);
    await upgraded.close();
  });
});
