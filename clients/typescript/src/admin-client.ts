import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { components, operations } from '../generated/openapi.js';
import { type ErrorEnvelope, ExportIntegrityError, OtaError } from './errors.js';
import { sleep } from './retry.js';
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
export type AdminDeleteTenantInput = Schemas['AdminDeleteTenantRequest'];
/** An export of everything a tenant owns: its `status`, `progress` and, once it has succeeded, `sha256`. */
export type AdminTenantExport = Schemas['AdminTenantExport'];
export type AdminTenantExportStatus = AdminTenantExport['status'];
/** The last entry of an export's archive, `manifest.json`. */
export type TenantExportManifest = Schemas['TenantExportManifest'];

/** How `waitForTenantExport` polls. */
export interface ExportWaitOptions {
  /** Give up after this long (default 1 hour). */
  timeoutMs?: number;
  /** Between two polls (default 500 ms). */
  intervalMs?: number;
  /** Told the export at every poll. */
  onProgress?: (exported: AdminTenantExport) => void;
  signal?: AbortSignal;
}

/** An export's archive as the server streams it. */
export interface TenantExportArchive {
  /** The archive's bytes, read once. */
  body: Readable;
  /** Content-Length, when the server sent it. */
  sizeBytes: number | undefined;
  /** The archive's SHA-256 in hex as the ETag says it, when it does. */
  sha256: string | undefined;
}

/** An archive written to disk and checked: its path, size and SHA-256 (the export's). */
export interface SavedTenantExport {
  path: string;
  size_bytes: number;
  sha256: string;
}

const EXPORT_FINISHED: AdminTenantExportStatus[] = ['succeeded', 'failed'];

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

  /**
   * Marks the tenant for deletion: it answers as a suspended tenant from then on, and is erased at the first
   * sweep after `erase_at`, `grace_period_seconds` from now (the server's default when left out, 30 days).
   * Resuming it before then gives everything back; marking a marked tenant changes nothing.
   */
  async deleteTenant(tenantId: string, input: AdminDeleteTenantInput = {}): Promise<AdminTenant> {
    return unwrap(
      await this.api.POST('/api/admin/tenants/{tenant_id}/delete', {
        params: { path: { tenant_id: tenantId } },
        body: input,
      }),
    ).data;
  }

  /**
   * Starts an export of everything the tenant owns (queued; the server builds it in the background). One at
   * a time per tenant: another while one is queued or running is 409 `export_in_progress`.
   */
  async createTenantExport(tenantId: string): Promise<AdminTenantExport> {
    return unwrap(
      await this.api.POST('/api/admin/tenants/{tenant_id}/exports', {
        params: { path: { tenant_id: tenantId } },
      }),
    ).data;
  }

  /** One export as it is now: `status`, `progress`, and once it has succeeded `size_bytes` and `sha256`. */
  async getTenantExport(tenantId: string, exportId: string): Promise<AdminTenantExport> {
    return unwrap(
      await this.api.GET('/api/admin/tenants/{tenant_id}/exports/{export_id}', {
        params: { path: { tenant_id: tenantId, export_id: exportId } },
      }),
    ).data;
  }

  /** Polls an export until it has succeeded or failed, and returns it (a failed one too: see `error`). */
  async waitForTenantExport(
    tenantId: string,
    exportId: string,
    options: ExportWaitOptions = {},
  ): Promise<AdminTenantExport> {
    const timeoutMs = options.timeoutMs ?? 3_600_000;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const exported = await this.getTenantExport(tenantId, exportId);
      options.onProgress?.(exported);
      if (EXPORT_FINISHED.includes(exported.status)) return exported;
      if (Date.now() > deadline)
        throw new Error(`export ${exportId} is still ${exported.status} after ${timeoutMs} ms`);
      await sleep(options.intervalMs ?? 500, options.signal);
    }
  }

  /**
   * The archive of a succeeded export, as a stream (409 `export_not_ready` before): read it once. The
   * archive's SHA-256 is the export's `sha256`; `saveTenantExport` writes it to a file and checks that.
   */
  async downloadTenantExport(tenantId: string, exportId: string): Promise<TenantExportArchive> {
    const result = await this.api.GET('/api/admin/tenants/{tenant_id}/exports/{export_id}/archive', {
      params: { path: { tenant_id: tenantId, export_id: exportId } },
      parseAs: 'stream',
    });
    if (result.error !== undefined || !result.response.body) {
      throw new OtaError(result.response.status, result.error as Partial<ErrorEnvelope> | undefined);
    }
    const length = Number(result.response.headers.get('content-length') ?? Number.NaN);
    const etag = /^(?:W\/)?"([0-9a-f]{64})"$/.exec(result.response.headers.get('etag') ?? '');
    return {
      body: Readable.fromWeb(result.response.body as WebReadableStream<Uint8Array>),
      sizeBytes: Number.isFinite(length) ? length : undefined,
      sha256: etag?.[1],
    };
  }

  /**
   * Downloads a succeeded export's archive to `file`, streaming it, and checks the SHA-256 of the bytes
   * written against the export's `sha256` (`expectedSha256`, else the export's as the server says it now).
   * The archive is written beside `file` and renamed to it once checked: a download that fails or does not
   * match leaves nothing at `file` (ExportIntegrityError says what came instead).
   */
  async saveTenantExport(
    tenantId: string,
    exportId: string,
    file: string,
    expectedSha256?: string,
  ): Promise<SavedTenantExport> {
    // the archive first: an export not succeeded is the server's 409 export_not_ready, in its words
    const archive = await this.downloadTenantExport(tenantId, exportId);
    let expected: string | null | undefined = expectedSha256;
    try {
      expected ??= (await this.getTenantExport(tenantId, exportId)).sha256;
    } catch (error) {
      archive.body.destroy();
      throw error;
    }
    if (expected === null) {
      archive.body.destroy();
      throw new Error(`export ${exportId} has no sha256 to check its archive against`);
    }
    const hash = createHash('sha256');
    let bytes = 0;
    const partial = path.join(path.dirname(file), `.${path.basename(file)}.${randomUUID()}.part`);
    try {
      await pipeline(
        archive.body,
        new Transform({
          transform(chunk: Buffer, _encoding, done) {
            hash.update(chunk);
            bytes += chunk.length;
            done(null, chunk);
          },
        }),
        createWriteStream(partial, { flags: 'wx' }),
      );
      const received = hash.digest('hex');
      if (received !== expected) throw new ExportIntegrityError(file, expected, received, bytes);
      await rename(partial, file);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    return { path: file, size_bytes: bytes, sha256: expected };
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
