import { tenantView } from '../../tenants/admin-views.js';
import { authed, list } from '../handler.js';
import { jsonText } from '../../records/json-text.js';

export const adminListTenants = authed(
  'adminListTenants',
  { defaults: ['limit', 'offset'] },
  async ({ query: { limit, offset, state, external_id }, services }) => {
    const { items, total } = await services.store.platform.listTenants(limit, offset, {
      state,
      externalId: external_id,
    });
    return list(
      items.map((row) => jsonText(tenantView(row))),
      {},
      { total, page: Math.floor(offset / limit) + 1, page_size: limit },
    );
  },
);
