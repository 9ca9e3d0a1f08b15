/**
 * The PostgreSQL server of every project that needs one (postgres, s3, haproxy): TEST_DATABASE_URL when set
 * (a server of your own), else one throwaway cluster started here for the whole run and removed afterwards.
 * Each test takes its own database on it: a clone of a template that the current migrations were applied to
 * once (`CREATE DATABASE … TEMPLATE`), or an empty one for the tests of the migrations themselves. When no
 * server works the PostgreSQL suites fail with the reason: they never pass without having run.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startLocalPostgres } from '../../stack/postgres.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
    /** A database with every migration applied, which no one connects to: the source of each clone. */
    postgresTemplate: string;
  }
}

interface Shared {
  url: string;
  template: string;
  stop(): Promise<void>;
}

// Every project's global setup runs in vitest's main process, each through its own module graph: the one
// server is kept on the process, with a count of the projects using it.
const key = Symbol.for('open-tenant.test-postgres');
type Holder = { shared: Promise<Shared>; users: number };
const holder = globalThis as typeof globalThis & { [key]?: Holder };

/**
 * A server for tests only: nothing here must survive a crash of the machine, so it skips the flushes that
 * protect against one (the suites kill our processes, never PostgreSQL's).
 */
const THROWAWAY = { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' };

async function startServer(): Promise<{ url: string; stop(): Promise<void> }> {
  const given = process.env.TEST_DATABASE_URL;
  if (given) return { url: given, stop: async () => undefined };
  const dir = mkdtempSync(path.join(tmpdir(), 'ota-postgres-'));
  const port = 40_000 + Math.floor(Math.random() * 20_000);
  try {
    const server = await startLocalPostgres(dir, port, undefined, THROWAWAY);
    return {
      url: server.url,
      async stop() {
        server.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(
      `The PostgreSQL suites cannot run: no PostgreSQL server could be started (${(error as Error).message}). ` +
        'Set TEST_DATABASE_URL to a server of yours, or install PostgreSQL.',
    );
  }
}

async function onServer(url: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

async function startShared(): Promise<Shared> {
  const server = await startServer();
  const template = `ota_template_${randomBytes(6).toString('hex')}`;
  await onServer(server.url, `CREATE DATABASE ${template}`);
  const templateUrl = new URL(server.url);
  templateUrl.pathname = `/${template}`;
  const store = await openPostgresStore({
    url: templateUrl.href,
    poolSize: 1,
    statementTimeoutMs: 60_000,
    connectTimeoutMs: 10_000,
    applicationName: 'test-template',
  });
  await store.close();
  return {
    url: server.url,
    template,
    async stop() {
      await onServer(server.url, `DROP DATABASE IF EXISTS ${template} WITH (FORCE)`).catch(() => undefined);
      await server.stop();
    },
  };
}

export default async function setup(project: TestProject) {
  const held = (holder[key] ??= { shared: startShared(), users: 0 });
  held.users++;
  let shared: Shared;
  try {
    shared = await held.shared;
  } catch (error) {
    held.users--;
    throw error;
  }
  project.provide('postgresUrl', shared.url);
  project.provide('postgresTemplate', shared.template);
  return async () => {
    if (--held.users > 0) return;
    delete holder[key];
    await shared.stop();
  };
}
