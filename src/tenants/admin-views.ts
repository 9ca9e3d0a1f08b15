import type { Schemas } from '../contract/schemas.js';
import type { TenantRow } from '../store/types.js';
import type { TokenView } from './service.js';

/** A tenant as the admin API shows it (AdminTenant in openapi.yaml). */
export function tenantView(row: TenantRow): Schemas['AdminTenant'] {
  return {
    tenant_id: row.id,
    name: row.name,
    currency: row.currency,
    price_per_point: row.price_per_point,
    state: row.suspended_at ? 'suspended' : 'active',
    created_at: row.created_at,
    suspended_at: row.suspended_at,
    api_version: row.api_version as Schemas['ApiVersion'],
    external_id: row.external_id,
    metadata: JSON.parse(row.metadata) as Record<string, string>,
    deletion_requested_at: row.deletion_requested_at,
    erase_at: row.erase_at,
  };
}

/** A token as the admin API shows it (AdminToken): never its secret, nor the user it acts for. */
export function tokenView(token: TokenView): Schemas['AdminToken'] {
  return {
    token_id: token.token_id,
    tenant_id: token.tenant_id,
    name: token.name,
    prefix: token.prefix,
    scopes: token.scopes,
    created_at: token.created_at,
    last_used_at: token.last_used_at,
    expires_at: token.expires_at,
    revoked_at: token.revoked_at,
  };
}

/** A token with its secret, in the one answer that shows it (AdminIssuedToken). */
export function issuedTokenView(token: TokenView & { token: string }): Schemas['AdminIssuedToken'] {
  return { ...tokenView(token), token: token.token };
}
