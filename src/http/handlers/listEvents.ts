import type { AuthedHandler } from '../state.js';
import { queryOf } from '../params.js';

export const listEvents: AuthedHandler = async ({ request, ctx, services, principal }) => {
  const { type, limit, starting_after } = queryOf<'listEvents', 'limit'>(request);
  const { items, lastId } = await services.events.list(principal.tenantId, type, limit, starting_after);
  // the events are stored as the contract's Event text: the envelope is written around them
  ctx.status = 200;
  ctx.type = 'application/json';
  ctx.body = `{"code":0,"message":"OK","data":[${items.join(',')}],"next_cursor":${JSON.stringify(lastId)},"timestamp":${Date.now()}}`;
};
