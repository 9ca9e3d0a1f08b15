import type { AuthedHandler } from '../state.js';
import { queryOf } from '../params.js';
import { sendJsonList } from '../render.js';

export const listRevenueTransactions: AuthedHandler = async ({ request, ctx, services, principal }) => {
  const query = queryOf<'listRevenueTransactions', 'transaction_type' | 'page' | 'page_size'>(request);
  const { items, total } = await services.revenue.listTransactions(principal.tenantId, {
    transactionType: query.transaction_type,
    page: query.page,
    pageSize: query.page_size,
    startDate: query.start_date,
    endDate: query.end_date,
  });
  sendJsonList(ctx, items, { total, page: query.page, page_size: query.page_size });
};
