import { authed, list } from '../handler.js';

export const listRuns = authed(
  'listRuns',
  { defaults: ['limit', 'offset'] },
  async ({ query: { status, target, keyword, limit, offset, starting_after }, services, principal }) => {
    const { items, total, lastId } = await services.runs.list(
      principal.tenantId,
      { status, target, keyword },
      limit,
      offset,
      starting_after,
    );
    return list(
      items,
      { next_cursor: lastId },
      { total, page: Math.floor(offset / limit) + 1, page_size: limit },
    );
  },
);
