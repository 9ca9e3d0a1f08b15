import { adminOrigin } from '../admin-origin.js';
import { authed, ok } from '../handler.js';

export const adminAppendLedgerEntries = authed(
  'adminAppendLedgerEntries',
  {
    onceOnly: {
      needsNoRecord: 'each entry is booked once per external_id: a retry skips what the first booked',
      finalConflicts: [],
    },
  },
  async (scope) =>
    ok(
      await scope.services.revenue.appendFeed(scope.params.tenant_id, scope.body.entries, adminOrigin(scope)),
    ),
);
