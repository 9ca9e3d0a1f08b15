import { describe, expect, it } from 'vitest';
import { handlers } from '../../src/http/handlers/index.js';
import { NOT_AN_INTEGER, normalize, type PlainRequest } from '../../src/http/normalize.js';
import { Contract } from '../../src/http/operations.js';
import { checkHandlers, decodablePath, type Handlers } from '../../src/http/pipeline.js';

const uploadPart = {
  template: '/api/open/uploads/{upload_id}/parts/{part_number}',
  queryNames: new Set<string>(),
  integerParams: [{ in: 'path', name: 'part_number' }] as const,
};
const listRuns = {
  template: '/api/open/runs',
  queryNames: new Set(['limit', 'offset', 'status']),
  integerParams: [
    { in: 'query', name: 'limit' },
    { in: 'query', name: 'offset' },
  ] as const,
};

function request(path: string, query: PlainRequest['query'] = {}): PlainRequest {
  return { method: 'GET', path, query, headers: {} };
}

describe('normalize(operation, request)', () => {
  it('drops the query parameters the operation does not declare, as FastAPI ignores them', () => {
    const given = request('/api/open/runs', { limit: '5', colour: 'red', status: ['queued', 'done'] });
    expect(normalize(listRuns, given).query).toEqual({ limit: '5', status: ['queued', 'done'] });
  });

  it('keeps decimal integers, signs and surrounding spaces included (int_parsing accepts them)', () => {
    const given = request('/api/open/runs', { limit: ' +5 ', offset: '-1' });
    expect(normalize(listRuns, given).query).toEqual({ limit: ' +5 ', offset: '-1' });
  });

  it.each(['1E2', '0x10', '0b1', '0o7', '1.0', ''])(
    'turns the query integer %j, which Number() would read, into a value validation refuses',
    (value) => {
      expect(normalize(listRuns, request('/api/open/runs', { limit: value })).query.limit).toBe(
        NOT_AN_INTEGER,
      );
    },
  );

  it('judges a repeated integer parameter by its last value, the one used', () => {
    expect(normalize(listRuns, request('/api/open/runs', { limit: ['0x1', '7'] })).query.limit).toEqual([
      '0x1',
      '7',
    ]);
    expect(normalize(listRuns, request('/api/open/runs', { limit: ['7', '0x1'] })).query.limit).toBe(
      NOT_AN_INTEGER,
    );
  });

  it('rewrites an integer path segment that is not decimal, and only that segment', () => {
    const given = request('/api/open/uploads/up%20load/parts/0x10');
    expect(normalize(uploadPart, given).path).toBe(`/api/open/uploads/up%20load/parts/${NOT_AN_INTEGER}`);
    expect(normalize(uploadPart, request('/api/open/uploads/u/parts/%31')).path).toBe(
      '/api/open/uploads/u/parts/%31',
    );
    expect(normalize(uploadPart, request('/api/open/uploads/u/parts/3/')).path).toBe(
      '/api/open/uploads/u/parts/3/',
    );
  });

  it('changes nothing of the request it is given', () => {
    const given = request('/api/open/uploads/u/parts/1e3', { extra: 'x' });
    const copy = structuredClone(given);
    normalize(uploadPart, given);
    expect(given).toEqual(copy);
  });
});

describe('decodablePath', () => {
  it('escapes the percent signs of a segment that does not decode, and leaves the others', () => {
    expect(decodablePath('/api/open/runs/%zz/files/a%20b')).toBe('/api/open/runs/%25zz/files/a%20b');
    expect(decodablePath('/api/open/runs/%E2%82')).toBe('/api/open/runs/%25E2%2582');
  });
});

describe('the contract and the handler table', () => {
  it('route: an operation, a 405 with the methods the path takes, or a 404', async () => {
    const contract = await Contract.load();
    const found = contract.route('GET', '/api/open/runs/abc', 'tenant');
    expect(found.found && found.operation.id).toBe('getRun');
    expect(found.found && found.operation.authenticated).toBe(true);
    expect(contract.route('DELETE', '/api/open/runs', 'tenant')).toEqual({
      found: false,
      allowed: ['GET', 'POST'],
    });
    expect(contract.route('GET', '/api/open/nothing', 'tenant')).toEqual({ found: false, allowed: [] });
    const health = contract.route('GET', '/healthz', 'tenant');
    expect(health.found && health.operation.authenticated).toBe(false);
    // each listener serves its own audience's operations, and the operations of none on both
    expect(contract.route('GET', '/api/admin/tenants', 'tenant')).toEqual({ found: false, allowed: [] });
    expect(contract.route('PUT', '/api/admin/tenants', 'tenant')).toEqual({ found: false, allowed: [] });
    expect(contract.route('GET', '/api/open/runs', 'admin')).toEqual({ found: false, allowed: [] });
    expect(contract.route('PUT', '/api/admin/tenants', 'admin')).toEqual({
      found: false,
      allowed: ['GET', 'POST'],
    });
    const admin = contract.route('GET', '/api/admin/tenants', 'admin');
    expect(admin.found && admin.operation.id).toBe('adminListTenants');
    expect((contract.route('GET', '/readyz', 'admin') as { found: boolean }).found).toBe(true);
  });

  it('every operation has a handler, public exactly where the contract takes no token', async () => {
    const contract = await Contract.load();
    expect(() => checkHandlers(contract, handlers)).not.toThrow();
    const { getHealth, ...rest } = handlers.public;
    const wrong = {
      public: rest,
      authed: { ...handlers.authed, getHealth },
    } as unknown as Handlers;
    expect(() => checkHandlers(contract, wrong)).toThrow(
      /getHealth: openapi.yaml's security is empty, but handlers\/index.ts lists it as authenticated/,
    );
  });

  it('a handler relying on a default the contract does not give, or listed under another operation, fails at start', async () => {
    const contract = await Contract.load();
    const keywordDefault = { ...handlers.authed.listRuns, defaults: ['limit', 'keyword'] };
    expect(() =>
      checkHandlers(contract, {
        ...handlers,
        authed: { ...handlers.authed, listRuns: keywordDefault },
      } as Handlers),
    ).toThrow(/listRuns: the handler relies on a default for keyword, which openapi.yaml does not give/);
    const swapped = {
      ...handlers.authed,
      getRun: handlers.authed.getUpload,
    } as unknown as Handlers['authed'];
    expect(() => checkHandlers(contract, { ...handlers, authed: swapped })).toThrow(
      /lists the handler of getUpload as getRun's/,
    );
  });
});
