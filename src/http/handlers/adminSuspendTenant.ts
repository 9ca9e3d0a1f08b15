import { tenantView } from '../../tenants/admin-views.js';
import { adminOrigin } from '../admin-origin.js';
import { authed, ok } from '../handler.js';
import { answeringAsAdmin } from '../platform-errors.js';

export const adminSuspendTenant = authed(
  'adminSuspendTenant',
  {
    onceOnly: {
      needsNoRecord: 'suspending a suspended tenant keeps its first suspended_at and changes nothing',
      finalConflicts: [],
    },
  },
  async (scope) =>
    answeringAsAdmin(async () =>
      ok(tenantView(await scope.services.tenants.suspend(scope.params.tenant_id, adminOrigin(scope)))),
    ),
);
