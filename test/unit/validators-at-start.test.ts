import { afterEach, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/kernel/config.js';
import { Contract } from '../../src/http/operations.js';
import { type Harness, startHarness } from '../helpers/harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  vi.restoreAllMocks();
});

it('VALIDATORS_AT_START: true by default, and false leaves each operation its first request to compile', async () => {
  expect(loadConfig({}).validatorsAtStart).toBe(true);
  expect(loadConfig({ VALIDATORS_AT_START: 'false' }).validatorsAtStart).toBe(false);
  const warmUp = vi.spyOn(Contract.prototype, 'warmUp');
  h = await startHarness({ VALIDATORS_AT_START: 'false' });
  expect(warmUp).not.toHaveBeenCalled();
  // validated all the same, by validators compiled for this request
  const refused = await h.request('GET', '/api/open/runs?limit=abc');
  expect(refused.status).toBe(422);
  expect(refused.body.detail[0]).toMatchObject({ loc: ['query', 'limit'], type: 'int_parsing' });
  await h.close();
  h = await startHarness({ VALIDATORS_AT_START: 'true' });
  expect(warmUp).toHaveBeenCalledTimes(1);
});
