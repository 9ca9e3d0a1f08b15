import type { Schemas } from '../contract.js';
import { ERRORS } from '../errors.js';
import type { RunStatus, Store } from '../store/types.js';
import type { Clock } from '../time.js';

const DAY_MS = 86_400_000;
const STATUSES: readonly RunStatus[] = ['queued', 'running', 'succeeded', 'failed', 'cancelled'];

/**
 * A tenant's usage between two UTC days, inclusive (the current month to today unless given): its runs
 * created in the period by status and target, the pages and points of those runs, and what it stores now.
 */
export async function tenantUsage(
  store: Store,
  clock: Clock,
  tenantId: string,
  period: { start_date?: string; end_date?: string },
): Promise<Schemas['AdminUsage']> {
  const now = clock.now();
  const today = now.toISOString().slice(0, 10);
  const start = period.start_date ?? `${today.slice(0, 8)}01`;
  const end = period.end_date ?? today;
  if (end < start) throw ERRORS.endDateBeforeStart();
  if (!(await store.tenants.get(tenantId))) throw ERRORS.notFound('Tenant');
  const figures = await store.platform.usage(
    tenantId,
    `${start}T00:00:00.000Z`,
    new Date(Date.parse(`${end}T00:00:00.000Z`) + DAY_MS).toISOString(),
  );
  const byStatus = Object.fromEntries(STATUSES.map((status) => [status, 0])) as Record<RunStatus, number>;
  const byTarget = new Map<string, number>();
  let total = 0;
  let pages = 0;
  let points = 0;
  for (const row of figures.runs) {
    byStatus[row.status] += row.runs;
    byTarget.set(row.target, (byTarget.get(row.target) ?? 0) + row.runs);
    total += row.runs;
    pages += row.pages;
    points += row.points;
  }
  return {
    tenant_id: tenantId,
    start_date: start,
    end_date: end,
    runs: {
      total,
      by_status: byStatus,
      by_target: [...byTarget].map(([target, runs]) => ({ target, runs })),
    },
    pages_processed: pages,
    points_consumed: points,
    files_stored: figures.files,
    bytes_stored: figures.bytes,
    as_of: now.toISOString(),
  };
}
