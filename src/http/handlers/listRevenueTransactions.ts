import { authed, list } from '../handler.js';

export const listRevenueTransactions = authed(
  'listRevenueTransactions',
  { defaults: ['transaction_type', 'page', 'page_size'] },
  async ({ query, services, principal }) => {
    const { items, total } = await services.revenue.listTransactions(principal.tenantId, {
      transactionType: query.transaction_type,
      limit: query.page_size,
      offset: (query.page - 1) * query.page_size,
      startDate: query.start_date,
      endDate: query.end_date,
    });
    return list(items, {}, { total, page: query.page, page_size: query.page_size });
  },
);
