import type { TenantRepo, TenantRow, TokenLookup, TokenRow, UserRow } from '../types.js';
import type { Db } from './database.js';

export function sqliteTenants(db: Db): TenantRepo {
  const insertTenant = db.prepare(
    'INSERT INTO tenants (id, name, currency, price_per_point, created_at) VALUES (@id, @name, @currency, @price_per_point, @created_at)',
  );
  const insertUser = db.prepare(
    'INSERT INTO users (id, tenant_id, name, created_at) VALUES (@id, @tenant_id, @name, @created_at)',
  );
  const insertToken = db.prepare(
    `INSERT INTO api_tokens (id, tenant_id, user_id, name, prefix, token_hash, created_at, last_used_at, expires_at, revoked_at)
     VALUES (@id, @tenant_id, @user_id, @name, @prefix, @token_hash, @created_at, @last_used_at, @expires_at, @revoked_at)`,
  );
  const tenantColumns = 'id, name, currency, price_per_point, created_at';
  const getTenant = db.prepare(`SELECT ${tenantColumns} FROM tenants WHERE id = ?`);
  const byName = db.prepare(`SELECT ${tenantColumns} FROM tenants WHERE name = ?`);
  const allTenants = db.prepare(`SELECT ${tenantColumns} FROM tenants ORDER BY created_at, id`);
  const setPrice = db.prepare('UPDATE tenants SET price_per_point = ? WHERE id = ?');
  const firstUser = db.prepare(
    'SELECT id, tenant_id, name, created_at FROM users WHERE tenant_id = ? ORDER BY created_at, id LIMIT 1',
  );
  const tokenColumns =
    'id, tenant_id, user_id, name, prefix, created_at, last_used_at, expires_at, revoked_at';
  const listTokens = db.prepare(
    `SELECT ${tokenColumns} FROM api_tokens WHERE tenant_id = ? ORDER BY created_at, id`,
  );
  const getToken = db.prepare(`SELECT ${tokenColumns} FROM api_tokens WHERE id = ?`);
  const revoke = db.prepare('UPDATE api_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL');
  const lookup = db.prepare(
    `SELECT id AS tokenId, tenant_id AS tenantId, user_id AS userId, expires_at AS expiresAt,
            revoked_at AS revokedAt, last_used_at AS lastUsedAt
     FROM api_tokens WHERE token_hash = ?`,
  );
  const touch = db.prepare('UPDATE api_tokens SET last_used_at = ? WHERE id = ?');

  const createAll = db.transaction((tenant: TenantRow, user: UserRow, token: TokenRow, tokenHash: string) => {
    insertTenant.run(tenant);
    insertUser.run(user);
    insertToken.run({ ...token, token_hash: tokenHash });
  });

  return {
    async create(tenant, user, token, tokenHash) {
      createAll.immediate(tenant, user, token, tokenHash);
    },
    async get(tenantId) {
      return getTenant.get(tenantId) as TenantRow | undefined;
    },
    async findByName(name) {
      return byName.get(name) as TenantRow | undefined;
    },
    async list() {
      return allTenants.all() as TenantRow[];
    },
    async setPricePerPoint(tenantId, pricePerPoint) {
      return setPrice.run(pricePerPoint, tenantId).changes === 1;
    },
    async firstUser(tenantId) {
      return firstUser.get(tenantId) as UserRow | undefined;
    },
    async issueToken(token, tokenHash) {
      insertToken.run({ ...token, token_hash: tokenHash });
    },
    async listTokens(tenantId) {
      return listTokens.all(tenantId) as TokenRow[];
    },
    async revokeToken(tokenId, at) {
      revoke.run(at, tokenId);
      return getToken.get(tokenId) as TokenRow | undefined;
    },
    async lookupToken(tokenHash) {
      return lookup.get(tokenHash) as TokenLookup | undefined;
    },
    async touchToken(tokenId, at) {
      touch.run(at, tokenId);
    },
  };
}
