/** What only the PostgreSQL engine has: its migration lock, its block layout, its errors and its wake-ups. */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/contract/paths.js';
import { openPostgresStore, type PostgresOptions } from '../../src/store/postgres/index.js';
import { migrations } from '../../src/store/postgres/migrations.js';
import { type RunRow, type Store, StoreUnavailableError } from '../../src/store/types.js';
import { Tenants } from '../../src/tenants/service.js';
import { hashToken } from '../../src/tenants/tokens.js';
import { systemClock } from '../../src/kernel/time.js';
import { dropPostgresDatabase, newPostgresDatabase } from '../helpers/engine.js';
import { completedUpload, queuedRun, inUnits } from '../helpers/store-rows.js';
import { built } from '../helpers/processes.js';
import { runLifecycle } from '../../src/runs/lifecycle.js';

const options = (url: string, more: Partial<PostgresOptions> = {}): PostgresOptions => ({
  url,
  poolSize: 5,
  statementTimeoutMs: 10_000,
  connectTimeoutMs: 5_000,
  applicationName: 'engine-test',
  ...more,
});

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function freshDatabase(): Promise<string> {
  const url = await newPostgresDatabase();
  cleanup.push(() => dropPostgresDatabase(url));
  return url;
}

async function open(url: string, more: Partial<PostgresOptions> = {}): Promise<Store> {
  const store = await openPostgresStore(options(url, more), runLifecycle);
  cleanup.push(() => store.close());
  return store;
}

async function sql<R>(url: string, text: string, values: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as R[];
  } finally {
    await client.end();
  }
}

/** A tenant with one file, ready for runs. */
async function tenantWithFile(store: Store, name: string) {
  const tenant = await new Tenants(store, systemClock).create(name);
  const { fileId } = await completedUpload(store, tenant.tenant_id);
  const run = (): RunRow => queuedRun({ tenantId: tenant.tenant_id, userId: tenant.user_id, fileId });
  return { tenantId: tenant.tenant_id, run };
}

describe('migrations', () => {
  it('six processes starting at once on an empty database apply each migration once', async () => {
    const url = await freshDatabase();
    const stores = await Promise.all(Array.from({ length: 6 }, () => open(url)));
    expect(stores).toHaveLength(6);
    const applied = await sql<{ version: number; n: string }>(
      url,
      'SELECT version, COUNT(*) AS n FROM schema_migrations GROUP BY version ORDER BY version',
    );
    expect(applied).toEqual(migrations.map((m) => ({ version: m.version, n: '1' })));
  });

  it('migration 5 gives a run event written before options the default, keeping the rest of its bytes', async () => {
    const url = await freshDatabase();
    const store = await open(url);
    const { tenantId, run } = await tenantWithFile(store, 'events-before-options');
    await inUnits(store).runs.create(run(), 10);
    const [created] = await sql<{ body: string }>(url, "SELECT body FROM events WHERE type = 'run.created'");
    // the event as migration 4 wrote it: the run's record (json_build_object's spacing) without options
    const data = (JSON.parse(created!.body) as { data: Record<string, unknown> }).data;
    const { options: _options, ...older } = data;
    const spaced = (fields: Record<string, unknown>) =>
      `{${Object.entries(fields)
        .map(([key, value]) => `"${key}" : ${JSON.stringify(value)}`)
        .join(', ')}}`;
    const eventOf = (record: string) => created!.body.replace(/"data":.*$/, `"data":${record}}`);
    const body = eventOf(spaced({ ...older, options: {} }));
    const before = eventOf(spaced(older));
    expect(before).not.toContain('options');
    await sql(url, "UPDATE events SET body = $1 WHERE type = 'run.created'", [before]);
    const migration = migrations.find((m) => m.version === 5)!.sql;
    await sql(url, migration.slice(migration.indexOf('UPDATE events')));
    const [after] = await sql<{ body: string }>(url, "SELECT body FROM events WHERE type = 'run.created'");
    expect(after!.body).toBe(body);
    expect(JSON.parse(after!.body).data.options).toEqual({});
    expect((await store.events.list(tenantId, 'run.created', 10))!.items).toEqual([body]);
  });

  it("migration 13 keeps every day's sums and counts of both types", async () => {
    const url = await freshDatabase();
    const store = await open(url);
    const tenant = await new Tenants(store, systemClock).create('ledger-days');
    const entry = (i: number, type: 'tech' | 'ecosystem', amount: number, day: string) => ({
      id: randomUUID(),
      tenant_id: tenant.tenant_id,
      type,
      amount,
      currency: 'USD',
      description: '',
      source: 'import' as const,
      run_id: null,
      external_id: `days-${i}`,
      occurred_at: `${day}T10:00:00.000Z`,
      created_at: `${day}T10:00:00.000Z`,
    });
    await store.ledger.append([
      entry(1, 'tech', 500, '2026-03-01'),
      entry(2, 'tech', 700, '2026-03-01'),
      entry(3, 'ecosystem', -120, '2026-03-01'),
      entry(4, 'tech', 300, '2026-03-02'),
      entry(5, 'ecosystem', 900, '2026-03-03'),
    ]);
    const reads = async () => ({
      daily: (await store.ledger.overview(tenant.tenant_id, '2026-03-01', '2026-03-31')).daily,
      counts: await Promise.all(
        [undefined, 'tech' as const, 'ecosystem' as const].map(
          async (type) =>
            (await store.ledger.list(tenant.tenant_id, { type, startDate: '2026-03-02' }, 10, 0)).total,
        ),
      ),
    });
    const expected = {
      daily: [
        { day: '2026-03-01', tech: 1200, ecosystem: -120 },
        { day: '2026-03-02', tech: 300, ecosystem: 0 },
        { day: '2026-03-03', tech: 0, ecosystem: 900 },
      ],
      counts: [2, 1, 1],
    };
    expect(await reads()).toEqual(expected);
    // the sums as migration 12 left them (a row per day and type), then the migration
    await sql(
      url,
      `CREATE TABLE ledger_daily (tenant_id text COLLATE "C" NOT NULL, day text COLLATE "C" NOT NULL,
         type text COLLATE "C" NOT NULL, amount bigint NOT NULL, tx_count bigint NOT NULL,
         PRIMARY KEY (tenant_id, day, type));
       INSERT INTO ledger_daily SELECT tenant_id, substr(occurred_at, 1, 10), type, SUM(amount), COUNT(*)
         FROM ledger GROUP BY 1, 2, 3;
       DROP TABLE ledger_days;`,
    );
    await sql(url, migrations.find((m) => m.version === 13)!.sql);
    expect(await reads()).toEqual(expected);
  });
});

describe('unfiltered deep pages', () => {
  it('find their block by the striped block counts, across gaps in the shared sequence', async () => {
    const url = await freshDatabase();
    const store = await open(url);
    const a = await tenantWithFile(store, 'a');
    const b = await tenantWithFile(store, 'b');
    const mine: string[] = [];
    // runs of two tenants interleaved, with jumps of the sequence over whole blocks and block edges
    for (let i = 0; i < 900; i++) {
      const run = a.run();
      await inUnits(store).runs.create(run, 100_000);
      mine.push(run.id);
      if (i % 3 === 0) await inUnits(store).runs.create(b.run(), 100_000);
      if (i % 97 === 0)
        await sql(url, `SELECT setval('runs_seq', nextval('runs_seq') + $1)`, [
          1024 * (i % 5) + 1000 + (i % 2 ? 70_000 : 0),
        ]);
    }
    const blocks = await sql<{ blocks: string }>(
      url,
      'SELECT COUNT(DISTINCT block) AS blocks FROM run_blocks WHERE tenant_id = $1 AND level = 1',
      [a.tenantId],
    );
    expect(Number(blocks[0]!.blocks)).toBeGreaterThan(10);
    const superblocks = await sql<{ n: string }>(
      url,
      'SELECT COUNT(DISTINCT block) AS n FROM run_blocks WHERE tenant_id = $1 AND level = 2',
      [a.tenantId],
    );
    expect(Number(superblocks[0]!.n)).toBeGreaterThan(3);
    const newestFirst = [...mine].reverse();
    const offsets = [199, 200, 201, 350, 511, 512, 600, 777, 895, 899, 900, 950];
    const check = async (label: string) => {
      for (const offset of offsets) {
        const page = (await store.runs.list(a.tenantId, {}, 7, offset))!;
        expect(
          page.items.map((r) => (JSON.parse(r) as RunRow).id),
          `${label}, offset ${offset}`,
        ).toEqual(newestFirst.slice(offset, offset + 7));
        expect(page.total).toBe(900);
      }
    };
    await check('striped');
    // maintenance folds the stripes of blocks the sequence has left behind, and no page moves
    const striped = async () =>
      Number(
        (
          await sql<{ n: string }>(
            url,
            'SELECT COUNT(*) AS n FROM run_blocks WHERE stripe > 0 AND tenant_id = $1',
            [a.tenantId],
          )
        )[0]!.n,
      );
    const before = await striped();
    await store.maintain();
    expect(await striped()).toBeLessThan(before / 10);
    await check('folded');
    const exactBlocks = await sql(
      url,
      'SELECT seq >> 10 AS block, COUNT(*)::bigint AS n FROM runs WHERE tenant_id = $1 GROUP BY 1 ORDER BY 1',
      [a.tenantId],
    );
    const kept = await sql(
      url,
      'SELECT block, SUM(n)::bigint AS n FROM run_blocks WHERE tenant_id = $1 AND level = 1 GROUP BY 1 ORDER BY 1',
      [a.tenantId],
    );
    expect(kept).toEqual(exactBlocks);
    const exactSuperblocks = await sql(
      url,
      'SELECT seq >> 16 AS block, COUNT(*)::bigint AS n FROM runs WHERE tenant_id = $1 GROUP BY 1 ORDER BY 1',
      [a.tenantId],
    );
    const keptSuperblocks = await sql(
      url,
      'SELECT block, SUM(n)::bigint AS n FROM run_blocks WHERE tenant_id = $1 AND level = 2 GROUP BY 1 ORDER BY 1',
      [a.tenantId],
    );
    expect(keptSuperblocks).toEqual(exactSuperblocks);
    // several processes maintaining at once, while runs are created: still exact
    const other = await open(url);
    const more: string[] = [];
    await Promise.all([
      store.maintain(),
      other.maintain(),
      (async () => {
        for (let i = 0; i < 50; i++) {
          const run = a.run();
          await inUnits(other).runs.create(run, 100_000);
          more.push(run.id);
        }
      })(),
      store.maintain(),
    ]);
    newestFirst.unshift(...more.reverse());
    const page = (await store.runs.list(a.tenantId, {}, 7, 600))!;
    expect(page.items.map((r) => (JSON.parse(r) as RunRow).id)).toEqual(newestFirst.slice(600, 607));
    expect(page.total).toBe(950);
  });
});

describe('the event log', () => {
  /** One transaction of its own connection, held open between steps as a slow writer would. */
  async function transaction(url: string) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    cleanup.push(() => client.end());
    await client.query('BEGIN');
    return {
      /** Takes the transaction id now, before any other write: commit order is not id order. */
      takeXid: () => client.query('SELECT pg_current_xact_id()'),
      insert: async (tenantId: string) => {
        const id = randomUUID();
        await client.query(
          `INSERT INTO events (id, tenant_id, type, created_at, body)
           VALUES ($1, $2, 'upload.completed', $3, json_build_object('id', $1::text)::text)`,
          [id, tenantId, new Date().toISOString()],
        );
        return id;
      },
      commit: () => client.query('COMMIT'),
    };
  }

  /** What a client reading twice (resuming after the last event it saw) and the newest-first list get. */
  async function readTwiceAround(
    store: Store,
    tenantId: string,
    between: () => Promise<unknown>,
  ): Promise<{ streamed: string[]; listed: string[] }> {
    const start = await store.events.head();
    const first = await store.events.since([tenantId], start, 100);
    await between();
    const last = first.events.at(-1);
    const resumeFrom = last ? (await store.events.positionOf(tenantId, last.id))! : first.upTo;
    const second = await store.events.since([tenantId], resumeFrom, 100);
    const listed = (await store.events.list(tenantId, undefined, 100))!.items.map(
      (body) => (JSON.parse(body) as { id?: string }).id ?? '',
    );
    return { streamed: [...first.events, ...second.events].map((e) => e.id), listed };
  }

  it.each([
    ['the late committer took its transaction id first', true],
    ['the late committer took its transaction id second', false],
  ])(
    'a commit after a later-inserted one is still read, once, and resuming skips nothing (%s)',
    async (_, lateFirst) => {
      const url = await freshDatabase();
      const store = await open(url);
      const { tenantId } = await tenantWithFile(store, 'log');
      const late = await transaction(url);
      const early = await transaction(url);
      if (lateFirst) await late.takeXid();
      else await early.takeXid();
      // X is inserted first (the smaller seq) and commits last
      const x = await late.insert(tenantId);
      const y = await early.insert(tenantId);
      await early.commit();
      const { streamed, listed } = await readTwiceAround(store, tenantId, () => late.commit());
      expect(streamed.toSorted()).toEqual([x, y].toSorted());
      // the list shows the same order, newest first
      expect(listed.filter((id) => id === x || id === y)).toEqual(streamed.toReversed());
    },
  );

  it('a rolled-back event is never read, and a transaction left open holds back no other', async () => {
    const url = await freshDatabase();
    const store = await open(url);
    const { tenantId } = await tenantWithFile(store, 'log');
    const start = await store.events.head();
    const holder = await transaction(url);
    const held = await holder.insert(tenantId);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    cleanup.push(() => client.end());
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO events (id, tenant_id, type, created_at, body) VALUES ($1, $2, 'upload.completed', $3, '{}')`,
      [randomUUID(), tenantId, new Date().toISOString()],
    );
    await client.query('ROLLBACK');
    const writer = await transaction(url);
    const committed = await writer.insert(tenantId);
    await writer.commit();
    const first = await store.events.since([tenantId], start, 100);
    expect(first.events.map((e) => e.id)).toEqual([committed]);
    await holder.commit();
    const second = await store.events.since([tenantId], first.upTo, 100);
    expect(second.events.map((e) => e.id)).toEqual([held]);
    expect(second.upTo).toBe(second.events[0]!.position);
    expect(second.upTo > first.upTo).toBe(true);
  });

  it("publishes what a process committed but did not publish, on any reader's next read", async () => {
    const url = await freshDatabase();
    const store = await open(url);
    const { tenantId } = await tenantWithFile(store, 'log');
    const start = await store.events.head();
    const writer = await transaction(url);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await writer.insert(tenantId));
    await writer.commit();
    const [unpublished] = await sql<{ n: string }>(
      url,
      'SELECT count(*) AS n FROM events WHERE position IS NULL',
    );
    expect(Number(unpublished!.n)).toBe(3);
    // unpublished events are not listed: the list and the stream show one log
    expect((await store.events.list(tenantId, undefined, 100))!.items).toHaveLength(1);
    expect((await store.events.since([tenantId], start, 100)).events.map((e) => e.id)).toEqual(ids);
  });

  it('publishes them in the maintenance pass too, and wakes the streams, with no write or read', async () => {
    const url = await freshDatabase();
    const store = await open(url);
    const { tenantId } = await tenantWithFile(store, 'log');
    let woken = 0;
    const unwatch = store.events.watch(() => (woken += 1));
    cleanup.push(async () => unwatch());
    const writer = await transaction(url);
    await writer.insert(tenantId);
    await writer.commit();
    const unpublished = async () =>
      Number(
        (await sql<{ n: string }>(url, 'SELECT count(*) AS n FROM events WHERE position IS NULL'))[0]!.n,
      );
    expect(await unpublished()).toBe(1);
    woken = 0;
    await store.maintain();
    expect(await unpublished()).toBe(0);
    expect(woken).toBeGreaterThan(0);
    // nothing left to publish: no stream is woken for nothing (once the first pass's notice has come)
    await new Promise((resolve) => setTimeout(resolve, 200));
    woken = 0;
    await store.maintain();
    expect(woken).toBe(0);
  });
});

describe('engine errors', () => {
  it('a statement past DATABASE_STATEMENT_TIMEOUT_MS is StoreUnavailableError, and the store works after', async () => {
    const url = await freshDatabase();
    const store = await open(url, { statementTimeoutMs: 200 });
    const blocker = new pg.Client({ connectionString: url });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE tenants IN ACCESS EXCLUSIVE MODE');
      const error = await store.tenants.list().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect((error as Error).message).toMatch(/time limit/);
      await blocker.query('ROLLBACK');
      expect(await store.tenants.list()).toEqual([]);
    } finally {
      await blocker.end();
    }
  });

  it('an unreachable server is StoreUnavailableError at open', async () => {
    const error = await openPostgresStore(
      options('postgres://postgres@127.0.0.1:9/nowhere', { connectTimeoutMs: 1000 }),
      runLifecycle,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnavailableError);
  });

  it('a server whose database is unreachable does not start: one clear line, exit 1', async () => {
    const child = spawn(process.execPath, [built('src/start/server.ts')], {
      cwd: PROJECT_ROOT,
      env: {
        ...process.env,
        DATABASE_URL: 'postgres://postgres:secret@127.0.0.1:9/nowhere',
        DATABASE_CONNECT_TIMEOUT_MS: '1000',
        PORT: '0',
        METRICS_PORT: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^start-up: the database is unavailable \(.*ECONNREFUSED.*\); check DATABASE_URL/);
    expect(stderr).not.toContain('secret');
  });

  it('a malformed DATABASE_URL is a configuration error', async () => {
    const child = spawn(process.execPath, [built('src/start/server.ts')], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, DATABASE_URL: 'mysql://x', DATABASE_POOL_SIZE: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    expect(await new Promise((resolve) => child.on('exit', resolve))).toBe(1);
    expect(stderr).toContain(
      'configuration: DATABASE_URL must be a postgres://user:password@host:port/database URL',
    );
    expect(stderr).toContain('configuration: DATABASE_POOL_SIZE must be a whole number >= 1, got "0"');
  });
});

describe('wake-ups', () => {
  it('a run queued by another process wakes a watching worker at once (LISTEN/NOTIFY)', async () => {
    const url = await freshDatabase();
    const worker = await open(url);
    const api = await open(url);
    const { run, tenantId } = await tenantWithFile(api, 't');
    let woken = 0;
    const unwatch = worker.runs.watch(() => woken++);
    await new Promise((resolve) => setTimeout(resolve, 300)); // LISTEN is issued
    await inUnits(api).runs.create(run(), 1000);
    await expect.poll(() => woken, { timeout: 2000 }).toBeGreaterThan(0);
    // a rerun queues again and wakes too
    const done = run();
    await inUnits(api).runs.create(done, 1000);
    const claim = (await worker.runs.claim(
      'w',
      new Date().toISOString(),
      new Date(Date.now() + 60_000).toISOString(),
    ))!;
    await inUnits(worker).runs.cancel(tenantId, claim.run.id, new Date().toISOString());
    const before = woken;
    await inUnits(api).runs.rerun(tenantId, claim.run.id, randomUUID(), new Date().toISOString(), 1000);
    await expect.poll(() => woken, { timeout: 2000 }).toBeGreaterThan(before);
    unwatch();
    const after = woken;
    await inUnits(api).runs.create(run(), 1000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(woken).toBe(after);
  });

  it('a listening connection the server dropped is opened again, and wakes workers again', async () => {
    const url = await freshDatabase();
    const worker = await open(url);
    const api = await open(url);
    const { run } = await tenantWithFile(api, 't');
    let woken = 0;
    const unwatch = worker.runs.watch(() => woken++);
    try {
      await expect.poll(() => woken, { timeout: 2000 }).toBeGreaterThan(0); // told once LISTEN is issued
      const killed = await sql<{ n: string }>(
        url,
        `SELECT COUNT(pg_terminate_backend(pid)) AS n FROM pg_stat_activity
         WHERE application_name LIKE '%:listen' AND datname = current_database()`,
      );
      expect(killed[0]!.n).toBe('1');
      const before = woken;
      // back within about a second, and it says so
      await expect.poll(() => woken, { timeout: 4000 }).toBeGreaterThan(before);
      const after = woken;
      await inUnits(api).runs.create(run(), 1000);
      await expect.poll(() => woken, { timeout: 2000 }).toBeGreaterThan(after);
    } finally {
      unwatch();
    }
  });
});

describe('the token cache', () => {
  it('forgets a token revoked by another process at once, and is off while it cannot hear revocations', async () => {
    const url = await freshDatabase();
    const api = await open(url);
    const admin = await open(url);
    const tenant = await new Tenants(admin, systemClock).create('t');
    const hash = hashToken(tenant.token);
    expect((await api.tenants.lookupToken(hash))?.revokedAt).toBeNull();
    // cached once the process listens (its LISTEN answered, not only its connection open: polling for the
    // connection in pg_stat_activity once let a lookup in between go uncached): a change made behind its
    // back (no notification) is not seen. Each round changes what the lookup before it found, whether that
    // came from the cache or the table.
    const at = new Date().toISOString();
    await expect
      .poll(
        async () => {
          const before = (await api.tenants.lookupToken(hash))?.expiresAt;
          const changed = before === null ? at : null;
          await sql(url, 'UPDATE api_tokens SET expires_at = $1 WHERE id = $2', [changed, tenant.token_id]);
          return (await api.tenants.lookupToken(hash))?.expiresAt === before;
        },
        { timeout: 3000 },
      )
      .toBe(true);
    const listening = await sql<{ n: string }>(
      url,
      `SELECT COUNT(*) AS n FROM pg_stat_activity WHERE application_name = 'engine-test:listen'`,
    );
    expect(Number(listening[0]!.n)).toBeGreaterThan(0);
    // a revocation through the store is heard by every process
    await admin.platform.change((tx) => tx.tenants.revokeToken(tenant.tenant_id, tenant.token_id, at));
    await expect
      .poll(async () => (await api.tenants.lookupToken(hash))?.revokedAt, { timeout: 1000 })
      .toBe(at);
    // without its LISTEN connection the cache is off: every lookup reads the table
    await sql(
      url,
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'engine-test:listen'`,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    await sql(url, 'UPDATE api_tokens SET expires_at = NULL WHERE id = $1', [tenant.token_id]);
    expect((await api.tenants.lookupToken(hash))?.expiresAt).toBeNull();
    await sql(url, 'UPDATE api_tokens SET expires_at = $1 WHERE id = $2', [at, tenant.token_id]);
    expect((await api.tenants.lookupToken(hash))?.expiresAt).toBe(at);
  });
});
