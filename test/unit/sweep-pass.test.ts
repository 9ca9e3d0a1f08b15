import { describe, expect, it } from 'vitest';
import { sweepInBatches, sweepPass } from '../../src/store/sweep.js';

describe('a sweep pass', () => {
  it('goes batch after batch until a batch comes back short', async () => {
    let left = 12_345;
    const removed = await sweepInBatches(
      async (limit) => {
        const n = Math.min(limit, left);
        left -= n;
        return n;
      },
      sweepPass({ batchRows: 1000, budgetMs: 60_000 }),
    );
    expect(removed).toBe(12_345);
    expect(left).toBe(0);
  });

  it('starts no batch after its time budget', async () => {
    let batches = 0;
    const started = performance.now();
    await sweepInBatches(
      async (limit) => {
        batches += 1;
        await new Promise((resolve) => setTimeout(resolve, 20));
        return limit;
      },
      sweepPass({ batchRows: 10, budgetMs: 200 }),
    );
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(200);
    expect(elapsed).toBeLessThan(1000);
    expect(batches).toBeLessThanOrEqual(11);
  });
});
