/**
 * Every POST of the contract is once-only under an Idempotency-Key: it records its effect on the key in the
 * effect's own transaction (so that a retry after a lost answer finds it), or its handler's onceOnly()
 * says why it needs no record. This walks the contract, so that a new POST cannot ship without either; the kill -9
 * proof of the recorded ones is test/process/idempotency-crash.test.ts.
 */
import { randomUUID } from 'node:crypto';
import type { OpenAPIV3 } from 'openapi-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handlers } from '../../src/http/handlers/index.js';
import { onceOnlyPolicies } from '../../src/http/idempotency.js';
import { textPdf, uploadPdf, waitForRun } from '../helpers/files.js';
import { type Harness, loadedContract, startHarness } from '../helpers/harness.js';

let h: Harness;
let pdf: Uint8Array;
beforeAll(async () => {
  h = await startHarness({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  pdf = await textPdf(1, 3);
});
afterAll(async () => {
  await h?.close();
});

const endpoint = async () =>
  (
    await h.request('POST', '/api/open/webhook_endpoints', {
      json: { url: 'http://127.0.0.1:9/hook' },
    })
  ).body.data.id as string;

const finishedRun = async () => {
  const fileId = await uploadPdf(h, pdf);
  const run = (await h.request('POST', '/api/open/runs', { json: { file_id: fileId } })).body.data;
  await waitForRun(h, run.id);
  return run.id as string;
};

/**
 * A request each POST answers with its effect, and the id of the resource the effect is on. A POST of the
 * contract missing here fails the walk below.
 */
const requests: Record<
  string,
  () => Promise<{
    route: string;
    json: unknown;
    resource: (data: {
      id?: string;
      upload_id?: string;
      token_id?: string;
      admin_token_id?: string;
      export_id?: string;
      token?: { token_id: string };
    }) => string;
    /** a platform's operation: sent to the admin listener with the admin token */
    admin?: boolean;
  }>
> = {
  adminCreateTenant: async () => ({
    route: '/api/admin/tenants',
    json: { name: `once-${randomUUID()}` },
    // the effect is the first token: a retry replaces its secret
    resource: (data) => data.token!.token_id,
    admin: true,
  }),
  adminIssueToken: async () => ({
    route: `/api/admin/tenants/${h.other.tenant_id}/tokens`,
    json: { name: 'once' },
    resource: (data) => data.token_id!,
    admin: true,
  }),
  adminSuspendTenant: async () => ({
    route: `/api/admin/tenants/${h.other.tenant_id}/suspend`,
    json: undefined,
    resource: () => h.other.tenant_id,
    admin: true,
  }),
  adminResumeTenant: async () => ({
    route: `/api/admin/tenants/${h.other.tenant_id}/resume`,
    json: undefined,
    resource: () => h.other.tenant_id,
    admin: true,
  }),
  adminRevokeToken: async () => ({
    route: `/api/admin/tenants/${h.other.tenant_id}/tokens/${h.other.token_id}/revoke`,
    json: undefined,
    resource: () => h.other.token_id,
    admin: true,
  }),
  adminAppendLedgerEntries: async () => ({
    route: `/api/admin/tenants/${h.other.tenant_id}/ledger_entries`,
    json: {
      entries: [
        {
          external_id: 'once',
          type: 'tech',
          amount: 1,
          currency: 'USD',
          occurred_at: '2026-11-01T00:00:00Z',
        },
      ],
    },
    resource: () => h.other.tenant_id,
    admin: true,
  }),
  adminReverseLedgerEntry: async () => {
    const fed = await h.admin('POST', `/api/admin/tenants/${h.other.tenant_id}/ledger_entries`, {
      json: {
        entries: [
          {
            external_id: `once-${randomUUID()}`,
            type: 'tech',
            amount: 3,
            currency: 'USD',
            occurred_at: '2026-11-02T00:00:00Z',
          },
        ],
      },
    });
    const transactionId = fed.body.data.entries[0].transaction_id as string;
    return {
      route: `/api/admin/tenants/${h.other.tenant_id}/ledger_entries/${transactionId}/reverse`,
      json: undefined,
      // the effect is the reversal: a retry answers it
      resource: (data) => data.id!,
      admin: true,
    };
  },
  adminDeleteTenant: async () => {
    // a tenant of its own: the one marked stays marked for the rest of the file
    const leaving = await h.server.services.tenants.create(`once-leaving-${randomUUID()}`);
    return {
      route: `/api/admin/tenants/${leaving.tenant_id}/delete`,
      json: { grace_period_seconds: 3_600 },
      resource: () => leaving.tenant_id,
      admin: true,
    };
  },
  adminCreateTenantExport: async () => ({
    route: `/api/admin/tenants/${h.other.tenant_id}/exports`,
    json: undefined,
    // the effect is the export: a retry answers it
    resource: (data) => data.export_id!,
    admin: true,
  }),
  adminIssueAdminToken: async () => ({
    route: '/api/admin/admin_tokens',
    json: { name: 'once', scopes: ['admin:usage'] },
    // the effect is the token: a retry replaces its secret
    resource: (data) => data.admin_token_id!,
    admin: true,
  }),
  adminRevokeAdminToken: async () => {
    const spare = await h.server.services.adminTokens.issue('once-spare');
    return {
      route: `/api/admin/admin_tokens/${spare.admin_token_id}/revoke`,
      json: undefined,
      resource: () => spare.admin_token_id,
      admin: true,
    };
  },
  createUpload: async () => ({
    route: '/api/open/uploads',
    json: { file_name: 'a.pdf', size_bytes: 10 },
    resource: (data) => data.upload_id!,
  }),
  completeUpload: async () => {
    throw new Error('completeUpload records no effect');
  },
  createRun: async () => ({
    route: '/api/open/runs',
    json: { file_id: await uploadPdf(h, pdf) },
    resource: (data) => data.id!,
  }),
  rerunRun: async () => {
    const id = await finishedRun();
    return { route: `/api/open/runs/${id}/rerun`, json: undefined, resource: () => id };
  },
  cancelRun: async () => {
    const fileId = await uploadPdf(h, pdf);
    const id = (await h.request('POST', '/api/open/runs', { json: { file_id: fileId } })).body.data.id;
    return { route: `/api/open/runs/${id}/cancel`, json: undefined, resource: () => id };
  },
  createWebhookEndpoint: async () => ({
    route: '/api/open/webhook_endpoints',
    json: { url: 'http://127.0.0.1:9/hook' },
    resource: (data) => data.id!,
  }),
  rotateWebhookSecret: async () => {
    const id = await endpoint();
    return { route: `/api/open/webhook_endpoints/${id}/rotate_secret`, json: undefined, resource: () => id };
  },
  enableWebhookEndpoint: async () => {
    const id = await endpoint();
    return { route: `/api/open/webhook_endpoints/${id}/enable`, json: undefined, resource: () => id };
  },
};

const posts = async () => {
  const contract = (await loadedContract()).definition as OpenAPIV3.Document;
  return Object.values(contract.paths)
    .map((item) => item?.post?.operationId)
    .filter((id): id is string => id !== undefined);
};

const ONCE_ONLY = Object.fromEntries(onceOnlyPolicies(handlers));

describe('every POST of the contract', () => {
  it('has a recorded effect or a declared reason it needs none, and a request here', async () => {
    const ids = await posts();
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) {
      expect(ONCE_ONLY[id], `${id}: its handler declares onceOnly()`).toBeDefined();
      expect(requests[id], `${id}: a request in this test`).toBeDefined();
    }
    expect(Object.keys(ONCE_ONLY).toSorted()).toEqual(ids.toSorted());
    for (const [id, policy] of Object.entries(ONCE_ONLY))
      if ('needsNoRecord' in policy) expect(policy.needsNoRecord.length, id).toBeGreaterThan(20);
  });

  it('records its effect on the key in the same transaction, where it says it does', async () => {
    const recorded = (await posts()).filter((id) => 'recover' in ONCE_ONLY[id]!);
    for (const id of recorded) {
      let prepared = await requests[id]!();
      let key = randomUUID();
      const send = prepared.admin ? h.admin : h.request;
      let answer = await send('POST', prepared.route, {
        json: prepared.json,
        headers: { 'Idempotency-Key': key },
      });
      // a one-page run can finish before it is cancelled: then cancel a new one
      for (let tries = 0; id === 'cancelRun' && answer.body?.error === 'run_finished' && tries < 5; tries++) {
        prepared = await requests[id]!();
        key = randomUUID();
        answer = await h.request('POST', prepared.route, {
          json: prepared.json,
          headers: { 'Idempotency-Key': key },
        });
      }
      const { resource } = prepared;
      expect(answer.status, `${id}: ${answer.text}`).toBeLessThan(300);
      const [row] = await h.query<{ resource_id: string | null }>(
        'SELECT resource_id FROM idempotency_keys WHERE key = ?',
        [key],
      );
      expect(row?.resource_id, id).toBe(resource(answer.body.data as Parameters<typeof resource>[0]));
    }
  });
});
