import path from 'node:path';
import type Database from 'better-sqlite3';
import type { SqlDialect, SqlSession, SqlText, SqlValue } from '../sql/dialect.js';
import { BUSY_TIMEOUT_MS, type Db } from './database.js';
import {
  giveBackWriteTurn,
  tryWriteTurn,
  turnGivenBack,
  type WriteTurn,
  writeTurnHolder,
  writeTurnOf,
} from './write-turns.js';

/** The transaction open on a database file in this process, if any. */
interface Gate {
  open: Promise<void> | undefined;
}

/**
 * One gate per database file for the whole thread: a second connection to the same file (another store
 * in this thread) that began a write while the first's transaction awaits would block the thread in
 * busy_timeout, and the first could never commit. It waits for the gate instead. Another thread of this
 * process waits for the write turn (./write-turns.ts); other processes wait in busy_timeout, which does not
 * stop this one.
 */
const gates = new Map<string, Gate>();

function gateOf(db: Db): Gate {
  const file = path.resolve(db.name);
  let gate = gates.get(file);
  if (!gate) gates.set(file, (gate = { open: undefined }));
  return gate;
}

/** SQLite's SQL text. */
const SQLITE_TEXT: SqlText = {
  rowLock: () => '',
  jsonTexts: (placeholder: string) => `(SELECT value FROM json_each(${placeholder}))`,
  contains: (text: string, part: string) => `instr(${text}, ${part}) > 0`,
  indexedBy: (index: string) => ` INDEXED BY ${index}`,
  pageBound: (placeholder: string) => `+${placeholder}`,
  rowKey: 'rowid',
  tablesWithColumn: (column: string) =>
    `SELECT m.name AS name FROM sqlite_master m, pragma_table_info(m.name) p
     WHERE m.type = 'table' AND p.name = '${column}' ORDER BY m.name`,
};

/**
 * The SQL dialect over the one better-sqlite3 connection every request of the thread shares. Its calls
 * are synchronous, so a transaction whose body awaits would let other requests' statements run inside it;
 * the dialect therefore keeps a gate: while a transaction is open, every statement outside it waits for the
 * commit. No transaction open, a read runs at once, in the caller's tick, and so does a write while no other
 * thread has the write turn (./write-turns.ts). Every repository reaches the database through the dialect,
 * so nothing goes around the gate or the turn.
 */
export class SqliteDialect implements SqlDialect {
  private readonly statements = new Map<string, Database.Statement>();
  private readonly pluckedStatements = new Map<string, Database.Statement>();
  private readonly gate: Gate;
  private readonly turn: WriteTurn;
  private readonly direct: SqlSession;

  /** Writes of this dialect waiting for the write turn: a close waits for them too. */
  private waitingForTurn = 0;

  constructor(
    private readonly db: Db,
    /** How long a write waits for another thread's write turn (SQLite's busy_timeout, by default). */
    private readonly busyTimeoutMs = BUSY_TIMEOUT_MS,
  ) {
    this.gate = gateOf(db);
    this.turn = writeTurnOf(db.name);
    this.direct = {
      column: async <T extends string | number | null>(text: string, values: readonly SqlValue[] = []) =>
        this.plucked(text).all(...values) as T[],
      all: async <R extends object>(text: string, values: readonly SqlValue[] = []) =>
        this.prepared(text).all(...values) as R[],
      get: async <R extends object>(text: string, values: readonly SqlValue[] = []) =>
        this.prepared(text).get(...values) as R | undefined,
      run: async (text: string, values: readonly SqlValue[] = []) =>
        this.prepared(text).run(...values).changes,
    };
  }

  private prepared(text: string): Database.Statement {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  private plucked(text: string): Database.Statement {
    let statement = this.pluckedStatements.get(text);
    if (!statement) {
      statement = this.db.prepare(text).pluck();
      this.pluckedStatements.set(text, statement);
    }
    return statement;
  }

  /**
   * Resolves once no transaction is open on the file and none of this dialect's waits for the write turn (at
   * once when none is). Another may have started by the time the caller goes on: whoever then uses the
   * connection checks again in its own tick (as the methods below do), never on the strength of this promise.
   */
  async idle(): Promise<void> {
    while (this.gate.open || this.waitingForTurn > 0) {
      await (this.gate.open ?? new Promise((resolve) => setTimeout(resolve, 5)));
    }
  }

  async all<R extends object>(text: string, values: readonly SqlValue[] = []): Promise<R[]> {
    while (this.gate.open) await this.gate.open;
    const statement = this.prepared(text);
    return this.alone(statement, () => statement.all(...values) as R[]);
  }

  async column<T extends string | number | null>(
    text: string,
    values: readonly SqlValue[] = [],
  ): Promise<T[]> {
    while (this.gate.open) await this.gate.open;
    const statement = this.plucked(text);
    return this.alone(statement, () => statement.all(...values) as T[]);
  }

  async get<R extends object>(text: string, values: readonly SqlValue[] = []): Promise<R | undefined> {
    while (this.gate.open) await this.gate.open;
    const statement = this.prepared(text);
    return this.alone(statement, () => statement.get(...values) as R | undefined);
  }

  async run(text: string, values: readonly SqlValue[] = []): Promise<number> {
    while (this.gate.open) await this.gate.open;
    const statement = this.prepared(text);
    return this.alone(statement, () => statement.run(...values).changes);
  }

  /**
   * A statement outside a transaction, once the gate is free: a read at once, and a write (its own transaction
   * in SQLite) at once when the write turn is free, else once it has it, as a transaction would.
   */
  private alone<T>(statement: Database.Statement, execute: () => T): T | Promise<T> {
    // a read returns its rows, not a promise: the caller's await then costs no more ticks than before
    if (statement.readonly) return execute();
    // the turn free, as it mostly is: the write too runs at once, in the caller's tick (the gate is free)
    if (tryWriteTurn(this.turn)) {
      try {
        return execute();
      } finally {
        giveBackWriteTurn(this.turn);
      }
    }
    return this.aloneWriting(execute);
  }

  private async aloneWriting<T>(execute: () => T): Promise<T> {
    const release = await this.takeGateAndTurn();
    try {
      return execute();
    } finally {
      release();
    }
  }

  async transaction<T>(work: (tx: SqlSession) => Promise<T>): Promise<T> {
    const release = await this.takeGateAndTurn();
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
      release();
    }
  }

  /**
   * This thread's gate and the process's write turn, both taken in one tick (two waiters woken together
   * cannot both begin), and their release. The turn is awaited with the gate free, so this connection's reads
   * go on meanwhile; once taken, this thread's other statements wait for the gate, never for the turn.
   */
  private async takeGateAndTurn(): Promise<() => void> {
    const deadline = performance.now() + this.busyTimeoutMs;
    this.waitingForTurn++;
    try {
      for (;;) {
        while (this.gate.open) await this.gate.open;
        if (tryWriteTurn(this.turn)) {
          let open!: () => void;
          this.gate.open = new Promise((resolve) => (open = resolve));
          return () => {
            giveBackWriteTurn(this.turn);
            this.gate.open = undefined;
            open();
          };
        }
        const left = deadline - performance.now();
        if (left <= 0) {
          // what SQLite's busy_timeout would have ended in: the store is unavailable for now
          const holder = writeTurnHolder(this.turn);
          throw Object.assign(
            new Error(
              `database is locked: thread ${holder} kept its write turn for ${this.busyTimeoutMs} ms`,
            ),
            { code: 'SQLITE_BUSY' },
          );
        }
        await turnGivenBack(this.turn, left);
      }
    } finally {
      this.waitingForTurn--;
    }
  }

  readonly text = SQLITE_TEXT;

  async takeTurn(): Promise<void> {}
}
