import type { EventJson, EventRepo, LogPosition, StoredEvent } from '../types.js';
import type { SqlDialect } from '../sql/dialect.js';
import { sweepEvents } from '../sql/outbox.js';

/** The single writer takes seq inside its transaction, so seq order is commit order: it is the position. */
const POSITION = "printf('%020d', seq)";
const EVENT = `${POSITION} AS position, id, tenant_id, type, created_at, body`;
const HEAD = `SELECT printf('%020d', coalesce(max(seq), 0)) AS head FROM events`;

/**
 * SQLite's event log: the position is the row's seq (one writer at a time commits in seq order). It cannot
 * hear another process's writes: `written` wakes this process's watchers after its own commits (the step
 * its units of work take after a commit that wrote events), and the streams poll for the rest.
 */
export function sqliteEvents(sql: SqlDialect): EventRepo & { written(): Promise<void> } {
  const hearers = new Set<() => void>();
  let announced = false;
  const wake = () => {
    // the writes of one tick share one wake-up
    if (announced) return;
    announced = true;
    setImmediate(() => {
      announced = false;
      for (const hear of hearers) hear();
    });
  };
  return {
    async written() {
      wake();
    },
    async list(tenantId, type, limit, startingAfter) {
      let before = Number.MAX_SAFE_INTEGER;
      if (startingAfter !== undefined) {
        const cursor = await sql.get<{ seq: number }>(
          'SELECT seq FROM events WHERE id = ? AND tenant_id = ?',
          [startingAfter, tenantId],
        );
        if (!cursor) return undefined;
        before = cursor.seq;
      }
      const rows = type
        ? await sql.all<{ id: string; body: EventJson }>(
            `SELECT id, body FROM events WHERE tenant_id = ? AND type = ? AND seq < ? ORDER BY seq DESC LIMIT ?`,
            [tenantId, type, before, limit + 1],
          )
        : await sql.all<{ id: string; body: EventJson }>(
            `SELECT id, body FROM events WHERE tenant_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?`,
            [tenantId, before, limit + 1],
          );
      const shown = rows.slice(0, limit);
      return {
        items: shown.map((row) => row.body),
        lastId: rows.length > limit ? shown[shown.length - 1]!.id : null,
      };
    },
    async positionOf(tenantId, eventId) {
      const row = await sql.get<{ position: LogPosition }>(
        `SELECT ${POSITION} AS position FROM events WHERE id = ? AND tenant_id = ?`,
        [eventId, tenantId],
      );
      return row?.position;
    },
    async head() {
      return (await sql.get<{ head: LogPosition }>(HEAD))!.head;
    },
    async since(tenantIds, position, limit) {
      if (tenantIds.length === 0) return { events: [], upTo: position };
      // the page and the log's end in one statement: one snapshot
      const rows = await sql.all<Partial<StoredEvent> & { head: LogPosition }>(
        `SELECT h.head, p.* FROM (${HEAD}) h LEFT JOIN (
           SELECT ${EVENT}, seq FROM events WHERE tenant_id IN ${sql.text.jsonTexts('?')} AND seq > ?
           ORDER BY seq LIMIT ?) p ON true
         ORDER BY p.seq`,
        [JSON.stringify(tenantIds), Number(position), limit],
      );
      const events = rows
        .filter((row) => row.id != null)
        .map(
          ({
            head: _head,
            seq: _seq,
            ...event
          }: Partial<StoredEvent> & { head: LogPosition; seq?: number }) => event as StoredEvent,
        );
      const upTo = events.length === limit ? events[events.length - 1]!.position : rows[0]!.head;
      return { events, upTo: upTo > position ? upTo : position };
    },
    hearsOtherConnections: false,
    heard: wake,
    watch(onEvents) {
      hearers.add(onEvents);
      return () => hearers.delete(onEvents);
    },
    async sweep(before, limit) {
      return sweepEvents(sql, before, limit);
    },
  };
}
