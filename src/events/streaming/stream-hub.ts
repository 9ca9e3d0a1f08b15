import { PassThrough } from 'node:stream';
import type { EventsConfig } from '../../kernel/config.js';
import { ERRORS } from '../../kernel/errors.js';
import type { Logger } from '../../kernel/logger.js';
import type { EventType, LogPosition, Store, StoredEvent } from '../../store/types.js';
import { hashToken, tokenRefusal } from '../../tenants/tokens.js';
import type { Clock } from '../../kernel/time.js';
import type { ApiVersion } from '../../versions/change.js';
import { eventAt } from '../../versions/events.js';
import { NEWEST_VERSION } from '../../versions/registry.js';

/** Events read per look at the store, and per page of a Last-Event-ID replay. */
const BATCH = 500;
/**
 * How often an idle stream's token is looked up again: a revoked or expired token, or a suspended tenant,
 * ends its streams within this time even when no event comes (one indexed read per token on SQLite, most
 * often none on PostgreSQL, whose token cache every process empties when it hears of a revocation).
 */
const RECHECK_MS = 500;
/** A stream ended for its token has this long to be read to its end before its connection is cut. */
const ENDED_GRACE_MS = 5_000;

const ENDED_BECAUSE = {
  invalid: 'the token of this stream was revoked',
  expired: 'the token of this stream expired',
  suspended: 'the tenant of this stream was suspended',
} as const;

/**
 * One SSE message: the event's id, its type, and the event as the contract's Event at the stream's version
 * on one data line.
 */
export function sseMessage(event: Pick<StoredEvent, 'id' | 'type' | 'body'>, version: ApiVersion): string {
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${eventAt(event.body, version, 'streamEvents')}\n\n`;
}

class Stream {
  readonly body = new PassThrough();
  /** The last event of the tenant's log written or passed over: the log is in order, so nothing at or below it is sent again. */
  sentUpTo = '' as LogPosition;

  constructor(
    readonly tenantId: string,
    /** The SHA-256 of the bearer token the stream was opened with (never the token); none: never asked again. */
    readonly tokenHash: string | undefined,
    /** Only events of this type, when set. */
    private readonly type: EventType | undefined,
    private readonly maxUnreadBytes: number,
    /** The API version its events are rendered at: the request's that opened it. */
    private readonly version: ApiVersion,
  ) {}

  send(event: StoredEvent): void {
    if (event.position <= this.sentUpTo) return;
    this.sentUpTo = event.position;
    if (this.type === undefined || event.type === this.type) this.push(sseMessage(event, this.version));
  }

  /** Closed by its client, or ended or closed by the hub: nothing more is written to it. */
  get closed(): boolean {
    return this.body.destroyed || this.body.writableEnded;
  }

  push(text: string): void {
    if (this.closed) return;
    if (this.body.writableLength > this.maxUnreadBytes) this.body.destroy();
    else this.body.write(text);
  }

  /** Bytes written to the stream that its client has not read yet. */
  get unread(): number {
    return this.body.writableLength;
  }
}

/**
 * The live event streams of this process. A stream first catches up on its own (the Last-Event-ID replay,
 * page after page by log position), then joins the shared reader, which reads every joined tenant's events
 * in log order from one position, page after page until a short page, when the engine says events were
 * written (PostgreSQL LISTEN/NOTIFY, which also hears worker processes) and every `pollMs` (SQLite cannot
 * hear another process).
 *
 * Why nothing is lost: a stream joins between two reads, after a last catch-up from where it stands to the
 * log's end as seen then, which is at or past the reader's position; the reader's next read starts at its
 * position. Why nothing is sent twice on one connection: a stream skips every event at or below the last
 * one it sent. Why one tenant cannot hold back another: the reader has no time window and no cap; a burst
 * costs the other tenants only the time to read the pages before theirs.
 *
 * Why a revoked key reads nothing more: every page read is sent only after its streams' tokens were looked
 * up again, after the read, so no event committed after a revocation, an expiry or a suspension reaches a
 * stream of that token; and every RECHECK_MS the open streams' tokens are looked up, so that an idle stream
 * ends too. The lookups go to the database, where every process's revocations are.
 */
export class EventStreams {
  /** Every open stream, by tenant: counted against the limit and sent heartbeats. */
  private readonly opened = new Map<string, Set<Stream>>();
  /** The streams the shared reader writes to, by tenant. */
  private readonly live = new Map<string, Set<Stream>>();
  /** Streams whose replay is done, waiting for the reader to let them join. */
  private joining: Stream[] = [];
  /** Where the shared reader stands; null until a stream first joins. */
  private position: LogPosition | null = null;
  /** When the reader last came back from the store with the log's end (for the lag an operator sees). */
  private lastReadAt = 0;
  private reading = false;
  private readAgain = false;
  private timer?: NodeJS.Timeout;
  private heartbeat?: NodeJS.Timeout;
  private unwatch?: () => void;
  private recheck?: NodeJS.Timeout;
  private rechecking = false;
  private closed = false;

  constructor(
    private readonly store: Store,
    private readonly config: EventsConfig,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /**
   * Opens a stream for the tenant: the events after `lastEventId`, else those after the log's end as it is
   * when the stream is answered (taken before the answer, so that nothing committed after it is missed).
   * `token`, the bearer token the request was authenticated with, is looked up again while the stream is
   * open: the stream ends when it no longer authenticates.
   */
  async open(
    tenantId: string,
    lastEventId: string | undefined,
    type?: EventType,
    token?: string,
    version: ApiVersion = NEWEST_VERSION,
  ): Promise<PassThrough> {
    const mine = this.opened.get(tenantId) ?? new Set<Stream>();
    if (mine.size >= this.config.maxStreamsPerTenant)
      throw ERRORS.tooManyStreams(this.config.maxStreamsPerTenant);
    const stream = new Stream(
      tenantId,
      token === undefined ? undefined : hashToken(token),
      type,
      this.config.maxUnreadBytes,
      version,
    );
    mine.add(stream);
    this.opened.set(tenantId, mine);
    let from: LogPosition | undefined;
    try {
      from =
        lastEventId === undefined
          ? await this.store.events.head()
          : await this.store.events.positionOf(tenantId, lastEventId);
    } catch (error) {
      this.drop(stream);
      throw error;
    }
    this.begin();
    stream.body.on('close', () => this.drop(stream));
    stream.body.write(
      `retry: 1000\n: stream of tenant events; heartbeat every ${this.config.heartbeatMs} ms\n\n`,
    );
    if (from === undefined) {
      stream.push(
        `: Last-Event-ID ${lastEventId} is not a retained event of this tenant; live events follow\n\n`,
      );
      from = await this.store.events.head().catch(() => undefined);
      if (from === undefined) {
        stream.body.destroy();
        return stream.body;
      }
    }
    stream.sentUpTo = from;
    void this.replay(stream);
    return stream.body;
  }

  /** The pages from where the stream starts, then the stream joins the shared reader. */
  private async replay(stream: Stream): Promise<void> {
    try {
      await this.catchUp(stream);
    } catch (error) {
      this.logger.warn({ err: error }, 'event stream replay failed');
      stream.body.destroy();
      return;
    }
    if (stream.closed) return;
    this.joining.push(stream);
    void this.read();
  }

  /** Sends the stream its tenant's events from where it stands to the log's end; returns that end. */
  private async catchUp(stream: Stream): Promise<LogPosition> {
    for (;;) {
      const { events, upTo } = await this.store.events.since([stream.tenantId], stream.sentUpTo, BATCH);
      if (events.length > 0) await this.endRefused([stream]);
      for (const event of events) stream.send(event);
      if (upTo > stream.sentUpTo) stream.sentUpTo = upTo;
      if (events.length < BATCH || stream.closed) return upTo;
    }
  }

  private drop(stream: Stream): void {
    remove(this.opened, stream);
    remove(this.live, stream);
    this.joining = this.joining.filter((s) => s !== stream);
    if (this.opened.size === 0) this.end();
  }

  private begin(): void {
    if (this.unwatch || this.closed) return;
    this.unwatch = this.store.events.watch(() => void this.read());
    this.timer = setInterval(() => void this.read(), this.config.pollMs);
    this.timer.unref();
    this.heartbeat = setInterval(() => {
      for (const mine of this.opened.values()) for (const stream of mine) stream.push(': heartbeat\n\n');
    }, this.config.heartbeatMs);
    this.heartbeat.unref();
    this.recheck = setInterval(() => void this.recheckAll(), RECHECK_MS);
    this.recheck.unref();
  }

  private end(): void {
    this.unwatch?.();
    this.unwatch = undefined;
    clearInterval(this.timer);
    clearInterval(this.heartbeat);
    clearInterval(this.recheck);
    this.position = null;
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
        await this.admit();
        for (;;) {
          const tenants = [...this.live.keys()];
          if (tenants.length === 0 || this.position === null) break;
          const { events, upTo } = await this.store.events.since(tenants, this.position, BATCH);
          // before the page moves the reader on: a failed lookup reads the page again next time
          const tenantsSent = new Set(events.map((event) => event.tenant_id));
          await this.endRefused([...tenantsSent].flatMap((tenant) => [...(this.live.get(tenant) ?? [])]));
          // the last stream may have ended meanwhile, and the reader with it
          if (this.position === null) break;
          this.position = upTo;
          this.lastReadAt = this.clock.now().getTime();
          for (const event of events)
            for (const stream of this.live.get(event.tenant_id) ?? []) stream.send(event);
          if (events.length < BATCH) break;
        }
      } while (this.readAgain);
    } catch (error) {
      this.logger.warn({ err: error }, 'reading events for streams failed');
    } finally {
      this.reading = false;
    }
  }

  /** Lets the waiting streams join, each after a last catch-up (no read of the shared reader is under way). */
  private async admit(): Promise<void> {
    for (const stream of this.joining.splice(0)) {
      if (stream.closed) continue;
      try {
        const end = await this.catchUp(stream);
        // the first stream to join places the reader: at the end of the log it has caught up to
        this.position ??= end;
        if (stream.closed) continue;
        const mine = this.live.get(stream.tenantId) ?? new Set<Stream>();
        mine.add(stream);
        this.live.set(stream.tenantId, mine);
      } catch (error) {
        this.logger.warn({ err: error }, 'event stream catch-up failed');
        stream.body.destroy();
      }
    }
  }

  /**
   * Looks the streams' tokens up again (once per token), and ends the streams of each that no longer
   * authenticates. Throws when a lookup fails: the caller sends nothing it has not checked.
   */
  private async endRefused(streams: Iterable<Stream>): Promise<void> {
    const byToken = new Map<string, Stream[]>();
    for (const stream of streams) {
      if (stream.tokenHash === undefined || stream.closed) continue;
      const mine = byToken.get(stream.tokenHash);
      if (mine) mine.push(stream);
      else byToken.set(stream.tokenHash, [stream]);
    }
    await Promise.all(
      [...byToken].map(async ([tokenHash, mine]) => {
        const found = await this.store.tenants.lookupToken(tokenHash);
        const refusal = tokenRefusal(found, this.clock.now());
        if (!refusal) return;
        this.logger.info(
          { tenantId: mine[0]!.tenantId, tokenId: found?.tokenId, streams: mine.length },
          `event streams ended: ${ENDED_BECAUSE[refusal]}`,
        );
        for (const stream of mine) this.endFor(stream, ENDED_BECAUSE[refusal]);
      }),
    );
  }

  /** Every open stream's token, looked up again: an idle stream ends too. */
  private async recheckAll(): Promise<void> {
    if (this.rechecking) return;
    this.rechecking = true;
    try {
      await this.endRefused([...this.opened.values()].flatMap((mine) => [...mine]));
    } catch (error) {
      // nothing is sent unchecked meanwhile (the reader checks every page it sends): the next time asks again
      this.logger.warn({ err: error }, "looking up event streams' tokens failed");
    } finally {
      this.rechecking = false;
    }
  }

  /**
   * Ends a stream that may read no more: it leaves the hub at once (nothing more is sent, and it no longer
   * counts against the tenant's limit), says why in a comment, and ends; its client, reconnecting, is told
   * by the 401 or 403. One that does not read its end is cut after ENDED_GRACE_MS.
   */
  private endFor(stream: Stream, because: string): void {
    stream.push(`: ${because}; the stream ends\n\n`);
    this.drop(stream);
    stream.body.end();
    setTimeout(() => stream.body.destroy(), ENDED_GRACE_MS).unref();
  }

  /** What an operator sees: streams open, bytes waiting for slow clients, and the reader's age. */
  stats(): { open: number; unreadBytes: number; maxUnreadBytes: number; readerAgeSeconds: number } {
    let open = 0;
    let unreadBytes = 0;
    let maxUnreadBytes = 0;
    for (const mine of this.opened.values())
      for (const stream of mine) {
        open += 1;
        unreadBytes += stream.unread;
        maxUnreadBytes = Math.max(maxUnreadBytes, stream.unread);
      }
    const readerAgeSeconds =
      open === 0 || this.lastReadAt === 0 ? 0 : (this.clock.now().getTime() - this.lastReadAt) / 1000;
    return { open, unreadBytes, maxUnreadBytes, readerAgeSeconds };
  }

  /**
   * Closes every stream (the server is stopping: clients reconnect, with Last-Event-ID, elsewhere). Closed,
   * not ended: a client that does not read would hold an ending response, and the server's shutdown, for ever.
   */
  close(): void {
    this.closed = true;
    for (const mine of [...this.opened.values()]) for (const stream of [...mine]) stream.body.destroy();
    this.opened.clear();
    this.live.clear();
    this.joining = [];
    this.end();
  }
}

function remove(byTenant: Map<string, Set<Stream>>, stream: Stream): void {
  const mine = byTenant.get(stream.tenantId);
  mine?.delete(stream);
  if (mine?.size === 0) byTenant.delete(stream.tenantId);
}
