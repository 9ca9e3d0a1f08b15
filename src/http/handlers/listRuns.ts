import type { AuthedHandler } from '../state.js';
import { queryOf } from '../params.js';
import { sendJsonList } from '../render.js';

export const listRuns: AuthedHandler = async ({ request, ctx, services, principal }) => {
  const { status, target, keyword, limit, offset, starting_after } = queryOf<'listRuns', 'limit' | 'offset'>(
    request,
  );
  const { items, total, lastId } = await services.runs.list(
    principal.tenantId,
    { status, target, keyword },
    limit,
    offset,
    starting_after,
  );
  sendJsonList(
    ctx,
    items,
    { total, page: Math.floor(offset / limit) + 1, page_size: limit },
    { next_cursor: lastId },
  );
};
