import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { AdminTokenRow, AuditRow, PlatformUnit, Principal, Store } from '../store/types.js';
import { auditRow, OPERATOR } from './audit.js';
import type { Clock } from '../time.js';

/**
 * The platform's own keys to the admin API (its own listener, ADMIN_PORT). Issued by the admin command line
 * only, stored as a SHA-256 hash like tenants' tokens, and shaped apart from them: `ota_admin_` and 32
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

export type AdminTokenView = Omit<AdminTokenRow, 'id'> & { admin_token_id: string };

const view = ({ id, ...rest }: AdminTokenRow): AdminTokenView => ({ admin_token_id: id, ...rest });

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

export const looksLikeAdminToken = (value: string) => ADMIN_TOKEN_PATTERN.test(value);

export class AdminTokens {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    /** Told every audit row once committed (services.ts: a log line). */
    private readonly onAudit?: (row: AuditRow) => void,
  ) {}

  /** Who issues and revokes admin tokens: an operator, on the admin command line. */
  private async audited(
    action: 'admin_token.issued' | 'admin_token.revoked',
    tokenId: string,
    at: string,
    change: (tx: PlatformUnit) => Promise<boolean>,
    detail?: Record<string, unknown>,
  ): Promise<void> {
    await this.store.platform.change(async (tx) => {
      if (!(await change(tx))) return;
      const row = auditRow(OPERATOR, action, at, null, tokenId, detail);
      await tx.audit(row);
      tx.afterCommit(() => this.onAudit?.(row));
    });
  }

  async issue(name: string): Promise<AdminTokenView & { token: string }> {
    const token = `${ADMIN_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const row: AdminTokenRow = {
      id: randomUUID(),
      name,
      prefix: token.slice(0, 16),
      created_at: this.clock.now().toISOString(),
      last_used_at: null,
      revoked_at: null,
    };
    await this.audited(
      'admin_token.issued',
      row.id,
      row.created_at,
      async (tx) => {
        await tx.issueAdminToken(row, hash(token));
        return true;
      },
      { name },
    );
    return { ...view(row), token };
  }

  async list(): Promise<AdminTokenView[]> {
    return (await this.store.platform.listAdminTokens()).map(view);
  }

  async revoke(tokenId: string): Promise<AdminTokenView> {
    const at = this.clock.now().toISOString();
    let found: AdminTokenRow | undefined;
    await this.audited('admin_token.revoked', tokenId, at, async (tx) => {
      const outcome = await tx.revokeAdminToken(tokenId, at);
      found = outcome?.token;
      return outcome?.revoked ?? false;
    });
    if (!found) throw new AdminTokenNotFound(tokenId);
    return view(found);
  }

  /**
   * The caller behind an admin token, as the request pipeline takes a caller: its keys and its rate bucket
   * are the token's own space (ADMIN_SPACE), its scopes none (the admin operations ask for none).
   */
  async authenticate(token: string): Promise<Principal | 'invalid'> {
    if (!looksLikeAdminToken(token)) return 'invalid';
    const found = await this.store.platform.lookupAdminToken(hash(token));
    if (!found || found.revoked_at) return 'invalid';
    const now = this.clock.now();
    if (!found.last_used_at || now.getTime() - Date.parse(found.last_used_at) > TOUCH_INTERVAL_MS)
      await this.store.platform.touchAdminToken(found.id, now.toISOString());
    return { tenantId: `${ADMIN_SPACE}${found.id}`, userId: '', tokenId: found.id, scopes: '' };
  }
}
