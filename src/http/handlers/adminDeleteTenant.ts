import { tenantView } from '../../tenants/admin-views.js';
import { adminOrigin } from '../admin-origin.js';
import { authed, ok } from '../handler.js';
import { answeringAsAdmin } from '../platform-errors.js';

export const adminDeleteTenant = authed(
  'adminDeleteTenant',
  {
    onceOnly: {
      needsNoRecord: 'marking a marked tenant keeps its first erase_at and changes nothing',
      finalConflicts: [],
    },
  },
  async (scope) =>
    answeringAsAdmin(async () =>
      ok(
        tenantView(
          await scope.services.tenants.markForDeletion(
            scope.params.tenant_id,
            scope.body?.grace_period_seconds ?? scope.services.config.tenantDeletionGraceSeconds,
            adminOrigin(scope),
          ),
        ),
      ),
    ),
);
