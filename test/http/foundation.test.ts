import { randomUUID } from 'node:crypto';
import { OpenAPIBackend } from 'openapi-backend';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractDocument } from '../../src/http/contract-document.js';
import { type Scope, SCOPES } from '../../src/tenants/scopes.js';
import { newToken } from '../../src/tenants/tokens.js';
import { type Harness, startHarness } from '../helpers/harness.js';

const id = randomUUID();
/** One request per operation of the contract, with well-formed path parameters. */
const OPERATIONS: Record<string, [string, string]> = {
  getRevenueDashboard: ['GET', '/api/open/finance/dashboard'],
  listRevenueTransactions: ['GET', '/api/open/finance/transactions'],
  createUpload: ['POST', '/api/open/uploads'],
  listUploads: ['GET', '/api/open/uploads'],
  getUpload: ['GET', `/api/open/uploads/${id}`],
  abortUpload: ['DELETE', `/api/open/uploads/${id}`],
  uploadPart: ['PUT', `/api/open/uploads/${id}/parts/1`],
  completeUpload: ['POST', '/api/open/uploads/complete'],
  getFile: ['GET', `/api/open/files/${id}`],
  createRun: ['POST', '/api/open/runs'],
  listRuns: ['GET', '/api/open/runs'],
  getRun: ['GET', `/api/open/runs/${id}`],
  rerunRun: ['POST', `/api/open/runs/${id}/rerun`],
  cancelRun: ['POST', `/api/open/runs/${id}/cancel`],
  downloadRunFile: ['GET', `/api/open/runs/${id}/files/report.json`],
  createWebhookEndpoint: ['POST', '/api/open/webhook_endpoints'],
  listWebhookEndpoints: ['GET', '/api/open/webhook_endpoints'],
  getWebhookEndpoint: ['GET', `/api/open/webhook_endpoints/${id}`],
  deleteWebhookEndpoint: ['DELETE', `/api/open/webhook_endpoints/${id}`],
  rotateWebhookSecret: ['POST', `/api/open/webhook_endpoints/${id}/rotate_secret`],
  enableWebhookEndpoint: ['POST', `/api/open/webhook_endpoints/${id}/enable`],
  listWebhookDeliveries: ['GET', `/api/open/webhook_endpoints/${id}/deliveries`],
  listEvents: ['GET', '/api/open/events'],
  streamEvents: ['GET', '/api/open/events/stream'],
  listApiVersions: ['GET', '/api/open/versions'],
};

/** The scope each operation needs, as the contract's description lists them. */
/** `any`: any valid token of the tenant, whatever its scopes. */
const SCOPE_OF: Record<string, Scope | 'any'> = {
  getRevenueDashboard: 'finance:read',
  listRevenueTransactions: 'finance:read',
  createUpload: 'uploads:write',
  listUploads: 'uploads:read',
  getUpload: 'uploads:read',
  abortUpload: 'uploads:write',
  uploadPart: 'uploads:write',
  completeUpload: 'uploads:write',
  getFile: 'files:read',
  createRun: 'runs:write',
  listRuns: 'runs:read',
  getRun: 'runs:read',
  rerunRun: 'runs:write',
  cancelRun: 'runs:write',
  downloadRunFile: 'runs:read',
  createWebhookEndpoint: 'webhooks:manage',
  listWebhookEndpoints: 'webhooks:manage',
  getWebhookEndpoint: 'webhooks:manage',
  deleteWebhookEndpoint: 'webhooks:manage',
  rotateWebhookSecret: 'webhooks:manage',
  enableWebhookEndpoint: 'webhooks:manage',
  listWebhookDeliveries: 'webhooks:manage',
  listEvents: 'events:read',
  streamEvents: 'events:read',
  listApiVersions: 'any',
};

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

// 'one-engine' (vitest.config.ts): what is answered before any lookup, or checks the contract alone, runs in
// the sqlite project only
const once = { tags: ['one-engine'] };

describe('contract coverage', once, () => {
  it('lists every authenticated operation of openapi.yaml', async () => {
    const api = new OpenAPIBackend({ definition: contractDocument(), quick: true });
    await api.init();
    const authed = api.router
      .getOperations()
      .filter((op) => op.security === undefined || op.security.length > 0)
      // the platform's operations are the admin listener's (test/http/admin.test.ts)
      .filter((op) => (op as { 'x-audience'?: string })['x-audience'] !== 'admin')
      .map((op) => op.operationId);
    expect(Object.keys(OPERATIONS).sort()).toEqual(authed.sort());
    const declared = Object.fromEntries(
      api.router.getOperations().flatMap((op) => {
        const scope = (op as { 'x-scope'?: string })['x-scope'];
        // the admin operations' scopes are checked in test/http/admin.test.ts
        const admin = (op as { 'x-audience'?: string })['x-audience'] === 'admin';
        return scope === undefined || admin ? [] : [[op.operationId, scope]];
      }),
    );
    expect(declared).toEqual(SCOPE_OF);
  });
});

describe('authentication, for every operation', () => {
  const cases = Object.entries(OPERATIONS);
  // A token is looked up by one query whatever the operation: each engine answers it for the first
  // operation, and the other operations, which differ only in routing, are asked on one engine.
  const [first, ...rest] = cases;
  const lookups = (name: string, check: (operation: string, request: [string, string]) => Promise<void>) => {
    it.each([first!])(name, check);
    it.each(rest)(name, once, check);
  };

  it.each(cases)('%s without a token is 401 Not authenticated', once, async (_op, [method, route]) => {
    const res = await h.request(method, route, { token: null });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({
      code: 401,
      message: 'Not authenticated',
      error: 'not_authenticated',
      data: null,
    });
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
  });

  it.each(cases)(
    '%s with a malformed header is 401 Not authenticated',
    once,
    async (_op, [method, route]) => {
      const res = await h.request(method, route, {
        token: null,
        headers: { authorization: `Basic ${h.tenant.token}` },
      });
      expect(res.status).toBe(401);
      // another scheme than Bearer: the message says how to send the token
      expect(res.body.message).toBe(
        'Not authenticated: the Authorization header is not a bearer token: send `Authorization: Bearer <token>`',
      );
    },
  );

  lookups('%s with an unknown token is 401 Invalid token', async (_op, [method, route]) => {
    for (const token of ['garbage', newToken().token]) {
      const res = await h.request(method, route, { token });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ message: 'Invalid token', error: 'invalid_token' });
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    }
  });

  lookups('%s with a revoked token is 401 Invalid token', async (_op, [method, route]) => {
    const tenants = h.server.services.tenants;
    const revoked = await tenants.issueToken(h.tenant.tenant_id, 'to-revoke');
    await tenants.revokeToken(revoked.token_id);
    const res = await h.request(method, route, { token: revoked.token });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ message: 'Invalid token', error: 'invalid_token' });
  });

  lookups('%s with an expired token is 401 Token expired', async (_op, [method, route]) => {
    const expired = await h.server.services.tenants.issueToken(h.tenant.tenant_id, 'expired', 0);
    const res = await h.request(method, route, { token: expired.token });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 401, message: 'Token expired', error: 'token_expired' });
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('takes any valid token where the operation needs no scope (x-scope: any)', async () => {
    const tenants = h.server.services.tenants;
    for (const [operationId, scope] of Object.entries(SCOPE_OF)) {
      if (scope !== 'any') continue;
      const [method, route] = OPERATIONS[operationId]!;
      const narrow = await tenants.issueToken(h.tenant.tenant_id, 'narrow', undefined, ['runs:read']);
      expect((await h.request(method, route, { token: narrow.token })).status, operationId).toBe(200);
    }
  });

  it.each(cases.filter(([operationId]) => SCOPE_OF[operationId] !== 'any'))(
    '%s needs its scope: 403 insufficient_scope with every other scope, past authentication with it alone',
    async (operationId, [method, route]) => {
      const scope = SCOPE_OF[operationId] as Scope;
      const tenants = h.server.services.tenants;
      const others = SCOPES.filter((s) => s !== scope);
      const without = await tenants.issueToken(h.tenant.tenant_id, 'without', undefined, others);
      const refused = await h.request(method, route, { token: without.token });
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({
        code: 403,
        error: 'insufficient_scope',
        message: `This token lacks the scope ${scope}`,
        data: null,
      });
      expect(refused.headers.get('www-authenticate')).toBe(
        `Bearer error="insufficient_scope", scope="${scope}"`,
      );
      // with the scope alone the request gets past authentication, whatever it then answers (the event
      // stream is asked for an unknown event type: validation, after authentication, refuses it rather than
      // leave a stream open)
      const only = await tenants.issueToken(h.tenant.tenant_id, 'only', undefined, [scope]);
      const asked = operationId === 'streamEvents' ? `${route}?type=no.such_type` : route;
      const allowed = await h.request(method, asked, { token: only.token });
      expect([401, 403], `${operationId} with ${scope}: ${allowed.status}`).not.toContain(allowed.status);
    },
  );

  describe('a suspended tenant', () => {
    let suspended: { tenant_id: string; token: string };
    beforeAll(async () => {
      suspended = await h.server.services.tenants.create(`suspended-${randomUUID()}`);
      await h.server.services.tenants.suspend(suspended.tenant_id);
    });

    lookups('%s is 403 tenant_suspended', async (_op, [method, route]) => {
      const res = await h.request(method, route, { token: suspended.token });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({
        code: 403,
        error: 'tenant_suspended',
        message: 'The tenant is suspended',
      });
    });

    it('gets its tokens back when resumed; suspending twice keeps the first time', async () => {
      const tenants = h.server.services.tenants;
      const first = (await tenants.suspend(suspended.tenant_id)).suspended_at;
      expect((await tenants.suspend(suspended.tenant_id)).suspended_at).toBe(first);
      expect((await tenants.resume(suspended.tenant_id)).suspended_at).toBeNull();
      expect((await h.request('GET', '/api/open/runs', { token: suspended.token })).status).toBe(200);
      await tenants.suspend(suspended.tenant_id);
      expect((await h.request('GET', '/api/open/runs', { token: suspended.token })).status).toBe(403);
      await expect(tenants.suspend(randomUUID())).rejects.toThrow(/no tenant/);
      await expect(tenants.resume(randomUUID())).rejects.toThrow(/no tenant/);
    });
  });

  it('a token issued with every scope, or with unknown or no scopes, is what was asked for or refused', async () => {
    const tenants = h.server.services.tenants;
    const every = await tenants.issueToken(h.tenant.tenant_id, 'every', undefined, [...SCOPES]);
    expect(every.scopes).toEqual([...SCOPES]);
    expect((await h.request('GET', '/api/open/runs', { token: every.token })).status).toBe(200);
    await expect(tenants.issueToken(h.tenant.tenant_id, 'x', undefined, ['runs:delete'])).rejects.toThrow(
      /unknown scope runs:delete/,
    );
    await expect(tenants.issueToken(h.tenant.tenant_id, 'x', undefined, [])).rejects.toThrow(/at least one/);
    const listed = await tenants.listTokens(h.tenant.tenant_id);
    // the tenant's first token, issued without scopes, has them all
    expect(listed.find((t) => t.token_id === h.tenant.token_id)?.scopes).toEqual([...SCOPES]);
  });

  it('authenticates before validating: an invalid request without a token is 401', once, async () => {
    const res = await h.request('GET', '/api/open/runs?limit=1000', { token: null });
    expect(res.status).toBe(401);
  });

  it('a token that expires later works, and records when it was used', async () => {
    const issued = await h.server.services.tenants.issueToken(h.tenant.tenant_id, 'later', 30);
    const res = await h.request('GET', '/api/open/runs', { token: issued.token });
    expect(res.status).toBe(200);
    const tokens = await h.server.services.tenants.listTokens(h.tenant.tenant_id);
    expect(tokens.find((t) => t.token_id === issued.token_id)?.last_used_at).not.toBeNull();
  });
});

describe('routing', () => {
  it('an unknown route is 404 in the failing envelope', once, async () => {
    const res = await h.request('GET', '/api/open/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 404, error: 'not_found', data: null });
  });

  it('a wrong method is 405 with Allow', once, async () => {
    const res = await h.request('DELETE', '/api/open/runs');
    expect(res.status).toBe(405);
    expect(res.body.error).toBe('method_not_allowed');
    expect(res.headers.get('allow')).toBe('GET, POST');
  });

  it('keeps a sane client X-Request-Id and replaces an insane one', once, async () => {
    const kept = await h.request('GET', '/api/open/runs', { headers: { 'x-request-id': 'client-abc.123' } });
    expect(kept.headers.get('x-request-id')).toBe('client-abc.123');
    const replaced = await h.request('GET', '/api/open/nope', {
      headers: { 'x-request-id': 'bad id <script>' },
    });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(replaced.body.request_id).toBe(replaced.headers.get('x-request-id'));
  });

  it('serves health, readiness and the raw contract without a token', async () => {
    expect((await h.request('GET', '/healthz', { token: null })).body.data).toEqual({ status: 'ok' });
    expect((await h.request('GET', '/readyz', { token: null })).body.data).toEqual({ status: 'ready' });
    const spec = await fetch(`${h.url}/openapi.yaml`);
    expect(spec.status).toBe(200);
    expect(await spec.text()).toContain('openapi: 3.0.3');
  });
});

describe('validation failures render FastAPI detail[]', () => {
  const detail = async (method: string, route: string, options = {}) => {
    const res = await h.request(method, route, options);
    expect(res.status, res.text).toBe(422);
    expect(res.body).toMatchObject({
      code: 422,
      error: 'validation_error',
      message: 'Validation failed',
      data: null,
    });
    return res.body.detail;
  };

  it.each([
    ['0', 'greater_than_equal', 'Input should be greater than or equal to 1'],
    ['101', 'less_than_equal', 'Input should be less than or equal to 100'],
    ['abc', 'int_parsing', 'Input should be a valid integer, unable to parse string as an integer'],
    ['1.5', 'int_parsing', 'Input should be a valid integer, unable to parse string as an integer'],
  ])('run list limit=%s', once, async (value, type, msg) => {
    expect(await detail('GET', `/api/open/runs?limit=${value}`)).toEqual([
      { loc: ['query', 'limit'], msg, type },
    ]);
  });

  it.each([
    ['0', 'greater_than_equal', 'Input should be greater than or equal to 1'],
    ['101', 'less_than_equal', 'Input should be less than or equal to 100'],
  ])('transactions page_size=%s', once, async (value, type, msg) => {
    expect(await detail('GET', `/api/open/finance/transactions?page_size=${value}`)).toEqual([
      { loc: ['query', 'page_size'], msg, type },
    ]);
  });

  // the bounds reach the engine's query
  it('accepts the bounds themselves', async () => {
    for (const route of [
      '/api/open/runs?limit=1&offset=0',
      '/api/open/runs?limit=100',
      '/api/open/finance/transactions?page_size=1&page=1',
      '/api/open/finance/transactions?page_size=100',
      `/api/open/runs?target=${'x'.repeat(64)}`,
    ]) {
      expect((await h.request('GET', route)).status, route).toBe(200);
    }
  });

  it(
    'negative offset, page 0, a 65-character target, a bad enum, a bad date: all at once',
    once,
    async () => {
      expect(await detail('GET', `/api/open/runs?offset=-1&target=${'x'.repeat(65)}&status=done`)).toEqual([
        {
          loc: ['query', 'status'],
          msg: "Input should be 'queued', 'running', 'succeeded', 'failed' or 'cancelled'",
          type: 'enum',
        },
        {
          loc: ['query', 'target'],
          msg: 'String should have at most 64 characters',
          type: 'string_too_long',
        },
        {
          loc: ['query', 'offset'],
          msg: 'Input should be greater than or equal to 0',
          type: 'greater_than_equal',
        },
      ]);
      expect(
        await detail(
          'GET',
          '/api/open/finance/transactions?page=0&transaction_type=other&start_date=2026-13-01&end_date=soon',
        ),
      ).toEqual([
        {
          loc: ['query', 'transaction_type'],
          msg: "Input should be 'all', 'tech' or 'ecosystem'",
          type: 'enum',
        },
        {
          loc: ['query', 'page'],
          msg: 'Input should be greater than or equal to 1',
          type: 'greater_than_equal',
        },
        {
          loc: ['query', 'start_date'],
          msg: 'Input should be a valid date or datetime, expected YYYY-MM-DD',
          type: 'date_from_datetime_parsing',
        },
        {
          loc: ['query', 'end_date'],
          msg: 'Input should be a valid date or datetime, expected YYYY-MM-DD',
          type: 'date_from_datetime_parsing',
        },
      ]);
    },
  );

  it('start_date after end_date is a 422 on end_date', once, async () => {
    expect(
      await detail('GET', '/api/open/finance/transactions?start_date=2026-11-02&end_date=2026-11-01'),
    ).toEqual([
      {
        loc: ['query', 'end_date'],
        msg: 'Value error, end_date must not be before start_date',
        type: 'value_error',
      },
    ]);
  });

  it('ignores unknown query parameters, as FastAPI does', once, async () => {
    expect((await h.request('GET', '/api/open/runs?colour=blue')).status).toBe(200);
  });

  it('a path id that is not a UUID', once, async () => {
    expect(await detail('GET', '/api/open/runs/not-a-uuid')).toEqual([
      { loc: ['path', 'run_id'], msg: 'Input should be a valid UUID', type: 'uuid_parsing' },
    ]);
  });

  it('invalid JSON', once, async () => {
    expect(
      await detail('POST', '/api/open/runs', { body: '{"file_id": ', contentType: 'application/json' }),
    ).toEqual([{ loc: ['body'], msg: 'JSON decode error', type: 'json_invalid' }]);
  });

  it('a missing body, with or without a Content-Type', once, async () => {
    const missing = [{ loc: ['body'], msg: 'Field required', type: 'missing' }];
    expect(await detail('POST', '/api/open/uploads/complete')).toEqual(missing);
    expect(await detail('POST', '/api/open/uploads/complete', { contentType: 'application/json' })).toEqual(
      missing,
    );
  });

  it('a body that is not an object', once, async () => {
    for (const json of [[1], 'text', 5, null]) {
      expect(await detail('POST', '/api/open/runs', { json })).toEqual([
        {
          loc: ['body'],
          msg: 'Input should be a valid dictionary or object to extract fields from',
          type: 'model_attributes_type',
        },
      ]);
    }
  });

  it('wrong JSON types, a missing field, an extra field and a bad enum: one item each', once, async () => {
    expect(
      await detail('POST', '/api/open/runs', { json: { file_id: 7, target: 'ocr', extra: true } }),
    ).toEqual([
      { loc: ['body', 'extra'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' },
      { loc: ['body', 'file_id'], msg: 'Input should be a valid string', type: 'string_type' },
      {
        loc: ['body', 'target'],
        msg: "Input should be 'pdf-preflight', 'pdf-text', 'pdf-print', 'pdf-archive' or 'pdf-accessibility'",
        type: 'enum',
      },
    ]);
    expect(await detail('POST', '/api/open/uploads', { json: { size_bytes: '12' } })).toEqual([
      { loc: ['body', 'file_name'], msg: 'Field required', type: 'missing' },
      { loc: ['body', 'size_bytes'], msg: 'Input should be a valid integer', type: 'int_type' },
    ]);
  });

  it('a JSON body sent with another Content-Type is 415', once, async () => {
    const res = await h.request('POST', '/api/open/runs', { body: '{}', contentType: 'text/plain' });
    expect(res.status).toBe(415);
    expect(res.body.error).toBe('unsupported_media_type');
  });

  it('a JSON body over the limit is 413', once, async () => {
    const res = await h.request('POST', '/api/open/runs', {
      body: JSON.stringify({ file_id: 'x'.repeat(70_000) }),
      contentType: 'application/json',
    });
    expect(res.status).toBe(413);
  });
});

describe('when the database is gone', () => {
  it('readiness is 503 and a request is a 503 envelope without internals, with Retry-After', async () => {
    const broken = await startHarness();
    try {
      for (const server of broken.servers) await server.services.store.close();
      const ready = await broken.request('GET', '/readyz', { token: null });
      expect(ready.status).toBe(503);
      expect(ready.body).toMatchObject({ code: 503, error: 'unavailable', message: 'Database unreachable' });
      expect((await broken.request('GET', '/healthz', { token: null })).status).toBe(200);
      const res = await broken.request('GET', '/api/open/runs');
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(res.body).toMatchObject({
        code: 503,
        error: 'unavailable',
        message: 'The database is unavailable or overloaded; retry shortly',
        data: null,
      });
      expect(res.text).not.toMatch(/sqlite|postgres|at .*\.ts/i);
    } finally {
      await broken.close();
    }
  });
});
