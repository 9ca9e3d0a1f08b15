import { randomUUID } from 'node:crypto';
import type { Principal, Store, TenantRow, TokenRow } from '../store/types.js';
import type { Clock } from '../time.js';
import { isScope, readScopes, type Scope, SCOPES, storedScopes } from './scopes.js';
import { hashToken, looksLikeToken, newToken } from './tokens.js';

export interface CreatedTenant {
  tenant_id: string;
  user_id: string;
  token_id: string;
  token: string;
}

/** A token as operators see it: everything but the secret, which is never stored. */
export type TokenView = Omit<TokenRow, 'id' | 'scopes'> & { token_id: string; scopes: Scope[] };

/** Why a bearer token does not authenticate: unknown or revoked, past its `expires_at`, or its tenant is
 * suspended. */
export type Refusal = 'invalid' | 'expired' | 'suspended';

export const DEFAULT_PRICE_PER_POINT = 10;
const DAY_MS = 86_400_000;
/** last_used_at is advisory: writing it at most once a minute per token keeps reads free of writes. */
const TOUCH_INTERVAL_MS = 60_000;

export class TenantError extends Error {}

function viewToken(row: TokenRow): TokenView {
  const { id, scopes, ...rest } = row;
  return { token_id: id, ...rest, scopes: readScopes(scopes) };
}

export class Tenants {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  async create(
    name: string,
    currency = 'USD',
    pricePerPoint = DEFAULT_PRICE_PER_POINT,
  ): Promise<CreatedTenant> {
    if (!/^[A-Z]{3}$/.test(currency))
      throw new TenantError(`currency must be an ISO 4217 code, got "${currency}"`);
    if (!Number.isSafeInteger(pricePerPoint) || pricePerPoint < 0) {
      throw new TenantError('price per point must be a non-negative integer of minor units');
    }
    if (await this.store.tenants.findByName(name)) throw new TenantError(`tenant "${name}" exists`);
    const now = this.clock.now().toISOString();
    const tenant: TenantRow = {
      id: randomUUID(),
      name,
      currency,
      price_per_point: pricePerPoint,
      created_at: now,
      suspended_at: null,
    };
    const user = { id: randomUUID(), tenant_id: tenant.id, name: `${name}-owner`, created_at: now };
    const secret = newToken();
    const token: TokenRow = {
      id: randomUUID(),
      tenant_id: tenant.id,
      user_id: user.id,
      name: 'default',
      prefix: secret.prefix,
      created_at: now,
      last_used_at: null,
      expires_at: null,
      revoked_at: null,
      scopes: null,
    };
    await this.store.tenants.create(tenant, user, token, secret.hash);
    return { tenant_id: tenant.id, user_id: user.id, token_id: token.id, token: secret.token };
  }

  /** A token with `scopes`; without them, a token with every scope. */
  async issueToken(tenantId: string, name = 'token', expiresInDays?: number, scopes?: readonly string[]) {
    const unknown = scopes?.filter((scope) => !isScope(scope)) ?? [];
    if (unknown.length > 0)
      throw new TenantError(`unknown scope ${unknown.join(', ')}; the scopes are ${SCOPES.join(', ')}`);
    if (scopes?.length === 0) throw new TenantError('a token needs at least one scope');
    const user = await this.store.tenants.firstUser(tenantId);
    if (!user) throw new TenantError(`no tenant ${tenantId}`);
    const now = this.clock.now();
    const secret = newToken();
    const token: TokenRow = {
      id: randomUUID(),
      tenant_id: tenantId,
      user_id: user.id,
      name,
      prefix: secret.prefix,
      created_at: now.toISOString(),
      last_used_at: null,
      expires_at:
        expiresInDays === undefined ? null : new Date(now.getTime() + expiresInDays * DAY_MS).toISOString(),
      revoked_at: null,
      scopes: storedScopes(scopes?.filter(isScope)),
    };
    await this.store.tenants.issueToken(token, secret.hash);
    return {
      token_id: token.id,
      token: secret.token,
      expires_at: token.expires_at,
      scopes: readScopes(token.scopes),
    };
  }

  /**
   * A suspended tenant's tokens are refused (403 tenant_suspended) and its queued runs wait; nothing of its
   * data is touched, and resuming gives everything back. Suspending a suspended tenant keeps its first time.
   */
  async suspend(tenantId: string): Promise<TenantRow> {
    const tenant = await this.store.tenants.get(tenantId);
    if (!tenant) throw new TenantError(`no tenant ${tenantId}`);
    if (tenant.suspended_at) return tenant;
    return (await this.store.tenants.setSuspended(tenantId, this.clock.now().toISOString()))!;
  }

  async resume(tenantId: string): Promise<TenantRow> {
    const tenant = await this.store.tenants.setSuspended(tenantId, null);
    if (!tenant) throw new TenantError(`no tenant ${tenantId}`);
    return tenant;
  }

  async listTokens(tenantId: string): Promise<TokenView[]> {
    return (await this.store.tenants.listTokens(tenantId)).map(viewToken);
  }

  async revokeToken(tokenId: string): Promise<TokenView> {
    const row = await this.store.tenants.revokeToken(tokenId, this.clock.now().toISOString());
    if (!row) throw new TenantError(`no token ${tokenId}`);
    return viewToken(row);
  }

  /** The caller behind a bearer token, or why there is none. */
  async authenticate(token: string): Promise<Principal | Refusal> {
    if (!looksLikeToken(token)) return 'invalid';
    const found = await this.store.tenants.lookupToken(hashToken(token));
    if (!found || found.revokedAt) return 'invalid';
    const now = this.clock.now();
    if (found.expiresAt && found.expiresAt <= now.toISOString()) return 'expired';
    if (found.tenantSuspendedAt) return 'suspended';
    if (!found.lastUsedAt || now.getTime() - Date.parse(found.lastUsedAt) > TOUCH_INTERVAL_MS) {
      await this.store.tenants.touchToken(found.tokenId, now.toISOString());
    }
    return { tenantId: found.tenantId, userId: found.userId, tokenId: found.tokenId, scopes: found.scopes };
  }
}
