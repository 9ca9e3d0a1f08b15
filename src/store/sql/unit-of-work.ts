import type { EventDataJson, EventType } from '../types.js';
import type { SqlDialect, SqlSession, SqlValue } from './dialect.js';
import { writeEvent } from './outbox.js';

/**
 * The session of one write transaction, with what must happen once it has committed: the events it wrote
 * published (the engine's step: SQLite wakes this process's streams, PostgreSQL notifies every process),
 * and the hooks its writers left. Nothing of it runs when the transaction rolls back.
 */
export interface WorkSession extends SqlSession {
  /** Writes the event and its pending deliveries in this transaction (outbox.ts writeEvent). */
  emit(tenantId: string, type: EventType, at: string, data: EventDataJson): Promise<void>;
  /** An event this transaction wrote by a statement of its own (PostgreSQL's one-statement run creation). */
  emitted(): void;
  /** Runs once the transaction has committed. */
  afterCommit(hook: () => void): void;
}

/** A row a tenant's unit is given to write: refused unless it is the unit's tenant's (a service's mistake). */
export function ofUnitTenant(row: { id: string; tenant_id: string }, tenantId: string): void {
  if (row.tenant_id !== tenantId) throw new Error(`${row.id} is not of the unit's tenant`);
}

/** Runs `work` in one write transaction, then what its commit calls for. */
export interface Transact {
  <T>(work: (tx: WorkSession) => Promise<T>): Promise<T>;
  /**
   * Runs `work` whose one statement is atomic alone (PostgreSQL's one-statement run creation) outside a
   * transaction, then what its commit calls for: a BEGIN and a COMMIT around it would be two more round
   * trips (about 30 % of a creation's throughput, measured).
   */
  alone<T>(work: (tx: WorkSession) => Promise<T>): Promise<T>;
}

/**
 * Transactions that end the same way on both engines: the work commits (PostgreSQL may run it again after a
 * serialization failure: what an attempt asked for is forgotten with it), then its hooks run, then, when it
 * wrote events, `published` is awaited: the repositories never call the engine's publish step themselves.
 */
export function transactor(sql: SqlDialect, published: () => Promise<void>): Transact {
  const within = async <T>(
    open: (work: (session: SqlSession) => Promise<T>) => Promise<T>,
    work: (tx: WorkSession) => Promise<T>,
  ): Promise<T> => {
    let hooks: (() => void)[] = [];
    let wroteEvents = false;
    const result = await open(async (session) => {
      hooks = [];
      wroteEvents = false;
      const tx: WorkSession = {
        all: <R extends object>(text: string, values?: readonly SqlValue[]) => session.all<R>(text, values),
        get: <R extends object>(text: string, values?: readonly SqlValue[]) => session.get<R>(text, values),
        column: <C extends string | number | null>(text: string, values?: readonly SqlValue[]) =>
          session.column<C>(text, values),
        run: (text: string, values?: readonly SqlValue[]) => session.run(text, values),
        async emit(tenantId, type, at, data) {
          await writeEvent(sql, session, tenantId, type, at, data);
          wroteEvents = true;
        },
        emitted() {
          wroteEvents = true;
        },
        afterCommit(hook) {
          hooks.push(hook);
        },
      };
      return work(tx);
    });
    for (const hook of hooks) hook();
    if (wroteEvents) await published();
    return result;
  };
  const transact = <T>(work: (tx: WorkSession) => Promise<T>) =>
    within<T>((inside) => sql.transaction(inside), work);
  return Object.assign(transact, {
    alone: <T>(work: (tx: WorkSession) => Promise<T>) => within<T>((inside) => inside(sql), work),
  });
}
