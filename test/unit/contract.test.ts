/**
 * openapi.yaml as openapi-backend reads it, checked whole and strictly once: the document against the
 * OpenAPI 3.0 schema, and every request, response and response-header validator compiled. The server and
 * the test harness compile validators lazily, so a schema ajv cannot compile would otherwise surface only
 * when a request first meets it.
 */
import formats from 'ajv-formats';
import { OpenAPIBackend } from 'openapi-backend';
import { describe, expect, it } from 'vitest';
import { CONTRACT_PATH } from '../../src/paths.js';

describe('the contract', () => {
  it('is a valid OpenAPI document whose every validator compiles', async () => {
    const api = new OpenAPIBackend({
      definition: CONTRACT_PATH,
      strict: true,
      quick: false,
      ajvOpts: { allErrors: true },
      customizeAjv: (ajv) => {
        formats.default(ajv);
        return ajv;
      },
    });
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
