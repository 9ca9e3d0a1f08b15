import { tenantUsage } from '../../platform/usage.js';
import { authed, ok } from '../handler.js';

export const adminGetTenantUsage = authed('adminGetTenantUsage', {}, async ({ params, query, services }) =>
  ok(await tenantUsage(services.store, services.clock, params.tenant_id, query)),
);
