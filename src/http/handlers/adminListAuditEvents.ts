import { jsonText } from '../../records/json-text.js';
import { auditView, listAuditEvents } from '../../platform/audit.js';
import { authed, list } from '../handler.js';

export const adminListAuditEvents = authed(
  'adminListAuditEvents',
  { defaults: ['limit', 'offset'] },
  async ({ query, services }) => {
    const { items, total, more } = await listAuditEvents(services.store, query);
    return list(
      items.map((row) => jsonText(auditView(row))),
      { next_cursor: more ? items.at(-1)!.id : null },
      { total, page: Math.floor(query.offset / query.limit) + 1, page_size: query.limit },
    );
  },
);
