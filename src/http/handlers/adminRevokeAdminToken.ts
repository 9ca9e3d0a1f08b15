import { adminOrigin } from '../admin-origin.js';
import { authed, ok } from '../handler.js';
import { answeringAsAdmin } from '../platform-errors.js';

export const adminRevokeAdminToken = authed(
  'adminRevokeAdminToken',
  {
    onceOnly: {
      needsNoRecord: 'revoking a revoked token keeps its first revoked_at and changes nothing',
      finalConflicts: [],
    },
  },
  async (scope) =>
    answeringAsAdmin(async () =>
      ok(await scope.services.adminTokens.revoke(scope.params.admin_token_id, adminOrigin(scope))),
    ),
);
