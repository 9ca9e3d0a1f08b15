import { tenantView } from '../../tenants/admin-views.js';
import { adminOrigin } from '../admin-origin.js';
import { authed, ok } from '../handler.js';
import { answeringAsAdmin } from '../platform-errors.js';

export const adminResumeTenant = authed(
  'adminResumeTenant',
  {
    onceOnly: {
      needsNoRecord: 'resuming an active tenant changes nothing',
      finalConflicts: [],
    },
  },
  async (scope) =>
    answeringAsAdmin(async () =>
      ok(tenantView(await scope.services.tenants.resume(scope.params.tenant_id, adminOrigin(scope)))),
    ),
);
