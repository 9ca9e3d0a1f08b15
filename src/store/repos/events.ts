import type { EventJson, EventType } from '../../records/event.js';

/** The event log: the outbox of run and upload changes. Part of the storage layer's contract (../types.ts). */

/**
 * Events are the transactional outbox of the run and upload state changes: a repository method that changes
 * a run's status (create: run.created; rerun: run.requeued; claim of a queued run: run.started; finish: run.succeeded or
 * run.failed; cancel: run.cancelled) or completes an upload (upload.completed) writes the event, and one
 * pending delivery per enabled webhook endpoint of the tenant subscribed to its type, in the same
 * transaction. `body` is the event as the contract's Event, serialized once: the same bytes are listed,
 * streamed and signed.
 */
export interface StoredEvent {
  position: LogPosition;
  id: string;
  tenant_id: string;
  type: EventType;
  created_at: string;
  body: EventJson;
}

/**
 * An event's place in the log, in commit order: an event a reader can see first has the smaller position,
 * and no event ever appears below a position a reader has already seen. Compares as text; only the engine
 * makes one (SQLite: the row id taken by its single writer; PostgreSQL: the writing transaction's id and the
 * row's sequence number, read only below the oldest transaction still running).
 */
export type LogPosition = string & { readonly __brand: 'LogPosition' };

export interface EventRepo {
  /**
   * Newest first in log order, after the event `startingAfter` (undefined when the tenant has no such
   * event). `lastId` is the page's last event when more follow it.
   */
  list(
    tenantId: string,
    type: EventType | undefined,
    limit: number,
    startingAfter?: string,
  ): Promise<{ items: EventJson[]; lastId: string | null } | undefined>;
  /** The event's place in the log, if the tenant has such an event. */
  positionOf(tenantId: string, eventId: string): Promise<LogPosition | undefined>;
  /** The log's end now: every event a reader can see is at or below it. */
  head(): Promise<LogPosition>;
  /**
   * In log order: the events of `tenantIds` after `position`, at most `limit`; `upTo` is where the next read
   * starts (the last event's position on a full page, else the log's end as this read saw it).
   */
  since(
    tenantIds: string[],
    position: LogPosition,
    limit: number,
  ): Promise<{ events: StoredEvent[]; upTo: LogPosition }>;
  /**
   * Calls `onEvents` when events may have been written by any process, sooner than a poll would find them;
   * returns the unsubscribe. An engine that cannot hear other processes calls it for this process's writes.
   */
  watch(onEvents: () => void): () => void;
  /**
   * Whether `watch` hears events that other connections commit (PostgreSQL's notifications). SQLite's does
   * not: a thread with a connection of its own tells the others through `heard`.
   */
  readonly hearsOtherConnections: boolean;
  /** Another connection of this process committed events: `watch`'s callers are woken, if they would not be. */
  heard(): void;
  /**
   * Deletes up to `limit` events created before `before`, with their deliveries; and delivery attempts
   * recorded before `before`, up to `limit` of them. Returns how many of each.
   */
  sweep(before: string, limit: number): Promise<{ events: number; attempts: number }>;
}
