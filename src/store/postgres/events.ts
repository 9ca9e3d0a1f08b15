import type { EventJson, EventRepo, LogPosition, StoredEvent } from '../types.js';
import type { Postgres } from './database.js';
import type { SqlDialect } from '../sql/dialect.js';
import { sweepEvents } from '../sql/outbox.js';
import { ChannelListener } from './listener.js';

const CHANNEL = 'events_written';
const ANNOUNCE_DELAY_MS = 5;
/**
 * seq is handed out at insert, not at commit: a transaction that inserted first may commit last, below rows
 * a reader has already passed. So events get their place in the log after commit, in a publish step: one
 * publisher at a time (a transaction-scoped advisory lock) stamps every committed unpublished event with the
 * next positions, and commits before the next publisher starts; positions therefore become visible only in
 * increasing order. Readers see published events only. A process publishes after each of its commits that
 * wrote events (before the write's caller gets its answer, so a client reads its own writes), before
 * every stream read, and in the maintenance pass (these two publish what a crashed process committed but did
 * not publish).
 */
const POSITION = "lpad(position::text, 20, '0')";
const EVENT = `${POSITION} AS position, id, tenant_id, type, created_at, body`;
const EMPTY_LOG = '0'.repeat(20) as LogPosition;
/** Events stamped per publish statement; a larger backlog takes several. */
const PUBLISH_BATCH = 10_000;

export function postgresEvents(
  db: Postgres,
  sql: SqlDialect,
): EventRepo & { committed(): Promise<void>; publishStragglers(): Promise<void>; close(): void } {
  const written = new ChannelListener(CHANNEL, () => db.listener());
  let announcing: NodeJS.Timeout | undefined;
  const local = new Set<() => void>();

  /** How many events it stamped. */
  const publishAll = async (): Promise<number> => {
    let published = 0;
    for (;;) {
      const [round] = await db.query<{ published: number }>(
        'SELECT publish_events($1) AS published',
        [PUBLISH_BATCH],
        'events.publish',
      );
      published += round!.published;
      if (round!.published < PUBLISH_BATCH) return published;
    }
  };
  let publishing: Promise<number> | undefined;
  let queued: Promise<number> | undefined;
  /**
   * Publishes every event committed before the call. Calls while a round runs share the next round (which
   * starts after them): one statement serves every write of the moment.
   */
  const publish = (): Promise<number> => {
    if (!publishing) {
      publishing = publishAll().finally(() => {
        publishing = undefined;
      });
      return publishing;
    }
    queued ??= publishing
      .catch(() => 0)
      .then(() => {
        queued = undefined;
        return publish();
      });
    return queued;
  };

  /** Wakes every process's watchers; events written within a few milliseconds share one notification. */
  const announce = () => {
    for (const hear of local) hear();
    announcing ??= setTimeout(() => {
      announcing = undefined;
      db.query(`SELECT pg_notify('${CHANNEL}', '')`, [], 'events.notify').catch(() => undefined);
    }, ANNOUNCE_DELAY_MS);
  };

  return {
    /**
     * After a transaction that wrote events has committed: publishes them (a failure leaves them to the next
     * round, any process's), then wakes every process's watchers; outside the transaction for the reason
     * runs.ts gives, and events written within a few milliseconds share one notification.
     */
    async committed() {
      await publish().catch(() => 0);
      announce();
    },
    /**
     * The maintenance pass's share: what a process committed and then crashed before publishing would
     * otherwise wait for the next write or stream read; published here, and every process's streams woken.
     */
    async publishStragglers() {
      if ((await publish()) > 0) announce();
    },
    close() {
      written.close();
      local.clear();
      clearTimeout(announcing);
    },
    async list(tenantId, type, limit, startingAfter) {
      const rows = await db.query<{ id: string; body: EventJson; cursor: number | null }>(
        `WITH c AS (SELECT (SELECT position FROM events WHERE id = $2 AND tenant_id = $1) AS position)
         SELECT v.id, v.body, c.position AS cursor FROM c LEFT JOIN LATERAL (
           SELECT id, body, position FROM events
           WHERE tenant_id = $1 AND ($3::text IS NULL OR type = $3) AND position IS NOT NULL
             AND ($2::text IS NULL OR position < c.position)
           ORDER BY position DESC LIMIT $4) v ON true
         ORDER BY v.position DESC`,
        [tenantId, startingAfter ?? null, type ?? null, limit + 1],
        'events.list',
      );
      if (startingAfter !== undefined && rows[0]?.cursor === null) return undefined;
      const found = rows.filter((r) => r.id !== null);
      const shown = found.slice(0, limit);
      return {
        items: shown.map((r) => r.body),
        lastId: found.length > limit ? shown[shown.length - 1]!.id : null,
      };
    },
    async positionOf(tenantId, eventId) {
      const [row] = await db.query<{ position: LogPosition | null }>(
        `SELECT ${POSITION} AS position FROM events WHERE id = $1 AND tenant_id = $2`,
        [eventId, tenantId],
        'events.position',
      );
      return row?.position ?? undefined;
    },
    async head() {
      const [row] = await db.query<{ position: LogPosition | null }>(
        `SELECT lpad(max(position)::text, 20, '0') AS position FROM events`,
        [],
        'events.head',
      );
      return row?.position ?? EMPTY_LOG;
    },
    async since(tenantIds, position, limit) {
      await publish();
      if (tenantIds.length === 0) return { events: [], upTo: position };
      // one statement, one snapshot: the page and the log's end agree
      const rows = await db.query<Partial<StoredEvent> & { head: LogPosition | null }>(
        `SELECT h.head, p.* FROM (SELECT lpad(max(position)::text, 20, '0') AS head FROM events) h
         LEFT JOIN LATERAL (
           SELECT ${EVENT} FROM events WHERE tenant_id = ANY ($1::text[]) AND position > $2::bigint
           ORDER BY position LIMIT $3) p ON true`,
        [tenantIds, position, limit],
        'events.since',
      );
      const events = rows.filter((r) => r.id != null).map(({ head: _, ...event }) => event as StoredEvent);
      const upTo =
        events.length === limit ? events[events.length - 1]!.position : (rows[0]?.head ?? EMPTY_LOG);
      return { events, upTo: upTo > position ? upTo : position };
    },
    hearsOtherConnections: true,
    heard() {
      // every connection's commits are heard through the notifications already
    },
    watch(onEvents) {
      local.add(onEvents);
      const unsubscribe = written.subscribe(onEvents);
      return () => {
        local.delete(onEvents);
        unsubscribe();
      };
    },
    async sweep(before, limit) {
      return sweepEvents(sql, before, limit);
    },
  };
}
