/**
 * The tenant store's contract, run once per engine (vitest.config.ts): what TenantRepo in
 * src/store/types.ts promises, and the tenant writes of a platform change (TenantChanges), through the store
 * alone.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store, TenantChanges, TenantRow, TokenRow, UserRow } from '../../src/store/types.js';
import { Tenants } from '../../src/tenants/service.js';
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
/** One platform change with only tenant writes in it. */
const change = <T>(work: (tenants: TenantChanges) => Promise<T>) =>
  store.platform.change((tx) => work(tx.tenants));

function rows(name: string) {
  const tenant: TenantRow = {
    id: randomUUID(),
    name,
    currency: 'EUR',
    price_per_point: 7,
    created_at: at,
    suspended_at: null,
    api_version: '2026-11-29',
    external_id: null,
    metadata: '{}',
    deletion_requested_at: null,
    erase_at: null,
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
    await change((t) => t.create(tenant, user, token, hash));
    expect(await store.tenants.get(tenant.id)).toEqual(tenant);
    expect(await store.tenants.findByName(tenant.name)).toEqual(tenant);
    expect(await store.tenants.list()).toContainEqual(tenant);
    expect(await store.tenants.firstUser(tenant.id)).toEqual(user);
    expect(await store.tenants.listTokens(tenant.id)).toEqual([token]);
    expect(await store.tenants.get(randomUUID())).toBeUndefined();
    expect(await store.tenants.findByName(`none-${randomUUID()}`)).toBeUndefined();
  });

  it('renames and reprices a tenant that exists, and says undefined for one that does not', async () => {
    const { tenant, user, token, hash } = rows(`t-${randomUUID()}`);
    await change((t) => t.create(tenant, user, token, hash));
    expect(await change((t) => t.update(tenant.id, { price_per_point: 12 }))).toEqual({
      ...tenant,
      price_per_point: 12,
    });
    const name = `renamed-${randomUUID()}`;
    expect(await change((t) => t.update(tenant.id, { name }))).toEqual({
      ...tenant,
      name,
      price_per_point: 12,
    });
    expect(await store.tenants.findByName(name)).toMatchObject({ id: tenant.id });
    expect(await change((t) => t.update(randomUUID(), { price_per_point: 12 }))).toBeUndefined();
  });

  it('a change that fails leaves nothing of its writes', async () => {
    const { tenant, user, token, hash } = rows(`t-${randomUUID()}`);
    const failing = change(async (t) => {
      await t.create(tenant, user, token, hash);
      throw new Error('after the writes');
    });
    await expect(failing).rejects.toThrow('after the writes');
    expect(await store.tenants.get(tenant.id)).toBeUndefined();
    expect(await store.tenants.lookupToken(hash)).toBeUndefined();
  });

  it("suspends and resumes a tenant; its tokens' lookup says so; an unknown tenant is undefined", async () => {
    const { tenant, user, token, hash } = rows(`t-${randomUUID()}`);
    await change((t) => t.create(tenant, user, token, hash));
    expect(await change((t) => t.setSuspended(tenant.id, at))).toEqual({ ...tenant, suspended_at: at });
    expect((await store.tenants.lookupToken(hash))?.tenantSuspendedAt).toBe(at);
    expect(await change((t) => t.setSuspended(tenant.id, null))).toEqual(tenant);
    expect((await store.tenants.lookupToken(hash))?.tenantSuspendedAt).toBeNull();
    expect(await change((t) => t.setSuspended(randomUUID(), at))).toBeUndefined();
  });
});

describe('tokens', () => {
  it('a token is looked up by its hash only, with its expiry, revocation and last use', async () => {
    const { tenant, user, token, hash } = rows(`t-${randomUUID()}`);
    await change((t) => t.create(tenant, user, token, hash));
    expect(await store.tenants.lookupToken(hash)).toEqual({
      tenantId: tenant.id,
      userId: user.id,
      tokenId: token.id,
      expiresAt: null,
      revokedAt: null,
      lastUsedAt: null,
      scopes: null,
      tenantSuspendedAt: null,
      apiVersion: '2026-11-29',
    });
    // the tenant's pinned API version comes with its token, as the pin moves
    expect((await change((t) => t.update(tenant.id, { api_version: '2026-12-01' })))?.api_version).toBe(
      '2026-12-01',
    );
    expect((await store.tenants.lookupToken(hash))?.apiVersion).toBe('2026-12-01');
    expect(await store.tenants.lookupToken(token.id)).toBeUndefined();
    await store.tenants.touchToken(token.id, '2026-11-26T11:00:00.000Z');
    expect((await store.tenants.lookupToken(hash))?.lastUsedAt).toBe('2026-11-26T11:00:00.000Z');
  });

  it('issues more tokens, and revokes one without touching the others; an unknown token is undefined', async () => {
    const { tenant, user, token, hash } = rows(`t-${randomUUID()}`);
    await change((t) => t.create(tenant, user, token, hash));
    const second: TokenRow = {
      ...token,
      id: randomUUID(),
      name: 'second',
      expires_at: '2027-01-01T00:00:00.000Z',
      scopes: 'finance:read runs:read',
    };
    const secondHash = randomUUID();
    await change((t) => t.issueToken(second, secondHash));
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
    const revoke = (tenantId: string, tokenId: string, when: string) =>
      change((t) => t.revokeToken(tenantId, tokenId, when));
    const revoked = await revoke(tenant.id, second.id, '2026-11-26T12:00:00.000Z');
    expect(revoked).toMatchObject({
      token: { id: second.id, revoked_at: '2026-11-26T12:00:00.000Z' },
      revoked: true,
    });
    expect((await store.tenants.lookupToken(secondHash))?.revokedAt).toBe('2026-11-26T12:00:00.000Z');
    expect((await store.tenants.lookupToken(hash))?.revokedAt).toBeNull();
    // a second revocation keeps the first time
    expect(await revoke(tenant.id, second.id, '2026-11-27T12:00:00.000Z')).toMatchObject({
      token: { revoked_at: '2026-11-26T12:00:00.000Z' },
      revoked: false,
    });
    // another tenant's token, or none, is undefined and untouched
    expect(await revoke(randomUUID(), token.id, at)).toBeUndefined();
    expect((await store.tenants.lookupToken(hash))?.revokedAt).toBeNull();
    expect(await revoke(tenant.id, randomUUID(), at)).toBeUndefined();
  });
});

describe('tenants created in one millisecond', () => {
  it('list oldest first in the order they were created, each at its own millisecond', async () => {
    const frozen = { now: () => new Date('2026-11-29T06:00:00.000Z') };
    const tenants = new Tenants(store, frozen);
    const names = Array.from({ length: 10 }, (_, i) => `same-ms-${i}`);
    for (const name of names) await tenants.create(name);
    const listed = (await store.tenants.list()).filter((t) => t.name.startsWith('same-ms-'));
    expect(listed.map((t) => t.name)).toEqual(names);
    expect(listed.map((t) => t.created_at)).toEqual(
      names.map((_, i) => new Date(Date.parse('2026-11-29T06:00:00.000Z') + i).toISOString()),
    );
  });
});
