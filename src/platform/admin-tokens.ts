import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { AdminTokenRow, AuditRow, PlatformUnit, Principal, Store } from '../store/types.js';
import { auditRow, type ChangeOrigin, OPERATOR } from './audit.js';
import { ADMIN_SCOPES, type AdminScope, holds, readAdminScopes, storedAdminScopes } from './admin-scopes.js';
import { ERRORS } from '../kernel/errors.js';
import type { Clock } from '../kernel/time.js';

/**
 * The platform's own keys to the admin API (its own listener, ADMIN_PORT). The first is issued by the admin
 * command line, more over the admin API with the scopes a job needs; stored as a SHA-256 hash like tenants' tokens, and shaped apart from them: `ota_admin_` and 32
 * random bytes, so that neither kind of token passes for the other before any lookup.
 */
export const ADMIN_TOKEN_PREFIX = 'ota_admin_';
const ADMIN_TOKEN_PATTERN = /^ota_admin_[A-Za-z0-9_-]{43}$/;
/** Where an admin token's idempotency keys and rate bucket live: never a tenant's id (those are UUIDs). */
export const ADMIN_SPACE = 'admin:';
const TOUCH_INTERVAL_MS = 60_000;

export class AdminTokenNotFound extends Error {
  constructor(tokenId: string) {
    super(`no admin token ${tokenId}`);
  }
}

/** An admin token as the admin API shows it (PlatformAdminToken in openapi.yaml); never its secret. */
export interface AdminTokenView {
  admin_token_id: string;
  name: string;
  prefix: string;
  scopes: AdminScope[];
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  revoked_at: string | null;
}

const view = ({ id, scopes, ...rest }: AdminTokenRow): AdminTokenView => ({
  admin_token_id: id,
  name: rest.name,
  prefix: rest.prefix,
  scopes: readAdminScopes(scopes),
  created_at: rest.created_at,
  last_used_at: rest.last_used_at,
  expires_at: rest.expires_at,
  revoked_at: rest.revoked_at,
});

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

export const looksLikeAdminToken = (value: string) => ADMIN_TOKEN_PATTERN.test(value);

/** A new secret, and the prefix that recognises it. */
function mint(): { token: string; prefix: string } {
  const token = `${ADMIN_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { token, prefix: token.slice(0, 16) };
}

/** What the audit trail says of an issued admin token (never its secret). */
const issuedDetail = (row: AdminTokenRow) => ({
  name: row.name,
  admin_scopes: readAdminScopes(row.scopes),
  expires_at: row.expires_at,
});

/** What an admin token is issued with: every scope and no expiry unless given. */
export interface AdminTokenGrant {
  scopes?: readonly AdminScope[] | undefined;
  expiresAt?: string | null | undefined;
}

export class AdminTokens {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    /** Told every audit row once committed (services.ts: a log line). */
    private readonly onAudit?: (row: AuditRow) => void,
  ) {}

  private async audit(tx: PlatformUnit, row: AuditRow): Promise<void> {
    await tx.audit(row);
    tx.afterCommit(() => this.onAudit?.(row));
  }

  /**
   * A new admin token: by an operator on the admin command line (every scope unless given), or over the
   * admin API by a token (`origin`), which grants only scopes it holds (`grantor`: its stored scopes).
   */
  async issue(
    name: string,
    grant: AdminTokenGrant = {},
    origin: ChangeOrigin = { actor: OPERATOR },
    grantor: string | null = null,
  ): Promise<AdminTokenView & { token: string }> {
    const now = this.clock.now();
    const lacking = (grant.scopes ?? ADMIN_SCOPES).find((scope) => !holds(grantor, scope));
    if (lacking) throw ERRORS.insufficientScope(lacking);
    if (grant.expiresAt != null && Date.parse(grant.expiresAt) <= now.getTime())
      throw ERRORS.expiryNotInFuture();
    const { token, prefix } = mint();
    const row: AdminTokenRow = {
      id: randomUUID(),
      name,
      prefix,
      scopes: storedAdminScopes(grant.scopes),
      created_at: now.toISOString(),
      last_used_at: null,
      expires_at: grant.expiresAt == null ? null : new Date(grant.expiresAt).toISOString(),
      revoked_at: null,
    };
    await this.store.platform.change(async (tx) => {
      await tx.issueAdminToken(row, hash(token));
      await this.audit(
        tx,
        auditRow(origin.actor, 'admin_token.issued', row.created_at, null, row.id, issuedDetail(row)),
      );
      // the effect is the token: a retry that finds it replaces its lost secret (replaceLostSecret)
      await tx.recordEffect(row.id);
    }, origin.effect);
    return { ...view(row), token };
  }

  /**
   * A token issued under an Idempotency-Key whose answer was lost: its secret was shown to no one, so it is
   * revoked and a token like it issued in its place, with a secret of its own.
   */
  async replaceLostSecret(
    tokenId: string,
    origin: ChangeOrigin,
  ): Promise<AdminTokenView & { token: string }> {
    const lost = (await this.store.platform.listAdminTokens()).find((token) => token.id === tokenId);
    if (!lost) throw new AdminTokenNotFound(tokenId);
    const at = this.clock.now().toISOString();
    const { token, prefix } = mint();
    const row: AdminTokenRow = {
      ...lost,
      id: randomUUID(),
      prefix,
      created_at: at,
      last_used_at: null,
      revoked_at: null,
    };
    await this.store.platform.change(async (tx) => {
      const outcome = await tx.revokeAdminToken(lost.id, at);
      if (outcome?.revoked)
        await this.audit(
          tx,
          auditRow(origin.actor, 'admin_token.revoked', at, null, lost.id, { replaced_by: row.id }),
        );
      await tx.issueAdminToken(row, hash(token));
      await this.audit(
        tx,
        auditRow(origin.actor, 'admin_token.issued', at, null, row.id, {
          ...issuedDetail(row),
          replaces: lost.id,
        }),
      );
      await tx.recordEffect(row.id);
    }, origin.effect);
    return { ...view(row), token };
  }

  async list(): Promise<AdminTokenView[]> {
    return (await this.store.platform.listAdminTokens()).map(view);
  }

  async revoke(tokenId: string, origin: ChangeOrigin = { actor: OPERATOR }): Promise<AdminTokenView> {
    const at = this.clock.now().toISOString();
    const found = await this.store.platform.change(async (tx) => {
      const outcome = await tx.revokeAdminToken(tokenId, at);
      if (outcome?.revoked)
        await this.audit(tx, auditRow(origin.actor, 'admin_token.revoked', at, null, tokenId));
      return outcome?.token;
    }, origin.effect);
    if (!found) throw new AdminTokenNotFound(tokenId);
    return view(found);
  }

  /**
   * The caller behind an admin token, as the request pipeline takes a caller: its keys and its rate bucket
   * are the token's own space (ADMIN_SPACE), its scopes the admin scopes it was issued with.
   */
  async authenticate(token: string): Promise<Principal | 'invalid' | 'expired'> {
    if (!looksLikeAdminToken(token)) return 'invalid';
    const found = await this.store.platform.lookupAdminToken(hash(token));
    if (!found || found.revoked_at) return 'invalid';
    const now = this.clock.now();
    if (found.expires_at !== null && Date.parse(found.expires_at) <= now.getTime()) return 'expired';
    if (!found.last_used_at || now.getTime() - Date.parse(found.last_used_at) > TOUCH_INTERVAL_MS)
      await this.store.platform.touchAdminToken(found.id, now.toISOString());
    return { tenantId: `${ADMIN_SPACE}${found.id}`, userId: '', tokenId: found.id, scopes: found.scopes };
  }
}
