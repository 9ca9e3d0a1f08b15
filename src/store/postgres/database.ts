import pg from 'pg';
import { DiskFullError } from '../../kernel/errors.js';
import { StoreUnavailableError } from '../types.js';
import { type PostgresMigration, migrations } from './migrations.js';

export interface PostgresOptions {
  url: string;
  /** Connections this process keeps at most. */
  poolSize: number;
  /** A statement running longer is cancelled by the server (and the request answers 503). */
  statementTimeoutMs: number;
  /** Waiting longer for a free connection, or for a new one, fails like an unreachable server. */
  connectTimeoutMs: number;
  applicationName: string;
}

/** What a query runs on: the pool, or the client of a transaction. */
export type Queryable = Pick<pg.PoolClient, 'query'>;

// 64-bit integers (counts, sums, sequence numbers) as numbers: every one the store keeps is bounded by
// 2^53 - 1 (the ledger refuses to pass it), so nothing is rounded
export const int8AsNumber = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC) return Number;
    return pg.types.getTypeParser(oid, format);
  },
};

/** Serialization failures and deadlocks: the transaction did nothing and may simply run again. */
const RETRYABLE = new Set(['40001', '40P01']);
/** The server is going away, refuses connections, or cancelled a statement that ran too long. */
// ... or the database is gone or refuses our credentials: the operator's to fix, not the caller's
const UNAVAILABLE_CODES = new Set([
  '57014',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '53400',
  '3D000',
  '28000',
  '28P01',
]);
const UNAVAILABLE_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const ATTEMPTS = 4;

function code(error: unknown): string | undefined {
  return (error as { code?: unknown } | undefined)?.code as string | undefined;
}

/** Whether the engine could not do the work for a reason that says nothing about the request. */
export function isUnavailable(error: unknown): boolean {
  const c = code(error);
  // class 08 is a connection exception, but 08P01 (protocol violation) is a bug of ours
  if (c && (UNAVAILABLE_CODES.has(c) || (c.startsWith('08') && c !== '08P01') || UNAVAILABLE_ERRNOS.has(c)))
    return true;
  const message = error instanceof Error ? error.message : '';
  // node-postgres reports a lost or never-made connection by message only
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Cannot use a pool after calling end/.test(
    message,
  );
}

/** Turns the engine's transient failures into StoreUnavailableError; anything else is a bug and stays as is. */
export function translate(error: unknown): unknown {
  if (error instanceof StoreUnavailableError) return error;
  // disk_full: the server's disk, named as such to the caller and the operator (as SQLite's SQLITE_FULL)
  if (code(error) === '53100') return new DiskFullError(error);
  if (code(error) === '57014')
    return new StoreUnavailableError('a database statement ran past its time limit', error);
  if (isUnavailable(error) || (code(error) && RETRYABLE.has(code(error)!))) {
    return new StoreUnavailableError('the database is unavailable', error);
  }
  return error;
}

export class Postgres {
  readonly pool: pg.Pool;

  constructor(readonly options: PostgresOptions) {
    this.pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize,
      statement_timeout: options.statementTimeoutMs,
      connectionTimeoutMillis: options.connectTimeoutMs,
      application_name: options.applicationName,
      // Every statement is named and prepared once per connection; planned once too. PostgreSQL's default
      // re-plans a statement on every call when it guesses a custom plan cheaper, and planning the deep
      // run-list page costs more (~0.35 ms) than running it (~0.2 ms). The statements are written so that
      // their generic plans are index lookups whatever the parameters (see runs.ts).
      options: '-c plan_cache_mode=force_generic_plan',
      types: int8AsNumber,
    });
    // an idle connection the server dropped: the pool replaces it; the next query reports anything lasting
    this.pool.on('error', () => undefined);
    // a connection lost while checked out but between statements emits 'error' on its client, which
    // would end the process; the statement that uses it next reports the loss instead
    this.pool.on('connect', (client) => client.on('error', () => undefined));
  }

  /** A new connection outside the pool, for LISTEN. */
  listener(): pg.Client {
    return new pg.Client({
      connectionString: this.options.url,
      connectionTimeoutMillis: this.options.connectTimeoutMs,
      application_name: `${this.options.applicationName}:listen`,
      types: int8AsNumber,
    });
  }

  /** One statement; `name` prepares it once per connection (hot paths). */
  async query<R extends object>(text: string, values: unknown[] = [], name?: string): Promise<R[]> {
    return (await this.statement<R>(text, values, name)).rows;
  }

  /** One statement run for its effect: how many rows it inserted, changed or deleted. */
  async execute(text: string, values: unknown[] = [], name?: string): Promise<number> {
    return (await this.statement(text, values, name)).rowCount ?? 0;
  }

  private async statement<R extends object>(
    text: string,
    values: unknown[],
    name: string | undefined,
  ): Promise<pg.QueryResult<R>> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.pool.query<R>({ text, values, name });
      } catch (error) {
        if (attempt < ATTEMPTS && RETRYABLE.has(code(error) ?? '')) continue;
        throw translate(error);
      }
    }
  }

  /**
   * Runs `work` in one transaction, again from the start after a serialization failure or a deadlock
   * (the engine undid everything), so `work` must not have effects outside the database.
   */
  async transaction<T>(
    work: (tx: Queryable) => Promise<T>,
    isolation: 'READ COMMITTED' | 'REPEATABLE READ' = 'READ COMMITTED',
  ): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      let client: pg.PoolClient;
      try {
        client = await this.pool.connect();
      } catch (error) {
        throw translate(error);
      }
      let broken = false;
      // a connection lost between two statements is reported by the next one; without a listener the
      // client's 'error' event would end the process
      const lost = () => {
        broken = true;
      };
      client.on('error', lost);
      try {
        await client.query(`BEGIN ISOLATION LEVEL ${isolation}`);
        const result = await work(client);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        try {
          await client.query('ROLLBACK');
        } catch {
          broken = true; // the connection itself failed: drop it rather than hand it out again
        }
        if (attempt < ATTEMPTS && RETRYABLE.has(code(error) ?? '')) continue;
        throw translate(error);
      } finally {
        // a broken client is thrown away and may still report errors: it keeps its listener
        if (!broken) client.off('error', lost);
        client.release(broken);
      }
    }
  }

  async close(): Promise<void> {
    if (!this.pool.ended) await this.pool.end();
  }
}

/** Any fixed 64-bit key: every process migrating the same database takes the same lock. */
const MIGRATION_LOCK = 7_301_554_218;

/**
 * Applies pending migrations under a session advisory lock, so that processes starting together apply each
 * once; each migration commits with its row in schema_migrations.
 */
export async function migrate(db: Postgres, upTo: readonly PostgresMigration[] = migrations): Promise<void> {
  let client: pg.PoolClient;
  try {
    client = await db.pool.connect();
  } catch (error) {
    throw translate(error);
  }
  const lost = () => undefined; // reported by the next statement
  client.on('error', lost);
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)`);
    const applied = new Set(
      (await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map(
        (r) => r.version,
      ),
    );
    for (const m of upTo) {
      if (applied.has(m.version)) continue;
      await client.query('BEGIN');
      try {
        await client.query(m.sql);
        await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
          m.version,
          m.name,
          new Date().toISOString(),
        ]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    client.off('error', lost);
    client.release();
  }
}
