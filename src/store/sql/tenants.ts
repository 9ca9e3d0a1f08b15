import type { TenantRepo, TenantRow, TokenLookup, TokenRow, UserRow } from '../types.js';
import type { SqlDialect, SqlSession, SqlValue } from './dialect.js';

export const TENANT =
  'id, name, currency, price_per_point, created_at, suspended_at, api_version, external_id, metadata, deletion_requested_at, erase_at';
export const TOKEN =
  'id, tenant_id, user_id, name, prefix, created_at, last_used_at, expires_at, revoked_at, scopes';

export function insertToken(tx: SqlSession, token: TokenRow, tokenHash: string): Promise<number> {
  const values: SqlValue[] = [
    token.id,
    token.tenant_id,
    token.user_id,
    token.name,
    token.prefix,
    tokenHash,
    token.created_at,
    token.last_used_at,
    token.expires_at,
    token.revoked_at,
    token.scopes,
  ];
  return tx.run(
    `INSERT INTO api_tokens (id, tenant_id, user_id, name, prefix, token_hash, created_at, last_used_at,
       expires_at, revoked_at, scopes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    values,
  );
}

/** A tenant with its first user and token, in the caller's transaction. */
export async function insertTenant(
  tx: SqlSession,
  tenant: TenantRow,
  user: UserRow,
  token: TokenRow,
  tokenHash: string,
): Promise<void> {
  await tx.run(
    `INSERT INTO tenants (id, name, currency, price_per_point, created_at, suspended_at, api_version,
       external_id, metadata)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      tenant.id,
      tenant.name,
      tenant.currency,
      tenant.price_per_point,
      tenant.created_at,
      tenant.suspended_at,
      tenant.api_version,
      tenant.external_id,
      tenant.metadata,
    ],
  );
  await tx.run('INSERT INTO users (id, tenant_id, name, created_at) VALUES (?, ?, ?, ?)', [
    user.id,
    user.tenant_id,
    user.name,
    user.created_at,
  ]);
  await insertToken(tx, token, tokenHash);
}

export function sqlTenants(sql: SqlDialect): TenantRepo {
  return {
    async get(tenantId) {
      return sql.get<TenantRow>(`SELECT ${TENANT} FROM tenants WHERE id = ?`, [tenantId]);
    },
    async findByName(name) {
      return sql.get<TenantRow>(`SELECT ${TENANT} FROM tenants WHERE name = ?`, [name]);
    },
    async findByExternalId(externalId) {
      return sql.get<TenantRow>(`SELECT ${TENANT} FROM tenants WHERE external_id = ?`, [externalId]);
    },
    async list() {
      return sql.all<TenantRow>(`SELECT ${TENANT} FROM tenants ORDER BY created_at, id`);
    },
    async firstUser(tenantId) {
      return sql.get<UserRow>(
        'SELECT id, tenant_id, name, created_at FROM users WHERE tenant_id = ? ORDER BY created_at, id LIMIT 1',
        [tenantId],
      );
    },
    async listTokens(tenantId) {
      return sql.all<TokenRow>(
        `SELECT ${TOKEN} FROM api_tokens WHERE tenant_id = ? ORDER BY created_at, id`,
        [tenantId],
      );
    },
    async lookupToken(tokenHash) {
      return sql.get<TokenLookup>(
        // the tenant's suspension and pinned version as subqueries, not a join: SQLite answers this in a third
        // of the join's time, and every request pays it (bench/README.md, "Figures behind the code")
        `SELECT k.id AS "tokenId", k.tenant_id AS "tenantId", k.user_id AS "userId", k.expires_at AS "expiresAt",
           k.revoked_at AS "revokedAt", k.last_used_at AS "lastUsedAt", k.scopes,
           (SELECT t.suspended_at FROM tenants t WHERE t.id = k.tenant_id) AS "tenantSuspendedAt",
           (SELECT t.api_version FROM tenants t WHERE t.id = k.tenant_id) AS "apiVersion"
         FROM api_tokens k WHERE k.token_hash = ?`,
        [tokenHash],
      );
    },
    async touchToken(tokenId, at) {
      await sql.run('UPDATE api_tokens SET last_used_at = ? WHERE id = ?', [at, tokenId]);
    },
  };
}
