/**
 * One pass of the periodic sweep: each sweeper deletes `batchRows` rows per statement, batch after batch,
 * until a batch comes back short (it caught up) or the pass's time budget is spent. A backlog of any size
 * therefore goes at the speed the database deletes, not at a fixed number of rows per pass.
 */
export interface SweepPass {
  readonly batchRows: number;
  /** `performance.now()` after which no new batch starts */
  readonly deadline: number;
}

export function sweepPass(limits: { batchRows: number; budgetMs: number }): SweepPass {
  return { batchRows: limits.batchRows, deadline: performance.now() + limits.budgetMs };
}

/**
 * Calls `sweepOnce` (which deletes up to its limit and says how many went) until a batch comes back short
 * or the pass's budget is spent; returns how many went in all.
 */
export async function sweepInBatches(
  sweepOnce: (limit: number) => Promise<number>,
  pass: SweepPass,
): Promise<number> {
  let removed = 0;
  for (;;) {
    const deleted = await sweepOnce(pass.batchRows);
    removed += deleted;
    if (deleted < pass.batchRows || performance.now() >= pass.deadline) return removed;
  }
}
