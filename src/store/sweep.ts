/** Rows deleted per statement by a sweep, and statements per sweep: a backlog goes over several sweeps. */
const SWEEP_BATCH = 500;
const SWEEP_BATCHES = 20;

/**
 * Calls `sweepOnce` (which deletes up to its limit and says how many went) until a batch comes back short
 * or `batches` have run; returns how many went in all.
 */
export async function sweepInBatches(
  sweepOnce: (limit: number) => Promise<number>,
  batch = SWEEP_BATCH,
  batches = SWEEP_BATCHES,
): Promise<number> {
  let removed = 0;
  for (let i = 0; i < batches; i++) {
    const deleted = await sweepOnce(batch);
    removed += deleted;
    if (deleted < batch) break;
  }
  return removed;
}
