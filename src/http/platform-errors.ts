import { ERRORS } from '../kernel/errors.js';
import { AdminTokenNotFound } from '../platform/admin-tokens.js';
import { ExportInProgress, ExportNotFound, ExportNotReady } from '../offboarding/exports.js';
import {
  TenantErasing,
  TenantExternalIdTaken,
  TenantNameTaken,
  TenantNotFound,
  TokenNotFound,
} from '../tenants/service.js';

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
    if (error instanceof TenantErasing) throw ERRORS.tenantErasing(error.eraseAt);
    if (error instanceof ExportNotFound) throw ERRORS.notFound('Export');
    if (error instanceof ExportInProgress) throw ERRORS.exportInProgress(error.exportId);
    if (error instanceof ExportNotReady) throw ERRORS.exportNotReady(error.status);
    throw error;
  }
}
