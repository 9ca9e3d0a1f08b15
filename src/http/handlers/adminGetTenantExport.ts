import { exportView } from '../../offboarding/exports.js';
import { authed, ok } from '../handler.js';
import { answeringAsAdmin } from '../platform-errors.js';

export const adminGetTenantExport = authed('adminGetTenantExport', {}, async ({ params, services }) =>
  answeringAsAdmin(async () =>
    ok(exportView(await services.exports.get(params.tenant_id, params.export_id))),
  ),
);
