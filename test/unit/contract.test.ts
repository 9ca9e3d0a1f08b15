/**
 * openapi.yaml as openapi-backend reads it, checked whole and strictly once: the document against the
 * OpenAPI 3.0 schema, and every request, response and response-header validator compiled. The server and
 * the test harness compile validators lazily, so a schema ajv cannot compile would otherwise surface only
 * when a request first meets it.
 */
import { dereference } from '@apidevtools/json-schema-ref-parser';
import { dereferenceSync } from 'dereference-json-schema';
import { describe, expect, it } from 'vitest';
import { contractDocument } from '../../src/http/contract-document.js';
import { type Audience, Contract } from '../../src/http/operations.js';
import { CONTRACT_PATH } from '../../src/contract/paths.js';
import { contractBackend } from '../helpers/harness.js';

describe('the contract', () => {
  it('is a valid OpenAPI document whose every validator compiles', async () => {
    const api = contractBackend(false);
    await expect(api.init()).resolves.toBe(api);
    const operations = api.router.getOperations();
    expect(operations.length).toBeGreaterThan(20);
    for (const { operationId } of operations) {
      expect(
        api.validator.getRequestValidatorsForOperation(operationId!).length,
        operationId,
      ).toBeGreaterThan(0);
    }
  });
});

describe('the parsed contract the server and the tests are given', () => {
  it('dereferences to the document json-schema-ref-parser makes of openapi.yaml', async () => {
    // openapi-backend dereferences an object with its synchronous resolver, a path with ref-parser
    const fromFile = await dereference(CONTRACT_PATH);
    expect(dereferenceSync(contractDocument())).toEqual(fromFile);
  });

  it('gives each caller a copy of its own', () => {
    const first = contractDocument();
    first.info.title = 'changed';
    expect(contractDocument().info.title).toBe('Open Tenant API');
  });
});

describe('routing', () => {
  it('finds the operation openapi-backend finds, for every path and method of the contract and beside them', async () => {
    const api = contractBackend(true);
    await api.init();
    const contract = await Contract.load();
    // openapi-backend's matching, on an operation list built once (its router rebuilds it twice per match)
    const operations = api.router.getOperations();
    api.router.getOperations = () => operations;
    const paths = operations.flatMap(({ path }) => {
      const filled = path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
      return [
        filled,
        `${filled}/`,
        `${filled}//`,
        `${filled}/extra`,
        filled.replace(/\/[^/]+$/, ''),
        ` ${filled}`,
      ];
    });
    paths.push(
      '/',
      '',
      '/nothing',
      '/api',
      '/api/open',
      '/api/open/runs/a.b',
      '/api/open/runs/files/report.json',
    );
    const methods = ['get', 'POST', 'put', 'delete', 'patch', 'head', 'options', ' get '];
    let compared = 0;
    // what every operation's own method matches at a path: the same for each method and audience asked
    const matched = new Map<string, (ReturnType<typeof api.router.matchOperation> | undefined)[]>();
    const matchesAt = (path: string) => {
      let matches = matched.get(path);
      if (!matches) {
        matches = operations.map((op) => api.router.matchOperation({ method: op.method, path, headers: {} }));
        matched.set(path, matches);
      }
      return matches;
    };
    // a listener serves its audience's operations and those of none (health); the others do not exist there
    const servedTo = (audience: Audience) => (operationId: string | undefined) => {
      const audienceOf = contract.operations.get(operationId ?? '')?.audience;
      return audienceOf === undefined || audienceOf === audience;
    };
    for (const audience of ['tenant', 'admin'] as const) {
      const served = servedTo(audience);
      for (const path of paths) {
        for (const method of methods) {
          const judged = api.router.matchOperation({ method, path, headers: {} });
          const routed = contract.route(method, path, audience);
          const where = `${audience}: ${method} ${JSON.stringify(path)}`;
          const expected = judged && served(judged.operationId) ? judged.operationId : undefined;
          expect(routed.found ? routed.operation.id : undefined, where).toBe(expected);
          if (!routed.found) {
            const allowed = judged
              ? []
              : matchesAt(path)
                  .filter((match) => match && served(match.operationId))
                  .map((match) => match!.method.toUpperCase());
            expect(routed.allowed.sort(), where).toEqual([...new Set(allowed)].sort());
          }
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });
});
