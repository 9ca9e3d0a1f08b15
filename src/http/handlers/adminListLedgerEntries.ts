import { authed, list } from '../handler.js';

export const adminListLedgerEntries = authed(
  'adminListLedgerEntries',
  { defaults: ['transaction_type', 'limit', 'offset'] },
  async ({ params, query, services }) => {
    const { items, total } = await services.revenue.listTenantLedger(params.tenant_id, {
      transactionType: query.transaction_type,
      limit: query.limit,
      offset: query.offset,
      startDate: query.start_date,
      endDate: query.end_date,
    });
    return list(
      items,
      {},
      { total, page: Math.floor(query.offset / query.limit) + 1, page_size: query.limit },
    );
  },
);
