import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

/** How the receiver answers one request: a status (and body), or hang until the test closes it. */
export type Answer = { status: number; body?: string; headers?: Record<string, string> } | 'hang';

/**
 * A webhook receiver on loopback only: it records every POST and answers as `answer` says for its path.
 * Tests send nowhere else.
 */
export async function startReceiver(
  answer: (received: Received, nth: number) => Answer = () => ({ status: 200 }),
) {
  const received: Received[] = [];
  const hanging = new Set<ServerResponse>();
  const waiters: (() => void)[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const entry: Received = {
        path: req.url ?? '/',
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      received.push(entry);
      const nth = received.filter((r) => r.path === entry.path).length;
      for (const wake of waiters.splice(0)) wake();
      const reply = answer(entry, nth);
      if (reply === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(reply.status, reply.headers ?? {});
      res.end(reply.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    received,
    /** Waits until `predicate` holds over what was received. */
    async until(predicate: (all: Received[]) => boolean, timeoutMs = 20_000): Promise<Received[]> {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(received)) {
        if (Date.now() > deadline) {
          throw new Error(`receiver: condition not met in ${timeoutMs} ms; got ${received.length} requests`);
        }
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
      return received;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Reads Server-Sent Events from a fetch response body (parsed by eventsource-parser, as the client does). */
export async function* sseEvents(body: ReadableStream<Uint8Array>) {
  const decoder = new TextDecoder();
  const queue: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => queue.push(event) });
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    parser.feed(decoder.decode(chunk, { stream: true }));
    while (queue.length > 0) yield queue.shift()!;
  }
}
