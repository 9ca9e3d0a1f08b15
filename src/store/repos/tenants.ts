/** Tenants, their users and API tokens. Part of the storage layer's contract (../types.ts). */

export interface TenantRow {
  id: string;
  name: string;
  currency: string;
  price_per_point: number;
  created_at: string;
  /** when the tenant was suspended; null while it is active */
  suspended_at: string | null;
  /** the API version its requests without Open-Tenant-Version get (src/versions) */
  api_version: string;
  /** the platform's own id of the tenant, unique among tenants */
  external_id: string | null;
  /** the platform's keys and values, as JSON text of an object of strings */
  metadata: string;
  /** when the platform marked the tenant for deletion; null when it is not marked */
  deletion_requested_at: string | null;
  /** when its grace period ends (its data is erased at the first sweep after); null when it is not marked */
  erase_at: string | null;
}

export interface UserRow {
  id: string;
  tenant_id: string;
  name: string;
  created_at: string;
}

export interface TokenRow {
  id: string;
  tenant_id: string;
  user_id: string;
  name: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  revoked_at: string | null;
  /** what the token may do, space separated; null: every scope (tokens issued before scopes existed) */
  scopes: string | null;
}

/** Who is calling: resolved once per request from the bearer token. */
export interface Principal {
  tenantId: string;
  userId: string;
  tokenId: string;
  /** the token's scopes as stored (space separated); null: every scope */
  scopes: string | null;
  /** the tenant's pinned API version, read with the token; none for an admin token */
  apiVersion?: string;
  /** the admin command line's own caller (http/admin-origin.ts): the audit trail says `operator` */
  operator?: true;
}

export interface TokenLookup extends Principal {
  /** the token's tenant is suspended (read with the token: no query more) */
  tenantSuspendedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

/**
 * Reading tenants and their tokens, and marking a token used. Every change to them is a platform change
 * (`store.platform.change`, repos/platform.ts): there it commits with its audit row and idempotency record.
 */
export interface TenantRepo {
  get(tenantId: string): Promise<TenantRow | undefined>;
  findByName(name: string): Promise<TenantRow | undefined>;
  findByExternalId(externalId: string): Promise<TenantRow | undefined>;
  list(): Promise<TenantRow[]>;
  firstUser(tenantId: string): Promise<UserRow | undefined>;
  listTokens(tenantId: string): Promise<TokenRow[]>;
  lookupToken(tokenHash: string): Promise<TokenLookup | undefined>;
  touchToken(tokenId: string, at: string): Promise<void>;
}
