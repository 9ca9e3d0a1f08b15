import { ERRORS } from '../../kernel/errors.js';
import { tenantView } from '../../tenants/admin-views.js';
import { authed, ok } from '../handler.js';

export const adminGetTenant = authed('adminGetTenant', {}, async ({ params, services }) => {
  const row = await services.store.tenants.get(params.tenant_id);
  if (!row) throw ERRORS.notFound('Tenant');
  return ok(tenantView(row));
});
