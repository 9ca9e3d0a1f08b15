import type Database from 'better-sqlite3';
import type { RowLock, SqlDialect, SqlSession, SqlValue } from '../sql/dialect.js';
import type { Db } from './database.js';

/**
 * The SQL dialect over the one better-sqlite3 connection every request of the process shares. Its calls
 * are synchronous, so a transaction whose body awaits would let other requests' statements run inside it;
 * the dialect therefore keeps a gate: while a transaction is open, every statement outside it (and every
 * call into a repository that uses the connection directly, see `gated`) waits for the commit. No
 * transaction open, a statement runs at once, in the caller's tick.
 */
export class SqliteDialect implements SqlDialect {
  readonly engine = 'sqlite';
  private readonly statements = new Map<string, Database.Statement>();
  private open: Promise<void> | undefined;
  private readonly direct: SqlSession;

  constructor(private readonly db: Db) {
    const prepared = (text: string): Database.Statement => {
      let statement = this.statements.get(text);
      if (!statement) {
        statement = db.prepare(text);
        this.statements.set(text, statement);
      }
      return statement;
    };
    this.direct = {
      all: async <R extends object>(text: string, values: readonly SqlValue[] = []) =>
        prepared(text).all(...values) as R[],
      get: async <R extends object>(text: string, values: readonly SqlValue[] = []) =>
        prepared(text).get(...values) as R | undefined,
      run: async (text: string, values: readonly SqlValue[] = []) => prepared(text).run(...values).changes,
    };
  }

  /**
   * Resolves once no transaction of this connection is open (at once when none is). Another may have
   * started by the time the caller goes on: whoever then uses the connection checks again in its own tick
   * (as the methods below do), never on the strength of this promise.
   */
  async idle(): Promise<void> {
    while (this.open) await this.open;
  }

  /** Undefined when no transaction is open: the caller may use the connection in this tick. */
  get busy(): Promise<void> | undefined {
    return this.open;
  }

  async all<R extends object>(text: string, values?: readonly SqlValue[]): Promise<R[]> {
    while (this.open) await this.open;
    return this.direct.all<R>(text, values);
  }

  async get<R extends object>(text: string, values?: readonly SqlValue[]): Promise<R | undefined> {
    while (this.open) await this.open;
    return this.direct.get<R>(text, values);
  }

  async run(text: string, values?: readonly SqlValue[]): Promise<number> {
    while (this.open) await this.open;
    return this.direct.run(text, values);
  }

  async transaction<T>(work: (tx: SqlSession) => Promise<T>): Promise<T> {
    // checked and taken in one tick: two waiters woken together cannot both begin
    while (this.open) await this.open;
    let release!: () => void;
    this.open = new Promise((resolve) => (release = resolve));
    try {
      // IMMEDIATE: the write lock now (waiting busy_timeout for another process), not at the first write
      this.db.exec('BEGIN IMMEDIATE');
      try {
        const result = await work(this.direct);
        this.db.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw error;
      }
    } finally {
      this.open = undefined;
      release();
    }
  }

  rowLock(_mode: RowLock): string {
    return '';
  }

  async takeTurn(): Promise<void> {}

  contains(text: string, part: string): string {
    return `instr(${text}, ${part}) > 0`;
  }

  indexedBy(index: string): string {
    return ` INDEXED BY ${index}`;
  }
}

/**
 * A repository that uses the connection directly (synchronous statements and transactions), made to wait
 * while a dialect transaction is open: its calls would otherwise run inside that transaction. Only its
 * async methods touch the connection (`watch` and the like register a callback and return at once).
 */
export function gated<R extends object>(repo: R, dialect: SqliteDialect): R {
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(repo, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function' || value.constructor.name !== 'AsyncFunction') return value;
      let method = wrapped.get(property);
      if (!method) {
        const call = (args: unknown[]): unknown =>
          dialect.busy ? dialect.busy.then(() => call(args)) : Reflect.apply(value, target, args);
        method = (...args: unknown[]) => call(args);
        wrapped.set(property, method);
      }
      return method;
    },
  });
}
