import { authed, list } from '../handler.js';

export const listEvents = authed(
  'listEvents',
  { defaults: ['limit'] },
  async ({ query, services, principal }) => {
    const { items, lastId } = await services.events.list(
      principal.tenantId,
      query.type,
      query.limit,
      query.starting_after,
    );
    // the events are stored as the contract's Event text: the envelope is written around them
    return list(items, { next_cursor: lastId });
  },
);
