import { jsonText } from '../../records/json-text.js';
import { auditView } from '../../platform/audit.js';
import { authed, list } from '../handler.js';

export const adminListAuditEvents = authed(
  'adminListAuditEvents',
  { defaults: ['limit', 'offset'] },
  async ({ query: { tenant_id, limit, offset }, services }) => {
    const { items, total } = await services.store.platform.listAudit({ tenantId: tenant_id }, limit, offset);
    return list(
      items.map((row) => jsonText(auditView(row))),
      {},
      { total, page: Math.floor(offset / limit) + 1, page_size: limit },
    );
  },
);
