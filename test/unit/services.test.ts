/**
 * The uploads, tenants, revenue and webhook services' own rules, against typed fakes of their repositories
 * and blob store (test/helpers/fakes.ts): what each decides before or after the store, without a database.
 * The HTTP matrix checks the same answers end to end on every engine.
 */
import { describe, expect, it, vi } from 'vitest';
import { WebhookEndpoints } from '../../src/events/endpoints/endpoints.js';
import { Revenue } from '../../src/revenue/service.js';
import type { UploadRow, WebhookEndpointRow } from '../../src/store/types.js';
import { TenantError, Tenants } from '../../src/tenants/service.js';
import { hashToken } from '../../src/tenants/tokens.js';
import { Uploads } from '../../src/uploads/service.js';
import { failure, NOW, newTestService, silentLogger } from '../helpers/fakes.js';

const newUploads = (env: Record<string, string> = {}) =>
  newTestService(
    ({ store, blobs, config, clock }) =>
      new Uploads(
        store,
        blobs,
        async () => ({ pageCount: 1, pdfVersion: '1.7', encrypted: false }),
        config,
        clock,
        silentLogger,
      ),
    env,
  );

describe('the upload service', () => {
  it('refuses a declared size over MAX_UPLOAD_BYTES before it starts anything', async () => {
    const { sut, mocks } = newUploads({ MAX_UPLOAD_BYTES: '1000' });
    const error = await failure(
      sut.start('t1', { file_name: 'a.pdf', size_bytes: 1001, content_type: 'application/pdf' }),
    );
    expect(error.status).toBe(413);
    expect(mocks.multipart.start).not.toHaveBeenCalled();
    expect(mocks.unit.uploads.create).not.toHaveBeenCalled();
  });

  it('starts the multipart upload on the file key alone, and aborts it when the tenant has too many pending', async () => {
    const { sut, mocks } = newUploads();
    mocks.multipart.start.mockResolvedValue('mp-1');
    mocks.multipart.abort.mockResolvedValue(undefined);
    mocks.unit.uploads.create.mockResolvedValue('too_many');
    const error = await failure(
      sut.start('t1', { file_name: 'a.pdf', size_bytes: 10, content_type: 'application/pdf' }),
    );
    expect(error.error).toBe('too_many_pending_uploads');
    expect(mocks.multipart.start.mock.calls[0]).toHaveLength(1);
    const [row] = mocks.unit.uploads.create.mock.calls[0]!;
    expect(mocks.multipart.start).toHaveBeenCalledWith(`files/t1/${row.id}.pdf`);
    expect(mocks.multipart.abort).toHaveBeenCalledWith({ key: `files/t1/${row.id}.pdf`, id: 'mp-1' });
  });

  it('answers a pending upload with its parts and what is missing, and an unknown one as not found', async () => {
    const { sut, mocks } = newUploads();
    const upload: UploadRow = {
      id: 'u1',
      tenant_id: 't1',
      file_name: 'a.pdf',
      size_bytes: 20 * 2 ** 20,
      content_type: 'application/pdf',
      sha256: null,
      part_size: 8 * 2 ** 20,
      part_count: 3,
      status: 'pending',
      file_id: null,
      created_at: NOW.toISOString(),
      expires_at: new Date(NOW.getTime() + 3600_000).toISOString(),
      multipart_id: 'mp-1',
    };
    mocks.store.uploads.get.mockImplementation(async (tenantId, id) =>
      tenantId === 't1' && id === 'u1' ? upload : undefined,
    );
    mocks.store.uploads.parts.mockResolvedValue([
      {
        upload_id: 'u1',
        part_number: 2,
        size_bytes: 8 * 2 ** 20,
        sha256: 'x',
        received_at: NOW.toISOString(),
      },
    ]);
    expect(await sut.get('t1', 'u1')).toMatchObject({
      upload_id: 'u1',
      status: 'pending',
      missing_parts: [1, 3],
    });
    expect((await failure(sut.get('t2', 'u1'))).status).toBe(404);
  });
});

describe('the tenant service', () => {
  it('refuses a currency that is not ISO 4217 or a negative price, and a name that exists, before writing', async () => {
    const { sut, mocks } = newTestService(({ store, clock }) => new Tenants(store, clock));
    await expect(sut.create('a', 'usd')).rejects.toThrow(TenantError);
    await expect(sut.create('a', 'USD', -1)).rejects.toThrow(/non-negative integer/);
    mocks.store.tenants.findByName.mockResolvedValue({
      id: 't',
      name: 'a',
      currency: 'USD',
      price_per_point: 1,
      created_at: '',
      suspended_at: null,
      api_version: '2026-11-29',
      external_id: null,
      metadata: '{}',
      deletion_requested_at: null,
      erase_at: null,
    });
    await expect(sut.create('a')).rejects.toThrow(/exists/);
    expect(mocks.store.platform.change).not.toHaveBeenCalled();
  });

  it('finds a token by its hash only, with its scopes; a revoked one is invalid, an expired one expired; use is written at most once a minute', async () => {
    const { sut, mocks } = newTestService(({ store, clock }) => new Tenants(store, clock));
    mocks.store.tenants.findByName.mockResolvedValue(undefined);
    const unit = {
      tenants: { create: vi.fn(async () => undefined) },
      audit: vi.fn(async () => undefined),
      recordEffect: vi.fn(async () => undefined),
      afterCommit: (hook: () => void) => hook(),
    };
    mocks.store.platform.change.mockImplementation(async (work) => work(unit as never));
    const { token, tenant_id } = await sut.create('a');
    // the tenant, its first token and the audit row, in one change
    expect(unit.tenants.create).toHaveBeenCalledTimes(1);
    expect(unit.audit).toHaveBeenCalledWith(
      expect.objectContaining({ action: 'tenant.created', actor: 'operator', tenant_id }),
    );
    const found = {
      tenantId: tenant_id,
      userId: 'u',
      tokenId: 'k',
      revokedAt: null,
      expiresAt: null,
      lastUsedAt: null,
      scopes: 'runs:read runs:write',
      tenantSuspendedAt: null,
      apiVersion: '2026-11-29',
    };
    mocks.store.tenants.lookupToken.mockResolvedValue(found);
    mocks.store.tenants.touchToken.mockResolvedValue(undefined);
    expect(await sut.authenticate(token)).toEqual({
      tenantId: tenant_id,
      userId: 'u',
      tokenId: 'k',
      scopes: 'runs:read runs:write',
      apiVersion: '2026-11-29',
    });
    expect(mocks.store.tenants.lookupToken).toHaveBeenCalledWith(hashToken(token));
    expect(mocks.store.tenants.touchToken).toHaveBeenCalledTimes(1);
    mocks.store.tenants.lookupToken.mockResolvedValue({
      ...found,
      lastUsedAt: new Date(NOW.getTime() - 30_000).toISOString(),
    });
    await sut.authenticate(token);
    expect(mocks.store.tenants.touchToken).toHaveBeenCalledTimes(1);
    mocks.store.tenants.lookupToken.mockResolvedValue({ ...found, revokedAt: NOW.toISOString() });
    expect(await sut.authenticate(token)).toBe('invalid');
    mocks.store.tenants.lookupToken.mockResolvedValue({ ...found, expiresAt: NOW.toISOString() });
    expect(await sut.authenticate(token)).toBe('expired');
    mocks.store.tenants.lookupToken.mockResolvedValue({ ...found, tenantSuspendedAt: NOW.toISOString() });
    expect(await sut.authenticate(token)).toBe('suspended');
    expect(await sut.authenticate('not-a-token')).toBe('invalid');
    expect(mocks.store.tenants.lookupToken).toHaveBeenCalledTimes(5);
  });
});

describe('the revenue service', () => {
  it('pages transactions by offset, `all` as no type, and refuses an end date before the start', async () => {
    const { sut, mocks } = newTestService(({ store, clock }) => new Revenue(store, clock));
    mocks.store.ledger.list.mockResolvedValue({ items: [], total: 0 });
    await sut.listTransactions('t1', {
      transactionType: 'all',
      limit: 20,
      offset: 40,
      startDate: '2026-11-01',
    });
    expect(mocks.store.ledger.list).toHaveBeenCalledWith(
      't1',
      { type: undefined, startDate: '2026-11-01', endDate: undefined },
      20,
      40,
    );
    const error = await failure(
      sut.listTransactions('t1', {
        transactionType: 'tech',
        limit: 20,
        offset: 0,
        startDate: '2026-11-02',
        endDate: '2026-11-01',
      }),
    );
    expect(error.status).toBe(422);
    expect(mocks.store.ledger.list).toHaveBeenCalledTimes(1);
  });

  it('adds the daily sums into today, the month, the previous month and 30 days of chart', async () => {
    const { sut, mocks } = newTestService(({ store, clock }) => new Revenue(store, clock));
    mocks.store.ledger.overview.mockResolvedValue({
      currency: 'EUR',
      allTime: { tech: 1000, ecosystem: -50 },
      daily: [
        { day: '2026-10-31', tech: 7, ecosystem: 0 },
        { day: '2026-11-01', tech: 10, ecosystem: 5 },
        { day: '2026-11-27', tech: 3, ecosystem: -1 },
      ],
      count: 12,
      latestOccurredAt: '2026-11-27T09:00:00.000Z',
    });
    const dashboard = await sut.dashboard('t1');
    expect(mocks.store.ledger.overview).toHaveBeenCalledWith('t1', '2026-10-01', '2026-11-27');
    expect(dashboard).toMatchObject({
      currency: 'EUR',
      all_time: { total: 950, tech: 1000, ecosystem: -50 },
      today: { total: 2, tech: 3, ecosystem: -1 },
      month_to_date: { total: 17, tech: 13, ecosystem: 4 },
      previous_month: { total: 7, tech: 7, ecosystem: 0 },
      transaction_count: 12,
      as_of: NOW.toISOString(),
    });
    expect(dashboard.daily).toHaveLength(30);
    expect(dashboard.daily.at(-1)).toEqual({ date: '2026-11-27', total: 2, tech: 3, ecosystem: -1 });
    // no such tenant: the overview has no currency
    mocks.store.ledger.overview.mockResolvedValue({
      currency: null,
      allTime: { tech: 0, ecosystem: 0 },
      daily: [],
      count: 0,
      latestOccurredAt: null,
    });
    expect((await failure(sut.dashboard('t1'))).status).toBe(404);
  });
});

describe('the webhook endpoint service', () => {
  const endpoint = (over: Partial<WebhookEndpointRow> = {}): WebhookEndpointRow => ({
    id: 'e1',
    tenant_id: 't1',
    url: 'https://hooks.example.com/x',
    events: null,
    description: null,
    status: 'enabled',
    secret: 'whsec_x',
    previous_secret: null,
    previous_secret_until: null,
    failing_since: null,
    api_version: '2026-11-29',
    created_at: NOW.toISOString(),
    ...over,
  });

  it('refuses a loopback or private URL before writing anything', async () => {
    const { sut, mocks } = newTestService(
      ({ store, config, clock }) => new WebhookEndpoints(store, config.webhooks, clock),
    );
    for (const url of [
      'https://127.0.0.1/hook',
      'https://10.0.0.7/hook',
      'https://[::1]/hook',
      'http://hooks.example.com/x',
    ]) {
      expect((await failure(sut.create('t1', { url }))).error, url).toBe('webhook_url_not_allowed');
    }
    expect(mocks.unit.webhooks.create).not.toHaveBeenCalled();
  });

  it('answers the limit as 409, keeps `*` as every type, and shows the secret on create and rotate only', async () => {
    const { sut, mocks } = newTestService(
      ({ store, config, clock }) => new WebhookEndpoints(store, config.webhooks, clock),
      { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', MAX_WEBHOOK_ENDPOINTS_PER_TENANT: '3' },
    );
    mocks.unit.webhooks.create.mockResolvedValueOnce('over_limit');
    const refused = await failure(sut.create('t1', { url: 'https://127.0.0.1/hook' }));
    expect(refused.error).toBe('too_many_webhook_endpoints');
    expect(mocks.unit.webhooks.create.mock.calls[0]![1]).toBe(3);
    mocks.unit.webhooks.create.mockResolvedValueOnce('created');
    const created = await sut.create('t1', { url: 'https://127.0.0.1/hook', events: ['*', 'run.failed'] });
    expect(mocks.unit.webhooks.create.mock.calls[1]![0].events).toBeNull();
    expect(created.secret).toMatch(/^whsec_/);
    mocks.store.webhooks.get.mockResolvedValue(endpoint());
    expect(await sut.get('t1', 'e1')).not.toHaveProperty('secret');
    mocks.unit.webhooks.rotate.mockResolvedValue(undefined);
    expect((await failure(sut.rotateSecret('t1', 'e2'))).status).toBe(404);
  });
});
