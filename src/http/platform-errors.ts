import { ERRORS } from '../errors.js';
import { AdminTokenNotFound } from '../platform/admin-tokens.js';
import { TenantExternalIdTaken, TenantNameTaken, TenantNotFound, TokenNotFound } from '../tenants/service.js';

/** The tenants service's refusals as the admin API answers them. */
export async function answeringAsAdmin<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof TenantNotFound) throw ERRORS.notFound('Tenant');
    if (error instanceof TokenNotFound) throw ERRORS.notFound('Token');
    if (error instanceof AdminTokenNotFound) throw ERRORS.notFound('Admin token');
    if (error instanceof TenantNameTaken) throw ERRORS.tenantNameTaken(error.tenantName);
    if (error instanceof TenantExternalIdTaken) throw ERRORS.tenantExternalIdTaken(error.externalId);
    throw error;
  }
}
