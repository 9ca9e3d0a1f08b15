/**
 * What a repository written once needs of an engine. Statements use `?` placeholders, in the order of
 * `values`, and SQL both engines accept: ON CONFLICT upserts, RETURNING, CAST(x AS bigint), FILTER on
 * aggregates, double-quoted aliases. Every other difference is a member here, not an `if` in a repository.
 */

/** What a placeholder may take: SQLite binds no booleans and PostgreSQL has no undefined. */
export type SqlValue = string | number | null;

/** Statements on a connection: the pool's, or the one of a transaction. */
export interface SqlSession {
  /** Every row the statement returns. */
  all<R extends object>(text: string, values?: readonly SqlValue[]): Promise<R[]>;
  /** The statement's first row, if any. */
  get<R extends object>(text: string, values?: readonly SqlValue[]): Promise<R | undefined>;
  /**
   * The first column of every row the statement returns: the run list's stored JSON, one string per row
   * (better-sqlite3 then builds no object per row, 30 % of a 20-row page's read).
   */
  column<T extends string | number | null>(text: string, values?: readonly SqlValue[]): Promise<T[]>;
  /** Runs a statement for its effect; how many rows it inserted, changed or deleted. */
  run(text: string, values?: readonly SqlValue[]): Promise<number>;
}

export type RowLock = 'wait' | 'skip-locked';

/**
 * A database as the shared repositories use it: the session (statements, transactions, turns) and, apart,
 * the SQL text that differs per engine (`text`). Repositories reach their engine through this alone.
 */
export interface SqlDialect extends SqlSession {
  /**
   * Runs `work` in one write transaction: all of it commits or none. `work` must reach the database through
   * `tx` alone (on SQLite the dialect's own statements wait for the transaction to end) and have no effect
   * outside it: PostgreSQL runs it again after a serialization failure or a deadlock.
   */
  transaction<T>(work: (tx: SqlSession) => Promise<T>): Promise<T>;
  /**
   * Makes the transactions that call it with the same `key` take turns until they end (a count checked
   * before an insert cannot then be passed by two at once): an advisory lock on PostgreSQL; nothing on
   * SQLite, whose writers take turns anyway.
   */
  takeTurn(tx: SqlSession, key: string): Promise<void>;
  /** The engine's SQL where the engines write it differently. */
  readonly text: SqlText;
}

/** SQL text that differs per engine: pure functions of their arguments, no database behind them. */
/**
 * A text parameter the planner must not read: SQLite (3.54) prepares a statement again whenever a new value is
 * bound to a text it compares in a read whose rows are ordered or grouped by a text column, so every request
 * for another tenant, day or time paid a full compile (the dashboard's sums 61 against 34 us, a 1M-row
 * transactions page 62.7 against 38.4, the pending uploads page 145 against 53). The cast hides the value;
 * PostgreSQL reads it the same. Such a read's LIMIT and OFFSET: `SqlText.pageBound`.
 */
export const TEXT = 'CAST(? AS text)';

export interface SqlText {
  /**
   * The clause that ends a SELECT whose rows the transaction will change: a row lock on PostgreSQL, where
   * writers run side by side; nothing on SQLite, where the write transaction holds the whole database.
   */
  rowLock(mode: RowLock): string;
  /**
   * A subquery of the texts in the JSON array bound to `placeholder` (`?`): one statement text for lists of
   * any length, where `IN (?, ?, ...)` would be a new statement (and a new prepared plan) per length.
   */
  jsonTexts(placeholder: string): string;
  /** An expression true when the text `part` occurs in the text `text` (both SQL expressions). */
  contains(text: string, part: string): string;
  /**
   * A planner hint after a table name: SQLite's INDEXED BY where its planner would walk the wrong index;
   * nothing on PostgreSQL, which has no hints and needs none there.
   */
  indexedBy(index: string): string;
  /**
   * A LIMIT or OFFSET value bound to `placeholder`: on SQLite `+?`, since SQLite (3.54) prepares an ordered
   * statement again for every new value bound to its LIMIT or OFFSET (a compile per page asked for); the
   * placeholder itself on PostgreSQL.
   */
  pageBound(placeholder: string): string;
  /**
   * The column that finds a row of a table with a text primary key at the least cost: SQLite's `rowid`, the
   * table's own b-tree key (its `id` is a second index, one more search per row: a deep transactions page
   * at 1M rows, offset 400, 130 against 87 us); the key `id` on PostgreSQL.
   */
  readonly rowKey: string;
  /** A query of the names (column `name`) of the tables that have `column` (a name written here, not bound). */
  tablesWithColumn(column: string): string;
}
