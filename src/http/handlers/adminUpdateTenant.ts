import { tenantView } from '../../tenants/admin-views.js';
import { adminOrigin } from '../admin-origin.js';
import { authed, ok } from '../handler.js';
import { answeringAsAdmin } from '../platform-errors.js';

export const adminUpdateTenant = authed('adminUpdateTenant', {}, async (scope) =>
  answeringAsAdmin(async () =>
    ok(
      tenantView(await scope.services.tenants.update(scope.params.tenant_id, scope.body, adminOrigin(scope))),
    ),
  ),
);
