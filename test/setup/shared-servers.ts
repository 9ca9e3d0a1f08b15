/**
 * The servers the projects share for a whole run: one PostgreSQL cluster (postgres, s3, haproxy) and one
 * Swift (s3). vitest runs every project's global setup one after the other, each through its own module
 * graph, so both are kept on the process with a count of the projects using them. The first setup starts
 * them all at once (`startWhatProjectsNeed`), beside the build: one after the other they cost ~20 s of a
 * run's wall time.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startLocalPostgres } from '../../stack/postgres.js';
import { type S3Server, startLocalSwiftInBackground, stopLocalSwiftInBackground } from '../../stack/swift.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import { runLifecycle } from '../../src/runs/lifecycle.js';

export interface SharedPostgres {
  url: string;
  /** A database with every migration applied, which no one connects to: the source of each clone. */
  template: string;
  stop(): Promise<void>;
}

export interface SharedSwift {
  server: S3Server;
  stop(): Promise<void>;
}

interface Held<T> {
  started: Promise<T>;
  users: number;
}

const servers = {
  postgres: Symbol.for('open-tenant.test-postgres'),
  swift: Symbol.for('open-tenant.test-swift'),
};
type Holders = { [servers.postgres]?: Held<SharedPostgres>; [servers.swift]?: Held<SharedSwift> };
const holders = globalThis as typeof globalThis & Holders;

/**
 * A server for tests only: nothing here must survive a crash of the machine, so it skips the flushes that
 * protect against one (the suites kill our processes, never PostgreSQL's).
 */
const THROWAWAY = { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' };

/**
 * Ports of the shared servers, below Linux's ephemeral range (32768-60999), where an outgoing connection of
 * any process may hold a port at the moment a server binds it, and above the server processes' range
 * (test/helpers/processes.ts: 10000-29999). Swift takes five ports from its own.
 */
const swiftPort = () => 30_000 + 5 * Math.floor(Math.random() * 240);
const postgresPort = () => 31_200 + Math.floor(Math.random() * 1_500);
const POSTGRES_ATTEMPTS = 3;

async function startPostgresServer(): Promise<{ url: string; stop(): Promise<void> }> {
  const given = process.env.TEST_DATABASE_URL;
  if (given) return { url: given, stop: async () => undefined };
  const failures: string[] = [];
  // a port taken by something else fails the start: another port then
  for (let attempt = 1; attempt <= POSTGRES_ATTEMPTS; attempt++) {
    const dir = mkdtempSync(path.join(tmpdir(), 'ota-postgres-'));
    const port = postgresPort();
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
      failures.push(`port ${port}: ${(error as Error).message.trim()}; ${serverLogTail(dir)}`);
      rmSync(dir, { recursive: true, force: true });
    }
  }
  throw new Error(
    `The PostgreSQL suites cannot run: no PostgreSQL server could be started (${failures.join(' | ')}). ` +
      'Set TEST_DATABASE_URL to a server of yours, or install PostgreSQL.',
  );
}

/** The last lines of a cluster's log, which say why it did not start (pg_ctl only says that it did not). */
function serverLogTail(dir: string): string {
  try {
    return `server.log: ${readFileSync(path.join(dir, 'server.log'), 'utf8').trim().split('\n').slice(-3).join(' / ')}`;
  } catch {
    return 'no server.log';
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

async function startPostgres(): Promise<SharedPostgres> {
  const server = await startPostgresServer();
  const template = `ota_template_${randomBytes(6).toString('hex')}`;
  try {
    await onServer(server.url, `CREATE DATABASE ${template}`);
    const templateUrl = new URL(server.url);
    templateUrl.pathname = `/${template}`;
    const store = await openPostgresStore(
      {
        url: templateUrl.href,
        poolSize: 1,
        statementTimeoutMs: 60_000,
        connectTimeoutMs: 10_000,
        applicationName: 'test-template',
      },
      runLifecycle,
    );
    await store.close();
  } catch (error) {
    // a template that cannot be made leaves no server behind
    await server.stop();
    throw error;
  }
  return {
    url: server.url,
    template,
    async stop() {
      await onServer(server.url, `DROP DATABASE IF EXISTS ${template} WITH (FORCE)`).catch(() => undefined);
      await server.stop();
    },
  };
}

async function startSwift(): Promise<SharedSwift> {
  const given = process.env.TEST_S3_ENDPOINT;
  if (given) {
    const server = {
      endpoint: given,
      accessKeyId: process.env.TEST_S3_ACCESS_KEY_ID ?? 'test:tester',
      secretAccessKey: process.env.TEST_S3_SECRET_ACCESS_KEY ?? 'testing',
      region: process.env.TEST_S3_REGION ?? 'us-east-1',
    };
    return { server, stop: async () => undefined };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'ota-swift-'));
  const port = swiftPort();
  try {
    const swift = await startLocalSwiftInBackground(dir, port);
    const { endpoint, accessKeyId, secretAccessKey, region } = swift;
    return {
      server: { endpoint, accessKeyId, secretAccessKey, region },
      async stop() {
        await stopLocalSwiftInBackground(dir);
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await stopLocalSwiftInBackground(dir).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
    const stderr = String((error as { stderr?: string }).stderr ?? '').trim();
    throw new Error(
      `The S3 suites cannot run: Swift did not start (${stderr || (error as Error).message}). ` +
        'Set TEST_S3_ENDPOINT to an S3 server of yours, or install Swift: bash scripts/swift.sh install',
    );
  }
}

const starters = { postgres: startPostgres, swift: startSwift };
type Kind = keyof typeof starters;
type Shared<K extends Kind> = Awaited<ReturnType<(typeof starters)[K]>>;

function held<K extends Kind>(kind: K): Held<Shared<K>> {
  const symbol = servers[kind];
  const existing = holders[symbol] as Held<Shared<K>> | undefined;
  if (existing) return existing;
  const started = starters[kind]() as Promise<Shared<K>>;
  // a start that fails before a project waits for it is reported by that project, not as unhandled
  started.catch(() => undefined);
  const fresh: Held<Shared<K>> = { started, users: 0 };
  (holders as Record<symbol, unknown>)[symbol] = fresh;
  return fresh;
}

/**
 * Takes a share of the server (starting it if no one has) until the returned release is called; the last
 * release stops it.
 */
export async function useShared<K extends Kind>(
  kind: K,
): Promise<{ shared: Shared<K>; release(): Promise<void> }> {
  const holder = held(kind);
  holder.users++;
  let shared: Shared<K>;
  try {
    shared = await holder.started;
  } catch (error) {
    holder.users--;
    throw error;
  }
  return {
    shared,
    async release() {
      if (--holder.users > 0) return;
      delete (holders as Record<symbol, unknown>)[servers[kind]];
      await shared.stop();
    },
  };
}

const NEEDS: Record<string, Kind[]> = {
  postgres: ['postgres'],
  haproxy: ['postgres'],
  s3: ['postgres', 'swift'],
};

/** Starts, without waiting, every shared server a project of this run needs. */
export function startWhatProjectsNeed(project: TestProject): void {
  for (const { name } of project.vitest.projects) for (const kind of NEEDS[name] ?? []) held(kind);
}

/** Stops a server started ahead for a project that turned out to have no test file in this run. */
export async function stopUnused(): Promise<void> {
  for (const kind of Object.keys(servers) as Kind[]) {
    const holder = holders[servers[kind]];
    if (!holder || holder.users > 0) continue;
    delete (holders as Record<symbol, unknown>)[servers[kind]];
    await holder.started.then((shared) => shared.stop()).catch(() => undefined);
  }
}
