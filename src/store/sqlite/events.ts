import type { EventDataJson, EventJson, EventRepo, EventType, LogPosition, StoredEvent } from '../types.js';
import { newEventId, typeNeedle } from '../outbox-core.js';
import type { Db } from './database.js';
import { eventJson } from '../../records/event.js';

/** The single writer takes seq inside its transaction, so seq order is commit order: it is the position. */
const POSITION = "printf('%020d', seq)";
const EVENT = `${POSITION} AS position, id, tenant_id, type, created_at, body`;

/** Who hears this process's event writes (SQLite cannot tell another process's). */
const hearers = new WeakMap<Db, Set<() => void>>();
const announced = new WeakSet<Db>();

function hearersOf(db: Db): Set<() => void> {
  let set = hearers.get(db);
  if (!set) hearers.set(db, (set = new Set()));
  return set;
}

/** Tells this process's watchers once the writing transaction has returned (a rollback wakes them for nothing). */
export function announce(db: Db): void {
  if (announced.has(db)) return;
  announced.add(db);
  setImmediate(() => {
    announced.delete(db);
    for (const hear of hearersOf(db)) hear();
  });
}

/**
 * Writes events inside the caller's transaction: the event, and a pending delivery for every enabled
 * endpoint of the tenant that takes its type.
 */
export function outboxWriter(db: Db) {
  const insert = db.prepare(
    'INSERT INTO events (id, tenant_id, type, created_at, body) VALUES (@id, @tenant, @type, @at, @body)',
  );
  const fanOut = db.prepare(
    `INSERT INTO webhook_deliveries (endpoint_id, event_id, tenant_id, next_attempt_at, status)
     SELECT id, @id, tenant_id, @at, 'pending' FROM webhook_endpoints
     WHERE tenant_id = @tenant AND status = 'enabled' AND (events IS NULL OR instr(events, @needle) > 0)`,
  );
  return {
    /** `data`: the run's or the upload's JSON as it is now in this transaction. */
    write(tenantId: string, type: EventType, at: string, data: EventDataJson): void {
      const id = newEventId();
      insert.run({ id, tenant: tenantId, type, at, body: eventJson(id, type, at, data) });
      fanOut.run({ id, tenant: tenantId, at, needle: typeNeedle(type) });
      announce(db);
    },
  };
}

export function sqliteEvents(db: Db): EventRepo {
  const seqOf = db.prepare('SELECT seq FROM events WHERE id = ? AND tenant_id = ?').pluck();
  const positionOf = db.prepare(`SELECT ${POSITION} FROM events WHERE id = ? AND tenant_id = ?`).pluck();
  const page = db
    .prepare(
      `SELECT id, body FROM events WHERE tenant_id = @tenant AND seq < @before ORDER BY seq DESC LIMIT @limit`,
    )
    .raw();
  const pageOfType = db
    .prepare(
      `SELECT id, body FROM events WHERE tenant_id = @tenant AND type = @type AND seq < @before
       ORDER BY seq DESC LIMIT @limit`,
    )
    .raw();
  const since = db.prepare(
    `SELECT ${EVENT} FROM events WHERE tenant_id IN (SELECT value FROM json_each(?)) AND seq > ?
     ORDER BY seq LIMIT ?`,
  );
  const head = db.prepare(`SELECT printf('%020d', coalesce(max(seq), 0)) FROM events`).pluck();
  // one snapshot: an event committed between the page and the head would fall behind the next read's start
  const readSince = db.transaction((tenantIds: string[], position: LogPosition, limit: number) => {
    const events = since.all(JSON.stringify(tenantIds), Number(position), limit) as StoredEvent[];
    const upTo = events.length === limit ? events[events.length - 1]!.position : (head.get() as LogPosition);
    return { events, upTo: upTo > position ? upTo : position };
  });
  const oldest = db.prepare('SELECT id FROM events WHERE created_at < ? ORDER BY created_at LIMIT ?').pluck();
  const dropDeliveries = db.prepare('DELETE FROM webhook_deliveries WHERE event_id = ?');
  const dropEvent = db.prepare('DELETE FROM events WHERE id = ?');
  const dropAttempts = db.prepare(
    'DELETE FROM webhook_attempts WHERE seq IN (SELECT seq FROM webhook_attempts WHERE attempted_at < ? LIMIT ?)',
  );
  const sweep = db.transaction((before: string, limit: number) => {
    const ids = oldest.all(before, limit) as string[];
    for (const id of ids) {
      dropDeliveries.run(id);
      dropEvent.run(id);
    }
    const attempts = dropAttempts.run(before, limit).changes;
    return { events: ids.length, attempts };
  });
  return {
    async list(tenantId, type, limit, startingAfter) {
      let before = Number.MAX_SAFE_INTEGER;
      if (startingAfter !== undefined) {
        const seq = seqOf.get(startingAfter, tenantId) as number | undefined;
        if (seq === undefined) return undefined;
        before = seq;
      }
      const statement = type ? pageOfType : page;
      const rows = statement.all({
        tenant: tenantId,
        before,
        limit: limit + 1,
        ...(type ? { type } : {}),
      }) as [string, EventJson][];
      const shown = rows.slice(0, limit);
      return {
        items: shown.map(([, body]) => body),
        lastId: rows.length > limit ? shown[shown.length - 1]![0] : null,
      };
    },
    async positionOf(tenantId, eventId) {
      return positionOf.get(eventId, tenantId) as LogPosition | undefined;
    },
    async head() {
      return head.get() as LogPosition;
    },
    async since(tenantIds, position, limit) {
      if (tenantIds.length === 0) return { events: [], upTo: position };
      return readSince(tenantIds, position, limit);
    },
    watch(onEvents) {
      const set = hearersOf(db);
      set.add(onEvents);
      return () => set.delete(onEvents);
    },
    async sweep(before, limit) {
      return sweep.immediate(before, limit);
    },
  };
}
