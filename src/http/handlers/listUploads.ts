import type { AuthedHandler } from '../state.js';
import { queryOf } from '../params.js';
import { sendJsonList } from '../render.js';

export const listUploads: AuthedHandler = async ({ request, ctx, services, principal }) => {
  const { limit, offset, starting_after } = queryOf<'listUploads', 'limit' | 'offset'>(request);
  const { items, total, lastId } = await services.uploads.listPending(
    principal.tenantId,
    limit,
    offset,
    starting_after,
  );
  sendJsonList(
    ctx,
    items.map((item) => JSON.stringify(item)),
    { total, page: Math.floor(offset / limit) + 1, page_size: limit },
    { next_cursor: lastId },
  );
};
