import { everyTenantsUsage } from '../../platform/usage.js';
import { jsonText } from '../../records/json-text.js';
import { authed, list } from '../handler.js';

export const adminListUsage = authed(
  'adminListUsage',
  { defaults: ['granularity', 'limit'] },
  async ({ query, services }) => {
    const { items, nextCursor } = await everyTenantsUsage(services.store, services.clock, query);
    return list(items.map(jsonText), { next_cursor: nextCursor });
  },
);
