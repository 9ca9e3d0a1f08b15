import type { RunFilter, RunRow } from '../types.js';

/**
 * What the shared repository (runs.ts) and both engines' creation and list build their SQL from: the columns,
 * the block sizes of deep pages, the fair claiming order, paging. What a change makes of a run is the
 * lifecycle's (src/runs/lifecycle.ts), not SQL's.
 */

/** The columns of `runs` that make a RunRow, in the order both engines write them. */
export const RUN_COLUMNS = [
  'id',
  'tenant_id',
  'file_id',
  'user_id',
  'created_by',
  'created_by_type',
  'target',
  'status',
  'progress',
  'total_tasks',
  'completed_tasks',
  'failed_tasks',
  'points_consumed',
  'input_file_name',
  'output_files',
  'error',
  'error_code',
  'attempt',
  'queue_message_id',
  'created_at',
  'started_at',
  'completed_at',
  'options',
] as const satisfies readonly (keyof RunRow)[];

/** From this offset on, a page skips rows on an index alone, and finds its block by run_blocks' counts. */
export const DEEP_OFFSET = 200;
/** run_blocks counts runs per block of 2^10 sequence numbers (level 1) and, on PostgreSQL, per 2^16 (level 2). */
export const BLOCK_BITS = 10;
export const SUPERBLOCK_BITS = 16;

/** A queue entry waiting for a worker at `now` (a placeholder): not done, and not leased or its lease lapsed. */
export const waitingAt = (now: string) => `done_at IS NULL AND (lease_until IS NULL OR lease_until < ${now})`;
/** An entry a worker may claim: its tenant is not suspended. */
export const CLAIMABLE_TENANT = 'tenant_id NOT IN (SELECT id FROM tenants WHERE suspended_at IS NOT NULL)';

/**
 * The fair claiming order: the tenant with the fewest runs under lease first, the oldest waiting entry
 * breaking ties (`now`: that engine's placeholder for the claim's time).
 */
export function fairTenantsQuery(now: string, limit: number): string {
  return `SELECT w.tenant_id AS "tenantId" FROM (
      SELECT tenant_id, MIN(enqueued_at) AS first FROM run_queue
      WHERE ${waitingAt(now)} AND ${CLAIMABLE_TENANT}
      GROUP BY tenant_id) w
    LEFT JOIN (
      SELECT tenant_id, COUNT(*) AS leased FROM run_queue
      WHERE done_at IS NULL AND lease_until >= ${now} GROUP BY tenant_id) l ON l.tenant_id = w.tenant_id
    ORDER BY COALESCE(l.leased, 0), w.first LIMIT ${limit}`;
}

/** Escapes LIKE wildcards so that `%` and `_` in a keyword match themselves (`ESCAPE '\'`). */
export function likePattern(keyword: string): string {
  return `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * No stored text holds U+0000 (PostgreSQL text cannot, and SQLite would end a LIKE pattern at it, matching
 * everything): a filter with it matches no run.
 */
export function matchesNothing(filter: RunFilter): boolean {
  return [filter.target, filter.keyword].some((value) => value?.includes('\0'));
}

/**
 * How many rows a page asks for: with a cursor, one more than shown tells whether another page follows
 * (rows past a cursor are not counted).
 */
export function rowsToFetch(limit: number, startingAfter: string | undefined): number {
  return startingAfter === undefined ? limit : limit + 1;
}

/** A page from the rows fetched and the total: the rows shown, and the next cursor when more follow. */
export function pageOf<T>(
  rows: T[],
  total: number,
  paging: { limit: number; offset: number; startingAfter: string | undefined },
  idOf: (row: T) => string,
): { shown: T[]; lastId: string | null } {
  const more =
    paging.startingAfter === undefined ? paging.offset + rows.length < total : rows.length > paging.limit;
  const shown = rows.slice(0, paging.limit);
  const last = shown[shown.length - 1];
  return { shown, lastId: more && last !== undefined ? idOf(last) : null };
}
