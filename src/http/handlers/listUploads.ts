import { jsonText } from '../../records/json-text.js';
import { authed, list } from '../handler.js';

export const listUploads = authed(
  'listUploads',
  { defaults: ['limit', 'offset'] },
  async ({ query: { limit, offset, starting_after }, services, principal }) => {
    const { items, total, lastId } = await services.uploads.listPending(
      principal.tenantId,
      limit,
      offset,
      starting_after,
    );
    return list(
      items.map((item) => jsonText(item)),
      { next_cursor: lastId },
      { total, page: Math.floor(offset / limit) + 1, page_size: limit },
    );
  },
);
