import { tokenView } from '../../tenants/admin-views.js';
import { adminOrigin } from '../admin-origin.js';
import { authed, ok } from '../handler.js';
import { answeringAsAdmin } from '../platform-errors.js';

export const adminRevokeToken = authed(
  'adminRevokeToken',
  {
    onceOnly: {
      needsNoRecord: 'revoking a revoked token keeps its first revoked_at and changes nothing',
      finalConflicts: [],
    },
  },
  async (scope) =>
    answeringAsAdmin(async () => {
      const { params, services } = scope;
      return ok(
        tokenView(await services.tenants.revokeToken(params.token_id, params.tenant_id, adminOrigin(scope))),
      );
    }),
);
