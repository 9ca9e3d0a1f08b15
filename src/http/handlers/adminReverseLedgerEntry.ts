import { adminOrigin } from '../admin-origin.js';
import { authed, created } from '../handler.js';

export const adminReverseLedgerEntry = authed(
  'adminReverseLedgerEntry',
  {
    onceOnly: {
      recover: async (scope, reversalId) =>
        created(await scope.services.revenue.reversal(scope.params.tenant_id, reversalId)),
      finalConflicts: ['already_reversed'],
    },
  },
  async (scope) =>
    created(
      await scope.services.revenue.reverseEntry(
        scope.params.tenant_id,
        scope.params.transaction_id,
        scope.body?.description,
        adminOrigin(scope),
      ),
    ),
);
