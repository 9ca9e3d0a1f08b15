import { PassThrough } from 'node:stream';
import type { EventsConfig } from '../config.js';
import { ERRORS } from '../errors.js';
import type { Logger } from '../logger.js';
import type { EventType, Store, StoredEvent } from '../store/types.js';
import type { Clock } from '../time.js';

/**
 * Events committed out of order by concurrent transactions (PostgreSQL hands out seq at insert, not at
 * commit) are found by reading back this far behind the newest event seen; ids already sent are skipped.
 */
const LOOKBACK_MS = 5_000;
/** Events read per look at the store, and per page of a Last-Event-ID replay. */
const BATCH = 500;
/**
 * A client that reads slower than its events come has this much waiting for it at most; past it the stream
 * is closed (the client resumes with Last-Event-ID), rather than held in the server's memory.
 */
export const MAX_UNREAD_BYTES = 1024 * 1024;

/** One SSE message: the event's id, its type, and the event as the contract's Event on one data line. */
export function sseMessage(event: Pick<StoredEvent, 'id' | 'type' | 'body'>): string {
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${event.body}\n\n`;
}

class Stream {
  readonly body = new PassThrough();
  /** Live events held back while the Last-Event-ID replay is being written. */
  private held: StoredEvent[] | null = [];
  private readonly sent = new Set<string>();

  constructor(
    readonly tenantId: string,
    /** Live events from before the stream opened are the replay's to send, or none of its business. */
    private readonly openedAt: string,
    /** Only events of this type, when set. */
    private readonly type: EventType | undefined,
  ) {}

  write(event: StoredEvent): void {
    if (event.created_at < this.openedAt) return;
    if (this.held) {
      this.held.push(event);
      return;
    }
    this.send(event);
  }

  send(event: StoredEvent): void {
    if (this.sent.has(event.id) || (this.type !== undefined && event.type !== this.type)) return;
    this.sent.add(event.id);
    // ids of events older than the lookback cannot come back: the set stays small
    if (this.sent.size > 4 * BATCH) this.sent.delete(this.sent.values().next().value!);
    this.push(sseMessage(event));
  }

  push(text: string): void {
    if (this.body.destroyed) return;
    if (this.body.writableLength > MAX_UNREAD_BYTES) this.body.destroy();
    else this.body.write(text);
  }

  /** The replay is written: live events held meanwhile go out now, those already replayed skipped. */
  release(): void {
    const held = this.held ?? [];
    this.held = null;
    for (const event of held) this.send(event);
  }
}

/**
 * The live event streams of this process. One reader serves every stream: it looks at the store when the
 * engine says events were written (PostgreSQL LISTEN/NOTIFY, which also hears worker processes) and every
 * `pollMs` (SQLite cannot hear another process), for the tenants with open streams only.
 */
export class EventStreams {
  private readonly streams = new Map<string, Set<Stream>>();
  private newest: string | null = null;
  private reading = false;
  private readAgain = false;
  private timer?: NodeJS.Timeout;
  private heartbeat?: NodeJS.Timeout;
  private unwatch?: () => void;
  private closed = false;

  constructor(
    private readonly store: Store,
    private readonly config: EventsConfig,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** Opens a stream for the tenant, replaying what followed `lastEventId` first. */
  async open(tenantId: string, lastEventId: string | undefined, type?: EventType): Promise<PassThrough> {
    const mine = this.streams.get(tenantId) ?? new Set<Stream>();
    if (mine.size >= this.config.maxStreamsPerTenant)
      throw ERRORS.tooManyStreams(this.config.maxStreamsPerTenant);
    const stream = new Stream(tenantId, this.clock.now().toISOString(), type);
    mine.add(stream);
    this.streams.set(tenantId, mine);
    this.begin();
    stream.body.on('close', () => this.drop(stream));
    stream.body.write(
      `retry: 1000\n: stream of tenant events; heartbeat every ${this.config.heartbeatMs} ms\n\n`,
    );
    void this.replay(stream, lastEventId);
    return stream.body;
  }

  private async replay(stream: Stream, lastEventId: string | undefined): Promise<void> {
    try {
      let after = lastEventId;
      while (after !== undefined && !stream.body.destroyed) {
        const page = await this.store.events.after(stream.tenantId, after, BATCH);
        if (page === undefined) {
          stream.push(
            `: Last-Event-ID ${after} is not a retained event of this tenant; live events follow\n\n`,
          );
          break;
        }
        for (const event of page) stream.send(event);
        after = page.length === BATCH ? page[page.length - 1]!.id : undefined;
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'event stream replay failed');
      stream.body.destroy();
      return;
    }
    stream.release();
  }

  private drop(stream: Stream): void {
    const mine = this.streams.get(stream.tenantId);
    mine?.delete(stream);
    if (mine?.size === 0) this.streams.delete(stream.tenantId);
    if (this.streams.size === 0) this.end();
  }

  private begin(): void {
    if (this.unwatch || this.closed) return;
    // events before now were the replay's to send
    this.newest = this.clock.now().toISOString();
    this.unwatch = this.store.events.watch(() => void this.read());
    this.timer = setInterval(() => void this.read(), this.config.pollMs);
    this.timer.unref();
    this.heartbeat = setInterval(() => {
      for (const mine of this.streams.values()) for (const stream of mine) stream.push(': heartbeat\n\n');
    }, this.config.heartbeatMs);
    this.heartbeat.unref();
  }

  private end(): void {
    this.unwatch?.();
    this.unwatch = undefined;
    clearInterval(this.timer);
    clearInterval(this.heartbeat);
  }

  private async read(): Promise<void> {
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    this.reading = true;
    try {
      do {
        this.readAgain = false;
        const tenants = [...this.streams.keys()];
        if (tenants.length === 0 || this.newest === null) break;
        const since = new Date(Date.parse(this.newest) - LOOKBACK_MS).toISOString();
        const events = await this.store.events.recent(tenants, since, BATCH * 4);
        for (const event of events) {
          if (event.created_at > this.newest) this.newest = event.created_at;
          for (const stream of this.streams.get(event.tenant_id) ?? []) stream.write(event);
        }
      } while (this.readAgain);
    } catch (error) {
      this.logger.warn({ err: error }, 'reading events for streams failed');
    } finally {
      this.reading = false;
    }
  }

  /**
   * Closes every stream (the server is stopping: clients reconnect, with Last-Event-ID, elsewhere). Closed,
   * not ended: a client that does not read would hold an ending response, and the server's shutdown, for ever.
   */
  close(): void {
    this.closed = true;
    for (const mine of [...this.streams.values()]) for (const stream of [...mine]) stream.body.destroy();
    this.streams.clear();
    this.end();
  }
}
