import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { components } from '../generated/openapi.js';
import { type ErrorEnvelope, OtaError } from './errors.js';
import { sleep } from './retry.js';

/** An event, in the shape of the version this client was generated from: its run or upload is `data.object`. */
export type Event = components['schemas']['Event'];
export type EventType = components['schemas']['EventType'];

export interface StreamOptions {
  /** Only events of this type. */
  type?: EventType;
  /** Resume after this event (the id of the last one handled). */
  lastEventId?: string;
  signal?: AbortSignal;
  /** Told each time the stream is opened again after it broke. */
  onReconnect?: (info: { lastEventId: string | undefined; delayMs: number; reason: string }) => void;
}

/**
 * The tenant's events as they happen, over `GET /api/open/events/stream` with fetch (a browser's
 * EventSource cannot send the token). A broken connection is opened again after the server's `retry`
 * delay with `Last-Event-ID`, so nothing retained is missed and nothing is seen twice. Ends when `signal`
 * aborts; an answer that retrying cannot change (401, 404, 422) throws OtaError.
 */
export async function* eventStream(
  baseUrl: string,
  /** The token's and the version's (`authorization`, `open-tenant-version`). */
  headers: Record<string, string>,
  fetchImpl: typeof fetch,
  options: StreamOptions = {},
): AsyncGenerator<Event> {
  let lastEventId = options.lastEventId;
  let retryMs = 1000;
  const url = new URL(`${baseUrl.replace(/\/+$/, '')}/api/open/events/stream`);
  if (options.type) url.searchParams.set('type', options.type);
  for (;;) {
    options.signal?.throwIfAborted();
    let reason = 'the stream ended';
    // one controller per connection: aborting it while the body is being read rejects nothing unhandled
    const connection = new AbortController();
    const onAbort = () => connection.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const response = await fetchImpl(url, {
        headers: {
          ...headers,
          accept: 'text/event-stream',
          ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
        },
        signal: connection.signal,
      });
      if (response.status !== 200 || !response.body) {
        const body = (await response.json().catch(() => undefined)) as Partial<ErrorEnvelope> | undefined;
        const retryAfter = Number(response.headers.get('retry-after') ?? Number.NaN);
        if (response.status !== 429 && response.status < 500) {
          throw new OtaError(response.status, body, Number.isFinite(retryAfter) ? retryAfter : undefined);
        }
        reason = `HTTP ${response.status}`;
        if (Number.isFinite(retryAfter)) retryMs = Math.max(retryMs, retryAfter * 1000);
      } else {
        const queue: EventSourceMessage[] = [];
        const parser = createParser({
          onEvent: (message) => queue.push(message),
          onRetry: (ms) => {
            retryMs = ms;
          },
        });
        const decoder = new TextDecoder();
        const reader = response.body.getReader();
        reader.closed.catch(() => undefined);
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            parser.feed(decoder.decode(value, { stream: true }));
            while (queue.length > 0) {
              const message = queue.shift()!;
              if (message.id) lastEventId = message.id;
              yield JSON.parse(message.data) as Event;
            }
          }
        } finally {
          reader.cancel().catch(() => undefined);
        }
      }
    } catch (error) {
      if (error instanceof OtaError || options.signal?.aborted) throw error;
      reason = error instanceof Error ? error.message : String(error);
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
    }
    options.onReconnect?.({ lastEventId, delayMs: retryMs, reason });
    await sleep(retryMs, options.signal);
  }
}
