import { ERRORS } from '../../kernel/errors.js';
import { tokenView } from '../../tenants/admin-views.js';
import { authed, ok } from '../handler.js';

export const adminListTokens = authed('adminListTokens', {}, async ({ params, services }) => {
  if (!(await services.store.tenants.get(params.tenant_id))) throw ERRORS.notFound('Tenant');
  return ok((await services.tenants.listTokens(params.tenant_id)).map(tokenView));
});
