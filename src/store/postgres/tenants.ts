import type { TenantRepo, TenantRow, TokenLookup, TokenRow } from '../types.js';
import type { Postgres } from './database.js';
import { ChannelListener } from './listener.js';

const TOKENS_CHANGED = 'tokens_changed';
/** A token found is kept this long at most, and only while revocations can be heard (see below). */
const TOKEN_CACHE_MS = 5_000;
const TOKEN_CACHE_ENTRIES = 10_000;

const TENANT = 'id, name, currency, price_per_point, created_at';
const TOKEN = 'id, tenant_id, user_id, name, prefix, created_at, last_used_at, expires_at, revoked_at';
const INSERT_TOKEN = `INSERT INTO api_tokens (id, tenant_id, user_id, name, prefix, token_hash, created_at, last_used_at,
  expires_at, revoked_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`;

function tokenValues(token: TokenRow, tokenHash: string): unknown[] {
  return [
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
  ];
}

/**
 * Every API request looks up its token. Found tokens are cached per process so that a request costs one
 * round trip to PostgreSQL instead of two, but only while this process hears `tokens_changed` on a LISTEN
 * connection: a revocation in any process empties every cache at once, and a lost connection turns the
 * cache off until it is back. Unknown tokens are never cached.
 */
export function postgresTenants(db: Postgres): TenantRepo & { close(): void } {
  const cache = new Map<string, { found: TokenLookup; until: number }>();
  const changes = new ChannelListener(TOKENS_CHANGED, () => db.listener());
  let unsubscribe: (() => void) | undefined;
  const cached = (tokenHash: string): TokenLookup | undefined => {
    unsubscribe ??= changes.subscribe(() => cache.clear());
    const hit = cache.get(tokenHash);
    if (!hit || !changes.connected) return undefined;
    if (hit.until < Date.now()) {
      cache.delete(tokenHash);
      return undefined;
    }
    return hit.found;
  };
  const remember = (tokenHash: string, found: TokenLookup) => {
    if (!changes.connected) return;
    if (cache.size >= TOKEN_CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(tokenHash, { found, until: Date.now() + TOKEN_CACHE_MS });
  };
  return {
    close() {
      unsubscribe?.();
      changes.close();
    },
    async create(tenant, user, token, tokenHash) {
      await db.transaction(async (tx) => {
        await tx.query(
          'INSERT INTO tenants (id, name, currency, price_per_point, created_at) VALUES ($1, $2, $3, $4, $5)',
          [tenant.id, tenant.name, tenant.currency, tenant.price_per_point, tenant.created_at],
        );
        await tx.query('INSERT INTO users (id, tenant_id, name, created_at) VALUES ($1, $2, $3, $4)', [
          user.id,
          user.tenant_id,
          user.name,
          user.created_at,
        ]);
        await tx.query(INSERT_TOKEN, tokenValues(token, tokenHash));
      });
    },
    async get(tenantId) {
      const [row] = await db.query<TenantRow>(
        `SELECT ${TENANT} FROM tenants WHERE id = $1`,
        [tenantId],
        'tenant',
      );
      return row;
    },
    async findByName(name) {
      const [row] = await db.query<TenantRow>(`SELECT ${TENANT} FROM tenants WHERE name = $1`, [name]);
      return row;
    },
    async list() {
      return db.query<TenantRow>(`SELECT ${TENANT} FROM tenants ORDER BY created_at, id`);
    },
    async setPricePerPoint(tenantId, pricePerPoint) {
      const rows = await db.query('UPDATE tenants SET price_per_point = $1 WHERE id = $2 RETURNING id', [
        pricePerPoint,
        tenantId,
      ]);
      return rows.length === 1;
    },
    async firstUser(tenantId) {
      const [row] = await db.query<{ id: string; tenant_id: string; name: string; created_at: string }>(
        'SELECT id, tenant_id, name, created_at FROM users WHERE tenant_id = $1 ORDER BY created_at, id LIMIT 1',
        [tenantId],
      );
      return row;
    },
    async issueToken(token, tokenHash) {
      await db.query(INSERT_TOKEN, tokenValues(token, tokenHash));
    },
    async listTokens(tenantId) {
      return db.query<TokenRow>(
        `SELECT ${TOKEN} FROM api_tokens WHERE tenant_id = $1 ORDER BY created_at, id`,
        [tenantId],
      );
    },
    async revokeToken(tokenId, at) {
      await db.query('UPDATE api_tokens SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [
        at,
        tokenId,
      ]);
      // after the commit: every process's cache forgets its tokens (the token is refused from now on); this
      // one's at once, not when its own notification comes back over the listening connection
      cache.clear();
      await db.query(`SELECT pg_notify('${TOKENS_CHANGED}', $1)`, [tokenId]);
      const [row] = await db.query<TokenRow>(`SELECT ${TOKEN} FROM api_tokens WHERE id = $1`, [tokenId]);
      return row;
    },
    async lookupToken(tokenHash) {
      const hit = cached(tokenHash);
      if (hit) return { ...hit };
      const [row] = await db.query<TokenLookup>(
        `SELECT id AS "tokenId", tenant_id AS "tenantId", user_id AS "userId", expires_at AS "expiresAt",
           revoked_at AS "revokedAt", last_used_at AS "lastUsedAt"
         FROM api_tokens WHERE token_hash = $1`,
        [tokenHash],
        'token.lookup',
      );
      if (row) remember(tokenHash, { ...row });
      return row;
    },
    async touchToken(tokenId, at) {
      await db.query('UPDATE api_tokens SET last_used_at = $1 WHERE id = $2', [at, tokenId], 'token.touch');
      for (const { found } of cache.values()) if (found.tokenId === tokenId) found.lastUsedAt = at;
    },
  };
}
