/**
 * The tenant store's contract, run once per engine (vitest.config.ts): what TenantRepo in
 * src/store/types.ts promises, through the repository alone.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store, TenantRow, TokenRow, UserRow } from '../../src/store/types.js';
import { openTestStore, type TestStore } from '../helpers/engine.js';

let opened: TestStore;
let store: Store;
beforeAll(async () => {
  opened = await openTestStore();
  store = opened.store;
});
afterAll(async () => {
  await opened.close();
});

const at = '2026-11-26T10:00:00.000Z';

function rows(name: string) {
  const tenant: TenantRow = {
    id: randomUUID(),
    name,
    currency: 'EUR',
    price_per_point: 7,
    created_at: at,
    suspended_at: null,
  };
  const user: UserRow = { id: randomUUID(), tenant_id: tenant.id, name: 'owner', created_at: at };
  const token: TokenRow = {
    id: randomUUID(),
    tenant_id: tenant.id,
    user_id: user.id,
    name: 'first',
    prefix: 'ota_1234',
    created_at: at,
    last_used_at: null,
    expires_at: null,
    revoked_at: null,
    scopes: null,
  };
  return { tenant, user, token, hash: randomUUID() };
}

describe('tenants', () => {
  it('creates a tenant with its first user and token, found by id, by name and in the list', async () => {
    const { tenant, user, token, hash } = rows(`t-${randomUUID()}`);
    await store.tenants.create(tenant, user, token, hash);
    expect(await store.tenants.get(tenant.id)).toEqual(tenant);
    expect(await store.tenants.findByName(tenant.name)).toEqual(tenant);
    expect(await store.tenants.list()).toContainEqual(tenant);
    expect(await store.tenants.firstUser(tenant.id)).toEqual(user);
    expect(await store.tenants.listTokens(tenant.id)).toEqual([token]);
    expect(await store.tenants.get(randomUUID())).toBeUndefined();
    expect(await store.tenants.findByName(`none-${randomUUID()}`)).toBeUndefined();
  });

  it('sets the price per point of a tenant that exists, and says false for one that does not', async () => {
    const { tenant, user, token, hash } = rows(`t-${randomUUID()}`);
    await store.tenants.create(tenant, user, token, hash);
    expect(await store.tenants.setPricePerPoint(tenant.id, 12)).toBe(true);
    expect((await store.tenants.get(tenant.id))?.price_per_point).toBe(12);
    expect(await store.tenants.setPricePerPoint(randomUUID(), 12)).toBe(false);
  });

  it("suspends and resumes a tenant; its tokens' lookup says so; an unknown tenant is undefined", async () => {
    const { tenant, user, token, hash } = rows(`t-${randomUUID()}`);
    await store.tenants.create(tenant, user, token, hash);
    expect(await store.tenants.setSuspended(tenant.id, at)).toEqual({ ...tenant, suspended_at: at });
    expect((await store.tenants.lookupToken(hash))?.tenantSuspendedAt).toBe(at);
    expect(await store.tenants.setSuspended(tenant.id, null)).toEqual(tenant);
    expect((await store.tenants.lookupToken(hash))?.tenantSuspendedAt).toBeNull();
    expect(await store.tenants.setSuspended(randomUUID(), at)).toBeUndefined();
  });
});

describe('tokens', () => {
  it('a token is looked up by its hash only, with its expiry, revocation and last use', async () => {
    const { tenant, user, token, hash } = rows(`t-${randomUUID()}`);
    await store.tenants.create(tenant, user, token, hash);
    expect(await store.tenants.lookupToken(hash)).toEqual({
      tenantId: tenant.id,
      userId: user.id,
      tokenId: token.id,
      expiresAt: null,
      revokedAt: null,
      lastUsedAt: null,
      scopes: null,
      tenantSuspendedAt: null,
    });
    expect(await store.tenants.lookupToken(token.id)).toBeUndefined();
    await store.tenants.touchToken(token.id, '2026-11-26T11:00:00.000Z');
    expect((await store.tenants.lookupToken(hash))?.lastUsedAt).toBe('2026-11-26T11:00:00.000Z');
  });

  it('issues more tokens, and revokes one without touching the others; an unknown token is undefined', async () => {
    const { tenant, user, token, hash } = rows(`t-${randomUUID()}`);
    await store.tenants.create(tenant, user, token, hash);
    const second: TokenRow = {
      ...token,
      id: randomUUID(),
      name: 'second',
      expires_at: '2027-01-01T00:00:00.000Z',
      scopes: 'finance:read runs:read',
    };
    const secondHash = randomUUID();
    await store.tenants.issueToken(second, secondHash);
    expect((await store.tenants.listTokens(tenant.id)).map((t) => t.id).sort()).toEqual(
      [token.id, second.id].sort(),
    );
    expect(await store.tenants.lookupToken(secondHash)).toMatchObject({
      expiresAt: '2027-01-01T00:00:00.000Z',
      scopes: 'finance:read runs:read',
    });
    expect((await store.tenants.listTokens(tenant.id)).find((t) => t.id === second.id)?.scopes).toBe(
      'finance:read runs:read',
    );
    const revoked = await store.tenants.revokeToken(second.id, '2026-11-26T12:00:00.000Z');
    expect(revoked).toMatchObject({ id: second.id, revoked_at: '2026-11-26T12:00:00.000Z' });
    expect((await store.tenants.lookupToken(secondHash))?.revokedAt).toBe('2026-11-26T12:00:00.000Z');
    expect((await store.tenants.lookupToken(hash))?.revokedAt).toBeNull();
    expect(await store.tenants.revokeToken(randomUUID(), at)).toBeUndefined();
  });
});
