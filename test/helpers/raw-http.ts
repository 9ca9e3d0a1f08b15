import { request } from 'node:http';
import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON fields
  body: any;
}

function parse(text: string) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * One request over node:http with full control of the body: `chunks` are written one by one (chunked
 * transfer encoding unless a content-length header is given), `pauseMs` between them, and `stallAfter`
 * stops writing after that many chunks without ending the request.
 */
export function rawRequest(
  url: string,
  method: string,
  path: string,
  options: {
    headers?: Record<string, string>;
    chunks?: Buffer[];
    pauseMs?: number;
    stallAfter?: number;
    /** Drop the connection this long after stalling, as a client that goes away does. */
    dropAfterMs?: number;
    /** The client's own address (any of 127.0.0.0/8 on loopback): clients at different addresses. */
    localAddress?: string;
  } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}${path}`,
      { method, headers: options.headers ?? {}, localAddress: options.localAddress },
      (res) => {
        const parts: Buffer[] = [];
        // an event stream never ends: its first bytes are the answer
        const stream = String(res.headers['content-type'] ?? '').startsWith('text/event-stream');
        res.on('data', (chunk: Buffer) => {
          parts.push(chunk);
          if (stream) {
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              text: chunk.toString(),
              body: undefined,
            });
            req.destroy();
          }
        });
        res.on('end', () => {
          const text = Buffer.concat(parts).toString();
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: parse(text) });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    const chunks = options.chunks ?? [];
    void (async () => {
      for (let i = 0; i < chunks.length; i++) {
        if (options.stallAfter !== undefined && i >= options.stallAfter) {
          if (options.dropAfterMs !== undefined) setTimeout(() => req.destroy(), options.dropAfterMs);
          return;
        }
        if (req.destroyed) return;
        req.write(chunks[i]);
        if (options.pauseMs) await new Promise((r) => setTimeout(r, options.pauseMs));
      }
      req.end();
    })();
  });
}

/** Bytes straight onto a socket; resolves with everything the server sent before it closed (or `waitMs`). */
export function rawSocket(url: string, bytes: string | Buffer, waitMs = 5000): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    const parts: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(), waitMs);
    socket.on('data', (chunk) => parts.push(chunk));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(parts).toString());
    });
    socket.on('error', reject);
  });
}

/** The JSON body of a raw HTTP/1.1 response text. */
export function bodyOfRaw(response: string) {
  return parse(response.slice(response.indexOf('\r\n\r\n') + 4));
}
