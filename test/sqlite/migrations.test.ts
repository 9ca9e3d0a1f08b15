import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { runView } from '../../src/records/run.js';
import type { RunRow } from '../../src/store/types.js';
import { queuedRun, inUnits } from '../helpers/store-rows.js';
import { runLifecycle } from '../../src/runs/lifecycle.js';
import { OLD_AT, sqliteDeploymentAt } from '../helpers/old-sqlite.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'ota-sqlite-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});
const now = () => new Date().toISOString();

describe('upgrading a database that already holds runs', () => {
  it('migration 10 keeps every run, serializes each one, and keeps the block counts working', async () => {
    const { dataDir: old, db } = sqliteDeploymentAt(dir, 9, 3);
    const at = OLD_AT;
    db.prepare(
      `INSERT INTO files (id, tenant_id, upload_id, file_name, size_bytes, sha256, page_count, pdf_version, encrypted,
         storage_key, created_at) VALUES ('f1', 't1', 'u1', 'a.pdf', 1, 'x', 1, '1.4', 0, 'k', ?)`,
    ).run(at);
    const insertRun = db.prepare(
      `INSERT INTO runs (id, tenant_id, seq, file_id, user_id, created_by, created_by_type, target, status, progress,
         total_tasks, completed_tasks, failed_tasks, points_consumed, input_file_name, output_files, error, attempt,
         queue_message_id, created_at, started_at, completed_at)
       VALUES (?, 't1', ?, 'f1', 'u', 'u', 'user', ?, ?, 100, 2, 2, 0, 4, 'a "b".pdf', ?, ?, 1, ?, ?, ?, ?)`,
    );
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    insertRun.run(
      ids[0],
      1,
      'pdf-preflight',
      'succeeded',
      '["report.json","report.html"]',
      null,
      randomUUID(),
      at,
      at,
      at,
    );
    insertRun.run(ids[1], 2, 'pdf-text', 'failed', '[]', 'it broke\n"badly"', randomUUID(), at, at, at);
    insertRun.run(ids[2], 3, 'pdf-text', 'queued', '[]', null, randomUUID(), at, null, null);
    db.close();

    const upgraded = openSqliteStore(old, runLifecycle);
    try {
      const { items, total } = (await upgraded.runs.list('t1', {}, 10, 0))!;
      expect(total).toBe(3);
      expect(items.map((item) => JSON.parse(item) as RunRow)).toEqual(
        await Promise.all([...ids].reverse().map((id) => upgraded.runs.get('t1', id))),
      );
      await inUnits(upgraded).runs.cancel('t1', ids[2]!, now());
      const check = new Database(path.join(old, 'open-tenant.sqlite'), { readonly: true });
      try {
        const blocks = check
          .prepare('SELECT status, SUM(n) AS n FROM run_blocks WHERE n > 0 GROUP BY status ORDER BY status')
          .all();
        expect(blocks).toEqual([
          { status: 'cancelled', n: 1 },
          { status: 'failed', n: 1 },
          { status: 'succeeded', n: 1 },
        ]);
      } finally {
        check.close();
      }
    } finally {
      await upgraded.close();
    }
  });

  it('migration 14 gives every run and every run event the default options, and keeps the rest of the event', async () => {
    const { dataDir: old, db } = sqliteDeploymentAt(dir, 13, 1);
    const at = OLD_AT;
    db.prepare(
      `INSERT INTO files (id, tenant_id, upload_id, file_name, size_bytes, sha256, page_count, pdf_version, encrypted,
         storage_key, created_at) VALUES ('f1', 't1', 'u1', 'a.pdf', 1, 'x', 1, '1.4', 0, 'k', ?)`,
    ).run(at);
    const runId = randomUUID();
    const queueId = randomUUID();
    db.prepare(
      `INSERT INTO runs (id, tenant_id, seq, file_id, user_id, created_by, created_by_type, target, status, progress,
         total_tasks, completed_tasks, failed_tasks, points_consumed, input_file_name, output_files, error, attempt,
         queue_message_id, created_at, started_at, completed_at)
       VALUES (?, 't1', 1, 'f1', 'u', 'u', 'user', 'pdf-text', 'queued', 0, 0, 0, 0, 0, 'a.pdf', '[]', NULL, 1, ?, ?, NULL, NULL)`,
    ).run(runId, queueId, at);
    // the run's record as migration 10's json_object wrote it then: the Run of today without its later fields
    const {
      error_code: _code,
      options: _options,
      ...then
    } = runView({
      ...queuedRun({ tenantId: 't1', userId: 'u', fileId: 'f1' }, 'pdf-text'),
      id: runId,
      queue_message_id: queueId,
      input_file_name: 'a.pdf',
      created_at: at,
    });
    const record = JSON.stringify(then);
    const eventBody = (id: string, type: string, data: string) =>
      `{"id":"${id}","type":"${type}","created_at":"${at}","data":${data}}`;
    const insertEvent = db.prepare(
      `INSERT INTO events (id, tenant_id, type, created_at, body) VALUES (?, 't1', ?, ?, ?)`,
    );
    const runEvent = randomUUID();
    const uploadEvent = randomUUID();
    insertEvent.run(runEvent, 'run.created', at, eventBody(runEvent, 'run.created', record));
    insertEvent.run(
      uploadEvent,
      'upload.completed',
      at,
      eventBody(uploadEvent, 'upload.completed', '{"id":"u1"}'),
    );
    db.close();

    const upgraded = openSqliteStore(old, runLifecycle);
    try {
      expect((await upgraded.runs.get('t1', runId))?.options).toEqual({});
      const { items } = (await upgraded.events.list('t1', undefined, 10))!;
      const [upload, run] = items.map((item) => item);
      // the upload event is untouched; the run event gains the run's options after its other fields
      expect(upload).toBe(eventBody(uploadEvent, 'upload.completed', '{"id":"u1"}'));
      expect(run).toBe(eventBody(runEvent, 'run.created', `${record.slice(0, -1)},"options":{}}`));
    } finally {
      await upgraded.close();
    }
  });

  it("migration 20 keeps each tenant's newest ledger time per type with its totals, for the dashboard", async () => {
    const { dataDir: old, db } = sqliteDeploymentAt(dir, 19);
    const at = OLD_AT;
    const insert = db.prepare(
      `INSERT INTO ledger (id, tenant_id, type, amount, currency, description, source, occurred_at, created_at)
       VALUES (?, 't1', ?, 5, 'USD', '', 'import', ?, ?)`,
    );
    const rows: [string, string][] = [
      ['tech', '2026-03-01T00:00:00.000Z'],
      ['tech', '2026-05-01T00:00:00.000Z'],
      ['ecosystem', '2026-04-01T00:00:00.000Z'],
    ];
    for (const [type, occurred] of rows) insert.run(randomUUID(), type, occurred, at);
    db.exec(`INSERT INTO ledger_totals (tenant_id, type, amount, abs_amount, tx_count)
      SELECT tenant_id, type, SUM(amount), SUM(ABS(amount)), COUNT(*) FROM ledger GROUP BY 1, 2`);
    db.close();

    const upgraded = openSqliteStore(old, runLifecycle);
    try {
      const overview = await upgraded.ledger.overview('t1', '2026-01-01', '2026-12-31');
      expect(overview.latestOccurredAt).toBe('2026-05-01T00:00:00.000Z');
      expect(overview.count).toBe(3);
    } finally {
      await upgraded.close();
    }
  });

  it("migration 21 keeps every day's sums and counts of both types, and the reads and writes after it agree", async () => {
    const { dataDir: old, db } = sqliteDeploymentAt(dir, 20);
    const insert = db.prepare(
      `INSERT INTO ledger (id, tenant_id, type, amount, currency, description, source, occurred_at, created_at)
       VALUES (?, 't1', ?, ?, 'USD', '', 'import', ?, ?)`,
    );
    // a day with both types, a day with tech only, a day with ecosystem only (a refund among them)
    const rows: [string, number, string][] = [
      ['tech', 500, '2026-03-01T08:00:00.000Z'],
      ['tech', 700, '2026-03-01T09:00:00.000Z'],
      ['ecosystem', -120, '2026-03-01T10:00:00.000Z'],
      ['tech', 300, '2026-03-02T10:00:00.000Z'],
      ['ecosystem', 900, '2026-03-03T10:00:00.000Z'],
    ];
    for (const [type, amount, occurred] of rows) insert.run(randomUUID(), type, amount, occurred, occurred);
    db.exec(`INSERT INTO ledger_daily (tenant_id, day, type, amount, tx_count)
      SELECT tenant_id, substr(occurred_at, 1, 10), type, SUM(amount), COUNT(*) FROM ledger GROUP BY 1, 2, 3`);
    db.exec(`INSERT INTO ledger_totals (tenant_id, type, amount, abs_amount, tx_count, latest_at)
      SELECT tenant_id, type, SUM(amount), SUM(ABS(amount)), COUNT(*), MAX(occurred_at) FROM ledger GROUP BY 1, 2`);
    db.close();

    const upgraded = openSqliteStore(old, runLifecycle);
    try {
      const overview = await upgraded.ledger.overview('t1', '2026-03-01', '2026-03-31');
      expect(overview.daily).toEqual([
        { day: '2026-03-01', tech: 1200, ecosystem: -120 },
        { day: '2026-03-02', tech: 300, ecosystem: 0 },
        { day: '2026-03-03', tech: 0, ecosystem: 900 },
      ]);
      const counted = (type?: 'tech' | 'ecosystem') =>
        upgraded.ledger.list('t1', { type, startDate: '2026-03-02', endDate: '2026-03-03' }, 10, 0);
      expect([
        (await counted()).total,
        (await counted('tech')).total,
        (await counted('ecosystem')).total,
      ]).toEqual([2, 1, 1]);
      // an entry after the upgrade lands on the day's one row
      await upgraded.ledger.append([
        {
          id: randomUUID(),
          tenant_id: 't1',
          type: 'ecosystem',
          amount: 40,
          currency: 'USD',
          description: '',
          source: 'import',
          run_id: null,
          external_id: 'after-21',
          occurred_at: '2026-03-02T12:00:00.000Z',
          created_at: '2026-03-02T12:00:00.000Z',
        },
      ]);
      const after = await upgraded.ledger.overview('t1', '2026-03-02', '2026-03-02');
      expect(after.daily).toEqual([{ day: '2026-03-02', tech: 300, ecosystem: 40 }]);
      expect((await counted('ecosystem')).total).toBe(2);
    } finally {
      await upgraded.close();
    }
  });
});
