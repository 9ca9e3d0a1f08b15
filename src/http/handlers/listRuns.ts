import type { AuthedHandler } from '../api.js';
import { queryOf } from '../params.js';
import { sendJsonList } from '../render.js';

export const listRuns: AuthedHandler = async ({ c, ctx, services, principal }) => {
  const { status, target, keyword, limit, offset } = queryOf<'listRuns', 'limit' | 'offset'>(c);
  const { items, total } = await services.runs.list(
    principal.tenantId,
    { status, target, keyword },
    limit,
    offset,
  );
  sendJsonList(ctx, items, { total, page: Math.floor(offset / limit) + 1, page_size: limit });
};
