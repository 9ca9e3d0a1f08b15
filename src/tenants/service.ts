import { randomUUID } from 'node:crypto';
import { ERRORS, type ValidationIssue } from '../kernel/errors.js';
import type {
  AuditAction,
  AuditRow,
  PlatformUnit,
  Principal,
  Store,
  TenantRow,
  TokenRow,
} from '../store/types.js';
import { auditRow, type ChangeOrigin, OPERATOR } from '../platform/audit.js';
import type { Clock } from '../kernel/time.js';
import { NEWEST_VERSION, supportedVersion, versionRefusal } from '../versions/registry.js';
import { isScope, readScopes, type Scope, SCOPES, storedScopes } from './scopes.js';
import { hashToken, looksLikeToken, newToken } from './tokens.js';

export interface CreatedTenant {
  tenant_id: string;
  user_id: string;
  token_id: string;
  /** the first token's secret, shown once */
  token: string;
  /** the tenant and its first token as they were committed */
  tenant: TenantRow;
  first: TokenView;
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

/** No such tenant (the admin API's 404). */
export class TenantNotFound extends TenantError {
  constructor(readonly tenantId: string) {
    super(`no tenant ${tenantId}`);
  }
}

/** No such token, or not the tenant's (the admin API's 404). */
export class TokenNotFound extends TenantError {
  constructor(readonly tokenId: string) {
    super(`no token ${tokenId}`);
  }
}

/** Another tenant has the name (the admin API's 409 tenant_name_taken). */
export class TenantNameTaken extends TenantError {
  constructor(readonly tenantName: string) {
    super(`tenant "${tenantName}" exists`);
  }
}

/** The tenant's grace period after its deletion is over (the admin API's 409 tenant_erasing). */
export class TenantErasing extends TenantError {
  constructor(readonly eraseAt: string) {
    super(`the tenant is erased from ${eraseAt}`);
  }
}

export class TenantExternalIdTaken extends TenantError {
  constructor(readonly externalId: string) {
    super(`a tenant has the external id "${externalId}"`);
  }
}

/** The platform's own id and keys of a tenant (TenantExternalId and Metadata in openapi.yaml). */
export interface TenantIdentity {
  external_id?: string | null | undefined;
  metadata?: Record<string, string> | undefined;
}

/** A tenant's id (a UUID), and what the platform's own external id may be (TenantExternalId in openapi.yaml). */
export const TENANT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const EXTERNAL_ID = /^[A-Za-z0-9._:@-]{1,255}$/;
const MAX_METADATA_KEYS = 50;
const MAX_METADATA_KEY_LENGTH = 40;

/** An external id that reads as a tenant id would make a path ambiguous; metadata keys are bounded. */
function checkIdentity(identity: TenantIdentity, metadata: Record<string, string> | undefined): void {
  const issues: ValidationIssue[] = [];
  if (identity.external_id && TENANT_ID.test(identity.external_id))
    issues.push({
      loc: ['body', 'external_id'],
      msg: 'Value error, external_id must not look like a tenant id (a UUID)',
      type: 'value_error',
    });
  for (const key of Object.keys(identity.metadata ?? {}))
    if (key.length === 0 || key.length > MAX_METADATA_KEY_LENGTH)
      issues.push({
        loc: ['body', 'metadata', key],
        msg: `Value error, a metadata key has 1 to ${MAX_METADATA_KEY_LENGTH} characters`,
        type: 'value_error',
      });
  if (metadata && Object.keys(metadata).length > MAX_METADATA_KEYS)
    issues.push({
      loc: ['body', 'metadata'],
      msg: `Value error, a tenant has at most ${MAX_METADATA_KEYS} metadata keys`,
      type: 'value_error',
    });
  if (issues.length > 0) throw ERRORS.validation(issues);
}

/** Stripe's merge: the keys given are set, a key set to "" is removed, the others are kept. */
function mergedMetadata(
  current: Record<string, string>,
  given: Record<string, string>,
): Record<string, string> {
  const merged = { ...current, ...given };
  for (const [key, value] of Object.entries(given)) if (value === '') delete merged[key];
  return merged;
}

/** A tenant is pinned only to a version requests may ask for. */
function checkVersion(version: string): void {
  if (!supportedVersion(version)) throw new TenantError(versionRefusal(version));
}

function viewToken(row: TokenRow): TokenView {
  const { id, scopes, ...rest } = row;
  return { token_id: id, ...rest, scopes: readScopes(scopes) };
}

export class Tenants {
  /**
   * The creation time last given a tenant here. Tenants list oldest first (created_at, then id): two created
   * in the same millisecond would list in their random ids' order, so a later one gets the next millisecond.
   */
  private lastCreatedMs = 0;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    /** Told every audit row as it is written: the log line of each change (services.ts). */
    private readonly onAudit?: (row: AuditRow) => void,
  ) {}

  async create(
    name: string,
    currency = 'USD',
    pricePerPoint = DEFAULT_PRICE_PER_POINT,
    origin: ChangeOrigin = { actor: OPERATOR },
    apiVersion: string = NEWEST_VERSION,
    identity: TenantIdentity = {},
  ): Promise<CreatedTenant> {
    checkVersion(apiVersion);
    const metadata = mergedMetadata({}, identity.metadata ?? {});
    checkIdentity(identity, metadata);
    const externalId = identity.external_id ?? null;
    if (externalId !== null && (await this.store.tenants.findByExternalId(externalId)))
      throw new TenantExternalIdTaken(externalId);
    if (!/^[A-Z]{3}$/.test(currency))
      throw new TenantError(`currency must be an ISO 4217 code, got "${currency}"`);
    if (!Number.isSafeInteger(pricePerPoint) || pricePerPoint < 0) {
      throw new TenantError('price per point must be a non-negative integer of minor units');
    }
    if (await this.store.tenants.findByName(name)) throw new TenantNameTaken(name);
    this.lastCreatedMs = Math.max(this.clock.now().getTime(), this.lastCreatedMs + 1);
    const now = new Date(this.lastCreatedMs).toISOString();
    const tenant: TenantRow = {
      id: randomUUID(),
      name,
      currency,
      price_per_point: pricePerPoint,
      created_at: now,
      suspended_at: null,
      api_version: apiVersion,
      external_id: externalId,
      metadata: JSON.stringify(metadata),
      deletion_requested_at: null,
      erase_at: null,
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
    await this.heldElsewhere({ name, externalId }, tenant.id, () =>
      this.store.platform.change(async (tx) => {
        await tx.tenants.create(tenant, user, token, secret.hash);
        await this.audit(tx, origin, 'tenant.created', now, tenant.id, tenant.id, {
          name,
          currency,
          price_per_point: pricePerPoint,
          api_version: apiVersion,
          ...(externalId === null ? {} : { external_id: externalId }),
          ...(Object.keys(metadata).length === 0 ? {} : { metadata }),
        });
        // the effect is the first token: a retry that finds it replaces its lost secret (replaceLostSecret)
        await tx.recordEffect(token.id);
      }, origin.effect),
    );
    return {
      tenant_id: tenant.id,
      user_id: user.id,
      token_id: token.id,
      token: secret.token,
      tenant,
      first: viewToken(token),
    };
  }

  /** A token with `scopes`; without them, a token with every scope. */
  async issueToken(
    tenantId: string,
    name = 'token',
    expiresInDays?: number,
    scopes?: readonly string[],
    origin: ChangeOrigin = { actor: OPERATOR },
  ) {
    const now = this.clock.now();
    const expiresAt =
      expiresInDays === undefined ? null : new Date(now.getTime() + expiresInDays * DAY_MS).toISOString();
    return this.issueTokenUntil(tenantId, name, expiresAt, scopes, origin);
  }

  /** A token that expires at `expiresAt` (null: never), with `scopes` (none given: every scope). */
  async issueTokenUntil(
    tenantId: string,
    name: string,
    expiresAt: string | null,
    scopes: readonly string[] | undefined,
    origin: ChangeOrigin,
  ) {
    const unknown = scopes?.filter((scope) => !isScope(scope)) ?? [];
    if (unknown.length > 0)
      throw new TenantError(`unknown scope ${unknown.join(', ')}; the scopes are ${SCOPES.join(', ')}`);
    if (scopes?.length === 0) throw new TenantError('a token needs at least one scope');
    const user = await this.store.tenants.firstUser(tenantId);
    if (!user) throw new TenantNotFound(tenantId);
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
      expires_at: expiresAt,
      revoked_at: null,
      scopes: storedScopes(scopes?.filter(isScope)),
    };
    await this.store.platform.change(async (tx) => {
      await tx.tenants.issueToken(token, secret.hash);
      await this.audit(tx, origin, 'token.issued', token.created_at, tenantId, token.id, {
        name,
        scopes: readScopes(token.scopes),
        expires_at: token.expires_at,
      });
      await tx.recordEffect(token.id);
    }, origin.effect);
    return {
      ...viewToken(token),
      token: secret.token,
    };
  }

  /**
   * A token whose answer was lost (a process died after the commit, before its answer reached anyone): its
   * secret cannot be shown again (only its hash is kept), so it is revoked and a token of the same name,
   * scopes and expiry is issued in its place, in one transaction recorded on the retry's key.
   */
  async replaceLostSecret(tokenId: string, origin: ChangeOrigin) {
    const lost = await this.store.platform.getToken(tokenId);
    if (!lost) throw new TokenNotFound(tokenId);
    const now = this.clock.now().toISOString();
    const secret = newToken();
    const token: TokenRow = {
      ...lost,
      id: randomUUID(),
      prefix: secret.prefix,
      created_at: now,
      last_used_at: null,
      revoked_at: null,
    };
    await this.store.platform.change(async (tx) => {
      const outcome = await tx.tenants.revokeToken(lost.tenant_id, lost.id, now);
      if (outcome?.revoked)
        await this.audit(tx, origin, 'token.revoked', now, lost.tenant_id, lost.id, {
          replaced_by: token.id,
        });
      await tx.tenants.issueToken(token, secret.hash);
      await this.audit(tx, origin, 'token.issued', now, lost.tenant_id, token.id, {
        name: token.name,
        scopes: readScopes(token.scopes),
        expires_at: token.expires_at,
        replaces: lost.id,
      });
      await tx.recordEffect(token.id);
    }, origin.effect);
    return { ...viewToken(token), token: secret.token };
  }

  /**
   * Renames, reprices, re-pins a tenant, or changes its external id or metadata (merged, as Stripe merges
   * it); a name or external id another tenant has is refused.
   */
  async update(
    tenantId: string,
    changes: { name?: string; price_per_point?: number; api_version?: string } & TenantIdentity,
    origin: ChangeOrigin = { actor: OPERATOR },
  ): Promise<TenantRow> {
    if (changes.api_version !== undefined) checkVersion(changes.api_version);
    checkIdentity(changes, undefined);
    if (changes.name !== undefined) {
      const holder = await this.store.tenants.findByName(changes.name);
      if (holder && holder.id !== tenantId) throw new TenantNameTaken(changes.name);
    }
    if (changes.external_id) {
      const holder = await this.store.tenants.findByExternalId(changes.external_id);
      if (holder && holder.id !== tenantId) throw new TenantExternalIdTaken(changes.external_id);
    }
    const at = this.clock.now().toISOString();
    const { metadata: given, ...rest } = changes;
    const change = () =>
      this.store.platform.change(async (tx) => {
        const current = await tx.tenants.lock(tenantId);
        if (!current) return undefined;
        let metadata: Record<string, string> | undefined;
        if (given !== undefined) {
          metadata = mergedMetadata(JSON.parse(current.metadata) as Record<string, string>, given);
          checkIdentity({}, metadata);
        }
        const updated = await tx.tenants.update(tenantId, {
          ...rest,
          ...(metadata === undefined ? {} : { metadata: JSON.stringify(metadata) }),
        });
        if (updated) await this.audit(tx, origin, 'tenant.updated', at, tenantId, tenantId, { ...changes });
        return updated;
      });
    const row = await this.heldElsewhere(
      { name: changes.name, externalId: changes.external_id },
      tenantId,
      change,
    );
    if (!row) throw new TenantNotFound(tenantId);
    return row;
  }

  /**
   * A suspended tenant's tokens are refused (403 tenant_suspended) and its queued runs wait; nothing of its
   * data is touched, and resuming gives everything back. Suspending a suspended tenant keeps its first time.
   */
  async suspend(tenantId: string, origin: ChangeOrigin = { actor: OPERATOR }): Promise<TenantRow> {
    const tenant = await this.store.tenants.get(tenantId);
    if (!tenant) throw new TenantNotFound(tenantId);
    if (tenant.suspended_at) return tenant;
    return this.setSuspended(tenantId, this.clock.now().toISOString(), origin);
  }

  /**
   * Resumes a suspended tenant; one marked for deletion is unmarked too, while its grace period lasts
   * (TenantErasing after it).
   */
  async resume(tenantId: string, origin: ChangeOrigin = { actor: OPERATOR }): Promise<TenantRow> {
    const tenant = await this.store.tenants.get(tenantId);
    if (!tenant) throw new TenantNotFound(tenantId);
    if (!tenant.suspended_at) return tenant;
    const { erase_at: eraseAt } = tenant;
    if (!eraseAt) return this.setSuspended(tenantId, null, origin);
    if (eraseAt <= this.clock.now().toISOString()) throw new TenantErasing(eraseAt);
    return this.setSuspended(tenantId, null, origin, async (tx, now) => {
      if (!(await tx.tenants.unmarkDeletion(tenantId, now))) throw new TenantErasing(eraseAt);
    });
  }

  /**
   * Marks the tenant for deletion: it is suspended at once (its tokens refused, its streams ended, its
   * queued runs waiting) and erased at the first sweep after `graceSeconds`; until then, resuming it gives
   * everything back. A marked tenant keeps its first marks.
   */
  async markForDeletion(
    tenantId: string,
    graceSeconds: number,
    origin: ChangeOrigin = { actor: OPERATOR },
  ): Promise<TenantRow> {
    const tenant = await this.store.tenants.get(tenantId);
    if (!tenant) throw new TenantNotFound(tenantId);
    if (tenant.erase_at) return tenant;
    const now = this.clock.now();
    const at = now.toISOString();
    const eraseAt = new Date(now.getTime() + graceSeconds * 1000).toISOString();
    const row = await this.store.platform.change(async (tx) => {
      const before = await tx.tenants.lock(tenantId);
      if (!before) return undefined;
      if (before.erase_at) return before;
      const marked = await tx.tenants.markForDeletion(tenantId, at, eraseAt);
      await this.audit(tx, origin, 'tenant.deletion_scheduled', at, tenantId, tenantId, {
        erase_at: eraseAt,
        grace_period_seconds: graceSeconds,
      });
      return marked;
    });
    if (!row) throw new TenantNotFound(tenantId);
    return row;
  }

  /** Suspends or resumes in one platform change, after `first` (a resume takes a deletion's marks off). */
  private async setSuspended(
    tenantId: string,
    at: string | null,
    origin: ChangeOrigin,
    first?: (tx: PlatformUnit, now: string) => Promise<void>,
  ): Promise<TenantRow> {
    const now = this.clock.now().toISOString();
    const row = await this.store.platform.change(async (tx) => {
      await first?.(tx, now);
      const changed = await tx.tenants.setSuspended(tenantId, at);
      if (changed)
        await this.audit(tx, origin, at ? 'tenant.suspended' : 'tenant.resumed', now, tenantId, tenantId);
      return changed;
    });
    if (!row) throw new TenantNotFound(tenantId);
    return row;
  }

  async listTokens(tenantId: string): Promise<TokenView[]> {
    return (await this.store.tenants.listTokens(tenantId)).map(viewToken);
  }

  /**
   * Revokes a token of the tenant's; a revoked token stays revoked at its first time. `tenantId` undefined:
   * whichever tenant's it is (the admin command line names the token alone).
   */
  async revokeToken(
    tokenId: string,
    tenantId?: string,
    origin: ChangeOrigin = { actor: OPERATOR },
  ): Promise<TokenView> {
    const owner = tenantId ?? (await this.store.platform.getToken(tokenId))?.tenant_id;
    const now = this.clock.now().toISOString();
    const found =
      owner === undefined
        ? undefined
        : await this.store.platform.change(async (tx) => {
            const outcome = await tx.tenants.revokeToken(owner, tokenId, now);
            if (outcome?.revoked) await this.audit(tx, origin, 'token.revoked', now, owner, tokenId);
            return outcome;
          });
    if (!found) throw new TokenNotFound(tokenId);
    return viewToken(found.token);
  }

  /**
   * Runs a change that gives a tenant `name`: when it fails because another tenant took the name meanwhile
   * (the table's unique name, between the check and the write), the answer is the check's.
   */
  /** A change that another tenant's name or external id, taken meanwhile, made fail says so. */
  private async heldElsewhere<T>(
    taken: { name?: string | undefined; externalId?: string | null | undefined },
    tenantId: string,
    change: () => Promise<T>,
  ): Promise<T> {
    try {
      return await change();
    } catch (error) {
      if (taken.name !== undefined) {
        const holder = await this.store.tenants.findByName(taken.name).catch(() => undefined);
        if (holder && holder.id !== tenantId) throw new TenantNameTaken(taken.name);
      }
      if (taken.externalId) {
        const holder = await this.store.tenants.findByExternalId(taken.externalId).catch(() => undefined);
        if (holder && holder.id !== tenantId) throw new TenantExternalIdTaken(taken.externalId);
      }
      throw error;
    }
  }

  /** Writes the change's audit row in its transaction; its log line once it has committed. */
  private async audit(
    tx: PlatformUnit,
    origin: ChangeOrigin,
    action: AuditAction,
    at: string,
    tenantId: string,
    targetId: string,
    detail?: Record<string, unknown>,
  ): Promise<void> {
    const row = auditRow(origin.actor, action, at, tenantId, targetId, detail);
    await tx.audit(row);
    tx.afterCommit(() => this.onAudit?.(row));
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
    return {
      tenantId: found.tenantId,
      userId: found.userId,
      tokenId: found.tokenId,
      scopes: found.scopes,
      apiVersion: found.apiVersion,
    };
  }
}
