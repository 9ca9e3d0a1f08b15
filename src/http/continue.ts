import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import type { Context, Next } from 'koa';

const EXPECTS_CONTINUE = /^100-continue$/i;

/** The answers that said "100 Continue" (Node keeps no public record of it). */
const continued = new WeakSet<ServerResponse>();

function expectsContinue(ctx: Context): boolean {
  return EXPECTS_CONTINUE.test(ctx.get('expect'));
}

/**
 * `Expect: 100-continue` is answered only when the body is wanted: a request refused before (no token, the
 * rate limit, the per-tenant part cap, a part of the wrong size) gets its final answer while the client
 * still holds the body back, so that nothing of it is sent, read or dropped. The server hands such
 * requests to the app through its `checkContinue` event instead of saying "100 Continue" at once.
 */
export function askForBody(ctx: Context): void {
  const res = ctx.res;
  if (res.headersSent || continued.has(res) || !expectsContinue(ctx)) return;
  continued.add(res);
  res.writeContinue();
}

/**
 * The request body as a stream that touches the request only when its reader first wants bytes: then it
 * asks for the body (see askForBody) and opens it with `open`. A body the domain refuses before reading it
 * is left whole, for disposeUnreadBody to deal with.
 */
export function bodyWhenRead(ctx: Context, open: () => Readable): Readable {
  let body: Readable | undefined;
  const out = new Readable({
    read() {
      if (!body) {
        askForBody(ctx);
        body = open();
        body.on('data', (chunk: Buffer) => {
          if (!out.push(chunk)) body!.pause();
        });
        body.once('end', () => out.push(null));
        body.once('error', (error) => out.destroy(error));
      }
      body.resume();
    },
    destroy(error, done) {
      body?.destroy(error ?? undefined);
      done(error);
    },
  });
  return out;
}

/**
 * What becomes of a body the answer did not read (a refused request). A client that waits for
 * "100 Continue" never sent it: the connection closes cleanly. A body that was not touched and is at
 * most `drainLimit` bytes is read and dropped by Node after the answer, so that a client still sending
 * gets its answer instead of a reset, and the connection stays usable. Anything else (a body cut short
 * midway, or one larger than the limit) closes the connection rather than read more of it.
 */
export function disposeUnreadBody(drainLimit: number, idleMs: number) {
  return async (ctx: Context, next: Next) => {
    await next();
    const req = ctx.req;
    if (req.complete || ctx.res.headersSent) return;
    const length = ctx.request.length;
    const hasBody = (length !== undefined && length > 0) || ctx.get('transfer-encoding') !== '';
    if (!hasBody) return;
    const continueWithheld = expectsContinue(ctx) && !continued.has(ctx.res);
    const drainable =
      !continueWithheld && !req.readableDidRead && length !== undefined && length <= drainLimit;
    if (!drainable) ctx.set('Connection', 'close');
    else if (clientAskedToClose(ctx)) lingerOnClose(ctx);
    else endIfDrainStalls(ctx, idleMs);
  };
}

/**
 * A refused body being drained holds its connection only while it keeps coming: one that sends nothing
 * for `idleMs` (BODY_IDLE_TIMEOUT_MS, as for a body that is read) ends the connection.
 */
function endIfDrainStalls(ctx: Context, idleMs: number): void {
  const req = ctx.req;
  ctx.res.once('finish', () => {
    if (req.complete) return;
    const timer = setTimeout(() => req.socket.destroy(), idleMs);
    timer.unref();
    // Node drops the drained bytes; this listener only sees that they still come
    req.on('data', () => timer.refresh());
    req.once('end', () => clearTimeout(timer));
    req.once('close', () => clearTimeout(timer));
  });
}

function clientAskedToClose(ctx: Context): boolean {
  const connection = ctx.get('connection');
  if (/\bclose\b/i.test(connection)) return true;
  return ctx.req.httpVersion === '1.0' && !/\bkeep-alive\b/i.test(connection);
}

/** How long a connection the client asked to close keeps reading a refused body after the answer. */
const LINGER_MS = 2000;

/**
 * Node ends a connection that was asked to close as soon as the answer is written, which resets it while
 * the client is still sending, and a reset can reach the client before the answer does: here the write
 * side closes after the answer, the rest of the body (at most the drain limit) is read and dropped, and
 * the socket goes when the client closes or after LINGER_MS.
 */
function lingerOnClose(ctx: Context): void {
  const socket = ctx.req.socket as Socket & { destroySoon?: () => void };
  socket.destroySoon = () => {
    socket.end();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  };
}
