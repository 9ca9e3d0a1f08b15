import type { RowLock, SqlDialect, SqlSession, SqlText, SqlValue } from '../sql/dialect.js';
import type { Postgres, Queryable } from './database.js';

interface Prepared {
  text: string;
  name: string | undefined;
}

const prepared = new Map<string, Prepared>();
/**
 * Statements past this many distinct texts run unprepared: a text built per call (a list's length in it)
 * must not fill every connection with prepared statements.
 */
const MOST_PREPARED = 1_000;

/**
 * A statement written with `?` placeholders, as PostgreSQL takes it ($1, $2, ...), and its name: every
 * statement the repositories write is prepared once per connection (they are a fixed set of texts).
 */
export function positional(text: string): Prepared {
  let found = prepared.get(text);
  if (!found) {
    let n = 0;
    // placeholders outside quoted strings and identifiers only
    const converted = text.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|\?/g, (token) =>
      token === '?' ? `$${++n}` : token,
    );
    found = { text: converted, name: prepared.size < MOST_PREPARED ? `sql.${prepared.size}` : undefined };
    if (found.name !== undefined) prepared.set(text, found);
  }
  return found;
}

/** Statements on one client of the pool: a transaction's. */
function sessionOf(client: Queryable): SqlSession {
  const all = async <R extends object>(text: string, values: readonly SqlValue[] = []): Promise<R[]> =>
    (await client.query<R>({ ...positional(text), values: [...values] })).rows;
  return {
    all,
    column: async <T extends string | number | null>(text: string, values?: readonly SqlValue[]) =>
      (await all<Record<string, T>>(text, values)).map(firstValue),
    get: async <R extends object>(text: string, values?: readonly SqlValue[]): Promise<R | undefined> =>
      (await all<R>(text, values)).at(0),
    run: async (text, values = []) =>
      (await client.query({ ...positional(text), values: [...values] })).rowCount ?? 0,
  };
}

/** PostgreSQL's SQL text. */
const POSTGRES_TEXT: SqlText = {
  rowLock: (mode: RowLock) => (mode === 'wait' ? ' FOR UPDATE' : ' FOR UPDATE SKIP LOCKED'),
  // the texts of a jsonb array, as a subquery
  jsonTexts: (placeholder: string) => `(SELECT jsonb_array_elements_text(CAST(${placeholder} AS jsonb)))`,
  contains: (text: string, part: string) => `strpos(${text}, ${part}) > 0`,
  indexedBy: () => '',
  pageBound: (placeholder: string) => placeholder,
  rowKey: 'id',
  tablesWithColumn: (column: string) =>
    `SELECT table_name AS name FROM information_schema.columns
     WHERE column_name = '${column}' AND table_schema = current_schema() ORDER BY table_name`,
};

function firstValue<T>(row: Record<string, T>): T {
  for (const key in row) return row[key]!;
  throw new Error('a statement read for its first column returned a row without columns');
}

export class PostgresDialect implements SqlDialect {
  constructor(private readonly db: Postgres) {}

  async all<R extends object>(text: string, values: readonly SqlValue[] = []): Promise<R[]> {
    const { text: converted, name } = positional(text);
    return this.db.query<R>(converted, [...values], name);
  }

  async get<R extends object>(text: string, values?: readonly SqlValue[]): Promise<R | undefined> {
    return (await this.all<R>(text, values))[0];
  }

  async column<T extends string | number | null>(text: string, values?: readonly SqlValue[]): Promise<T[]> {
    return (await this.all<Record<string, T>>(text, values)).map(firstValue);
  }

  async run(text: string, values: readonly SqlValue[] = []): Promise<number> {
    const { text: converted, name } = positional(text);
    return this.db.execute(converted, [...values], name);
  }

  transaction<T>(work: (tx: SqlSession) => Promise<T>): Promise<T> {
    return this.db.transaction((client) => work(sessionOf(client)));
  }

  readonly text = POSTGRES_TEXT;

  async takeTurn(tx: SqlSession, key: string): Promise<void> {
    await tx.get('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [key]);
  }
}
