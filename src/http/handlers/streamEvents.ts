import { bearerToken } from '../bearer.js';
import { authed, raw } from '../handler.js';

export const streamEvents = authed(
  'streamEvents',
  {},
  async ({ query, ctx, services, principal, version }) => {
    const lastEventId = ctx.get('last-event-id') || undefined;
    // a stream is written after the answer's version step has run: the hub renders each event at the version
    const body = await services.streams.open(
      principal.tenantId,
      lastEventId,
      query.type,
      bearerToken(ctx),
      version,
    );
    return raw(() => {
      const socket = ctx.req.socket;
      socket.setNoDelay(true);
      // no request or keep-alive timer may end a stream that is meant to stay open
      socket.setTimeout(0);
      ctx.set({
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
        'X-Accel-Buffering': 'no',
        // a stream the server ends (it is stopping) closes its connection: nothing idles in keep-alive after it
        Connection: 'close',
      });
      ctx.body = body;
      // the client went away: its half-closed connection ends the stream
      ctx.res.once('close', () => body.destroy());
      socket.once('end', () => body.destroy());
      // the stream ended (the client left, the server is stopping, or the client stopped reading): the
      // connection goes with it, whatever is still unread in it
      body.once('close', () => socket.destroy());
    });
  },
);
