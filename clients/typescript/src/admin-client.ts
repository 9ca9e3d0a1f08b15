import type { components, operations } from '../generated/openapi.js';
import { ApiTransport, type TransportOptions, unwrap } from './transport.js';

type Schemas = components['schemas'];
export type AdminTenant = Schemas['AdminTenant'];
export type AdminToken = Schemas['AdminToken'];
/** A token as issued: with its secret (`token`), shown in that answer only. */
export type AdminIssuedToken = Schemas['AdminIssuedToken'];
/** A tenant just created and its first token, with the token's secret. */
export type AdminCreatedTenant = Schemas['AdminCreatedTenantResponse']['data'];
export type AuditEvent = Schemas['AuditEvent'];
export type TokenScope = Schemas['TokenScope'];
/**
 * A new tenant: its `name`; `currency` (USD) and `price_per_point` (10) are the server's defaults when
 * left out.
 */
export type AdminCreateTenantInput = Pick<Schemas['AdminCreateTenantRequest'], 'name'> &
  Partial<Omit<Schemas['AdminCreateTenantRequest'], 'name'>>;
export type AdminUpdateTenantInput = Schemas['AdminUpdateTenantRequest'];
export type AdminIssueTokenInput = Schemas['AdminIssueTokenRequest'];
export type AdminTenantListQuery = NonNullable<operations['adminListTenants']['parameters']['query']>;
export type AuditEventQuery = NonNullable<operations['adminListAuditEvents']['parameters']['query']>;
/** A ledger entry as the feed takes it; `description` is empty when left out. */
export type AdminLedgerEntryInput = Omit<Schemas['AdminLedgerEntry'], 'description'> &
  Partial<Pick<Schemas['AdminLedgerEntry'], 'description'>>;
export type AdminLedgerBatchResult = Schemas['AdminLedgerBatchResponse']['data'];
export type AdminUsage = Schemas['AdminUsage'];
export type AdminUsageListQuery = NonNullable<operations['adminListUsage']['parameters']['query']>;
export type AdminLedgerQuery = NonNullable<operations['adminListLedgerEntries']['parameters']['query']>;
export type AdminUsageQuery = NonNullable<operations['adminGetTenantUsage']['parameters']['query']>;
export type AdminUsageDay = Schemas['AdminUsageDay'];
export type AdminLedgerEntryOutcome = Schemas['AdminLedgerEntryOutcome'];
export type AuditAction = Schemas['AuditAction'];
export type Transaction = Schemas['Transaction'];
/** One of the platform's admin tokens (never its secret). */
export type PlatformAdminToken = Schemas['PlatformAdminToken'];
/** An admin token as issued: with its secret (`token`), shown in that answer only. */
export type PlatformAdminIssuedToken = Schemas['PlatformAdminTokenIssuedResponse']['data'];
export type AdminScope = Schemas['AdminScope'];
export type AdminIssueAdminTokenInput = Schemas['AdminIssueAdminTokenRequest'];

export interface AdminClientOptions extends TransportOptions {
  /** The admin listener (the server's `ADMIN_PORT`), for example `http://127.0.0.1:8090`. */
  baseUrl: string;
  /** A platform admin token (`ota_admin_...`). */
  token: string;
}

/**
 * The platform's admin API (the operations of the contract's "Platform admin" tag, on the admin listener):
 * tenants, their tokens, their ledgers and usage, the platform's admin tokens and the audit trail. The same
 * transport as the tenant client: `api` is the raw typed client, 429, 503 and 409 `idempotency_key_in_use`
 * are retried after `Retry-After`, and every POST carries an `Idempotency-Key` that its retries reuse (a create or an issue whose answer was lost is
 * answered again, never done twice).
 */
export class OpenTenantAdminClient extends ApiTransport {
  constructor(options: AdminClientOptions) {
    super(options);
  }

  /** A tenant and its first token (every scope); the token's secret is in this answer only. */
  async createTenant(input: AdminCreateTenantInput): Promise<AdminCreatedTenant> {
    return unwrap(
      await this.api.POST('/api/admin/tenants', {
        // the contract's defaults make `currency` and `price_per_point` required in the generated type;
        // the server fills in the ones left out
        body: input as Schemas['AdminCreateTenantRequest'],
      }),
    ).data;
  }

  /** One page of tenants, oldest first (`limit`, `offset`). */
  async listTenants(query: AdminTenantListQuery = {}): Promise<Schemas['AdminTenantListResponse']> {
    return unwrap(await this.api.GET('/api/admin/tenants', { params: { query } }));
  }

  /** Every tenant, oldest first, page after page. */
  async *tenants(): AsyncGenerator<AdminTenant> {
    for (let offset = 0; ;) {
      const page = await this.listTenants({ limit: 100, offset });
      yield* page.data;
      offset += page.data.length;
      if (offset >= page.total || page.data.length === 0) return;
    }
  }

  async getTenant(tenantId: string): Promise<AdminTenant> {
    return unwrap(
      await this.api.GET('/api/admin/tenants/{tenant_id}', { params: { path: { tenant_id: tenantId } } }),
    ).data;
  }

  /** Renames or reprices a tenant (at least one of the two); another tenant's name is 409 `tenant_name_taken`. */
  async updateTenant(tenantId: string, changes: AdminUpdateTenantInput): Promise<AdminTenant> {
    return unwrap(
      await this.api.PATCH('/api/admin/tenants/{tenant_id}', {
        params: { path: { tenant_id: tenantId } },
        body: changes,
      }),
    ).data;
  }

  /** Its tokens get 403 `tenant_suspended` from then on; suspending twice keeps the first `suspended_at`. */
  async suspendTenant(tenantId: string): Promise<AdminTenant> {
    return unwrap(
      await this.api.POST('/api/admin/tenants/{tenant_id}/suspend', {
        params: { path: { tenant_id: tenantId } },
      }),
    ).data;
  }

  async resumeTenant(tenantId: string): Promise<AdminTenant> {
    return unwrap(
      await this.api.POST('/api/admin/tenants/{tenant_id}/resume', {
        params: { path: { tenant_id: tenantId } },
      }),
    ).data;
  }

  /** A token with `scopes` (every scope when none), expiring at `expires_at` (never when none); its secret once. */
  async issueToken(tenantId: string, input: AdminIssueTokenInput): Promise<AdminIssuedToken> {
    return unwrap(
      await this.api.POST('/api/admin/tenants/{tenant_id}/tokens', {
        params: { path: { tenant_id: tenantId } },
        body: input,
      }),
    ).data;
  }

  /** Every token of the tenant, revoked and expired ones included, oldest first; never a secret. */
  async listTokens(tenantId: string): Promise<AdminToken[]> {
    return unwrap(
      await this.api.GET('/api/admin/tenants/{tenant_id}/tokens', {
        params: { path: { tenant_id: tenantId } },
      }),
    ).data;
  }

  /** The token gets 401 from then on; revoking twice keeps the first `revoked_at`. */
  async revokeToken(tenantId: string, tokenId: string): Promise<AdminToken> {
    return unwrap(
      await this.api.POST('/api/admin/tenants/{tenant_id}/tokens/{token_id}/revoke', {
        params: { path: { tenant_id: tenantId, token_id: tokenId } },
      }),
    ).data;
  }

  /**
   * Books revenue into the tenant's ledger: 1 to 500 entries, all or nothing, each once per `external_id`
   * (one the ledger has already is a `duplicate`, counted in `skipped`, so a batch sent again books nothing
   * twice; with other content it is 409 `external_id_conflict`). `entries` says what became of each.
   */
  async appendLedgerEntries(
    tenantId: string,
    entries: AdminLedgerEntryInput[],
  ): Promise<AdminLedgerBatchResult> {
    return unwrap(
      await this.api.POST('/api/admin/tenants/{tenant_id}/ledger_entries', {
        params: { path: { tenant_id: tenantId } },
        // the contract's default makes `description` required in the generated type; the server fills it in
        body: { entries: entries as Schemas['AdminLedgerEntry'][] },
      }),
    ).data;
  }

  /** A page of the tenant's ledger, as the tenant lists it (newest `occurred_at` first). */
  async listLedgerEntries(
    tenantId: string,
    query: AdminLedgerQuery = {},
  ): Promise<Schemas['TransactionListResponse']> {
    return unwrap(
      await this.api.GET('/api/admin/tenants/{tenant_id}/ledger_entries', {
        params: { path: { tenant_id: tenantId }, query },
      }),
    );
  }

  /** Books the opposite of one of the tenant's transactions, once (409 `already_reversed` after). */
  async reverseLedgerEntry(
    tenantId: string,
    transactionId: string,
    input: Schemas['AdminReverseLedgerEntryRequest'] = {},
  ): Promise<Schemas['Transaction']> {
    return unwrap(
      await this.api.POST('/api/admin/tenants/{tenant_id}/ledger_entries/{transaction_id}/reverse', {
        params: { path: { tenant_id: tenantId, transaction_id: transactionId } },
        body: input,
      }),
    ).data;
  }

  /**
   * Every tenant's usage of one period, a page of tenants by creation (`next_cursor` as `starting_after`
   * gives the next), for a billing run.
   */
  async listUsage(query: AdminUsageListQuery = {}): Promise<Schemas['AdminUsageListResponse']> {
    return unwrap(await this.api.GET('/api/admin/usage', { params: { query } }));
  }

  /**
   * What the tenant used between two UTC days, inclusive (the current month to today unless given);
   * `granularity: 'day'` adds the days.
   */
  async tenantUsage(tenantId: string, query: AdminUsageQuery = {}): Promise<AdminUsage> {
    return unwrap(
      await this.api.GET('/api/admin/tenants/{tenant_id}/usage', {
        params: { path: { tenant_id: tenantId }, query },
      }),
    ).data;
  }

  /** Every admin token of the platform, revoked and expired ones included, oldest first; never a secret. */
  async listAdminTokens(): Promise<PlatformAdminToken[]> {
    return unwrap(await this.api.GET('/api/admin/admin_tokens')).data;
  }

  /**
   * An admin token with `scopes` (every scope when none), expiring at `expires_at` (never when none); a token
   * grants only scopes it holds (403 `insufficient_scope`). Its secret is in this answer only.
   */
  async issueAdminToken(input: AdminIssueAdminTokenInput): Promise<PlatformAdminIssuedToken> {
    return unwrap(await this.api.POST('/api/admin/admin_tokens', { body: input })).data;
  }

  /** The admin token gets 401 from then on; revoking twice keeps the first `revoked_at`. */
  async revokeAdminToken(adminTokenId: string): Promise<PlatformAdminToken> {
    return unwrap(
      await this.api.POST('/api/admin/admin_tokens/{admin_token_id}/revoke', {
        params: { path: { admin_token_id: adminTokenId } },
      }),
    ).data;
  }

  /**
   * One page of the audit trail, newest first unless `order: 'asc'`; `tenant_id`, `action`, `since` and
   * `until` filter it, `starting_after` continues after an event (a page's `next_cursor`).
   */
  async listAuditEvents(query: AuditEventQuery = {}): Promise<Schemas['AdminAuditEventListResponse']> {
    return unwrap(await this.api.GET('/api/admin/audit_events', { params: { query } }));
  }

  /**
   * The whole audit trail matching `query`, page after page by cursor, in the order asked: every event once,
   * however many changes are made meanwhile (newest first, those made after the first page are not among
   * them; oldest first, they come at the end). An exporter keeps the last id and passes it as
   * `starting_after` with `order: 'asc'` next time.
   */
  async *auditEvents(query: Omit<AuditEventQuery, 'limit' | 'offset'> = {}): AsyncGenerator<AuditEvent> {
    for (let after = query.starting_after; ;) {
      const page = await this.listAuditEvents({ ...query, limit: 100, starting_after: after });
      yield* page.data;
      if (page.next_cursor === null) return;
      after = page.next_cursor;
    }
  }
}

export function createAdminClient(options: AdminClientOptions): OpenTenantAdminClient {
  return new OpenTenantAdminClient(options);
}
