/**
 * openapi.yaml as openapi-backend reads it, checked whole and strictly once: the document against the
 * OpenAPI 3.0 schema, and every request, response and response-header validator compiled. The server and
 * the test harness compile validators lazily, so a schema ajv cannot compile would otherwise surface only
 * when a request first meets it.
 */
import { describe, expect, it } from 'vitest';
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
