/**
 * Which storage engine the running test project uses (vitest.config.ts runs the HTTP, process and store
 * suites once per engine), and a fresh database of it for each test that needs one.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { inject } from 'vitest';
import { int8AsNumber } from '../../src/store/postgres/database.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import type { Store } from '../../src/store/types.js';
import { blobEnv } from './blobs.js';
import { runLifecycle } from '../../src/runs/lifecycle.js';

export type Engine = 'sqlite' | 'postgres';

export const engine: Engine = process.env.TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';

async function createDatabase(from?: string): Promise<string> {
  const server = new URL(inject('postgresUrl'));
  const name = `ota_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server.href });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}${from ? ` TEMPLATE ${from} STRATEGY FILE_COPY` : ''}`);
  } finally {
    await admin.end();
  }
  server.pathname = `/${name}`;
  return server.href;
}

/** A new empty PostgreSQL database on the test server, as a DATABASE_URL: for the migrations' own tests. */
export async function newPostgresDatabase(): Promise<string> {
  return createDatabase();
}

/**
 * A new PostgreSQL database with every migration applied, as a DATABASE_URL: a copy of the run's template
 * (test/setup/postgres.ts), which costs a file copy instead of running each migration again.
 */
export async function migratedPostgresDatabase(): Promise<string> {
  return createDatabase(inject('postgresTemplate'));
}

/** Drops a test database, whoever is still connected to it. */
export async function dropPostgresDatabase(url: string): Promise<void> {
  const server = new URL(inject('postgresUrl'));
  const name = new URL(url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: server.href });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/** The environment that points a server, worker or admin CLI at a new database of the project's engine. */
export async function engineEnv(): Promise<Record<string, string>> {
  return {
    ...(engine === 'postgres' ? { DATABASE_URL: await migratedPostgresDatabase() } : {}),
    ...(await blobEnv()),
  };
}

/**
 * Runs a statement on a deployment's database, whichever the engine: for the few checks that look under
 * the API. `?` placeholders; rows as the driver gives them.
 */
export async function queryDatabase<R>(
  dataDir: string,
  databaseUrl: string | undefined,
  sql: string,
  params: unknown[] = [],
): Promise<R[]> {
  if (databaseUrl) {
    // counts and sums as numbers, as SQLite gives them (the tests' figures are small)
    const client = new pg.Client({ connectionString: databaseUrl, types: int8AsNumber });
    await client.connect();
    try {
      let n = 0;
      return (
        await client.query(
          sql.replace(/\?/g, () => `$${++n}`),
          params,
        )
      ).rows as R[];
    } finally {
      await client.end();
    }
  }
  const db = new Database(path.join(dataDir, 'open-tenant.sqlite'));
  try {
    const statement = db.prepare(sql);
    return statement.reader ? (statement.all(...params) as R[]) : (statement.run(...params), []);
  } finally {
    db.close();
  }
}

export interface TestStore {
  store: Store;
  /** A statement on the store's database (`?` placeholders), for checks against exact COUNT and SUM. */
  query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<R[]>;
  /** Another store on the same database, as a second process would open it (closed with this one). */
  another(): Promise<Store>;
  close(): Promise<void>;
}

/** A store on a new empty database of the project's engine. */
export async function openTestStore(): Promise<TestStore> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ota-store-'));
  const { DATABASE_URL: url } = await engineEnv();
  const open = async () =>
    url
      ? openPostgresStore(
          {
            url,
            poolSize: 10,
            statementTimeoutMs: 10_000,
            connectTimeoutMs: 5_000,
            applicationName: 'store-test',
          },
          runLifecycle,
        )
      : openSqliteStore(dataDir, runLifecycle);
  const store = await open();
  const others: Store[] = [];
  return {
    store,
    query: (sql, params) => queryDatabase(dataDir, url, sql, params),
    async another() {
      const other = await open();
      others.push(other);
      return other;
    },
    async close() {
      await Promise.all(others.map((other) => other.close()));
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
      if (url) await dropPostgresDatabase(url);
    },
  };
}
