import { exportView } from '../../offboarding/exports.js';
import type { TenantExportRow } from '../../store/types.js';
import { adminOrigin } from '../admin-origin.js';
import { accepted, authed } from '../handler.js';
import type { AppContext } from '../state.js';
import { answeringAsAdmin } from '../platform-errors.js';

function answer(ctx: AppContext, row: TenantExportRow) {
  ctx.set('Location', `/api/admin/tenants/${row.tenant_id}/exports/${row.id}`);
  return accepted(exportView(row));
}

export const adminCreateTenantExport = authed(
  'adminCreateTenantExport',
  {
    onceOnly: {
      recover: async (scope, exportId) =>
        answer(scope.ctx, await scope.services.exports.get(scope.params.tenant_id, exportId)),
      finalConflicts: ['export_in_progress'],
    },
  },
  async (scope) =>
    answeringAsAdmin(async () =>
      answer(scope.ctx, await scope.services.exports.create(scope.params.tenant_id, adminOrigin(scope))),
    ),
);
