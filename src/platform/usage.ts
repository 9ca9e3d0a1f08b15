import type { Schemas } from '../contract/schemas.js';
import { ERRORS } from '../kernel/errors.js';
import type { RunStatus, Store } from '../store/types.js';
import type { Clock } from '../kernel/time.js';

const DAY_MS = 86_400_000;
const STATUSES: readonly RunStatus[] = ['queued', 'running', 'succeeded', 'failed', 'cancelled'];

/** The period a usage query asks: two UTC days, inclusive, the current month to today unless given. */
export interface UsagePeriod {
  start_date?: string | undefined;
  end_date?: string | undefined;
  granularity?: 'total' | 'day' | undefined;
}

/** The longest period told day by day. */
const MAX_DAYS = 366;

function periodOf(clock: Clock, period: UsagePeriod) {
  const now = clock.now();
  const today = now.toISOString().slice(0, 10);
  const start = period.start_date ?? `${today.slice(0, 8)}01`;
  const end = period.end_date ?? today;
  if (end < start) throw ERRORS.endDateBeforeStart();
  const from = `${start}T00:00:00.000Z`;
  const to = new Date(Date.parse(`${end}T00:00:00.000Z`) + DAY_MS).toISOString();
  const days = (Date.parse(to) - Date.parse(from)) / DAY_MS;
  const byDay = period.granularity === 'day';
  if (byDay && days > MAX_DAYS) throw ERRORS.periodTooLongByDay(MAX_DAYS);
  // what is stored is counted at the period's end, or now when it has not ended
  const asOf = to < now.toISOString() ? to : now.toISOString();
  return { start, end, from, to, days, byDay, asOf };
}

/**
 * A tenant's usage between two UTC days, inclusive (the current month to today unless given): its runs
 * created in the period by status and target, the pages and points of those runs, and what it stored at
 * the period's end; by day too, with `granularity: 'day'`.
 */
export async function tenantUsage(
  store: Store,
  clock: Clock,
  tenantId: string,
  period: UsagePeriod,
): Promise<Schemas['AdminUsage']> {
  const span = periodOf(clock, period);
  if (!(await store.tenants.get(tenantId))) throw ERRORS.notFound('Tenant');
  return usageOf(store, tenantId, span);
}

/** Every tenant's usage of one period, a page of tenants by creation after `startingAfter`. */
export async function everyTenantsUsage(
  store: Store,
  clock: Clock,
  query: UsagePeriod & { limit: number; starting_after?: string | undefined },
): Promise<{ items: Schemas['AdminUsage'][]; nextCursor: string | null }> {
  const span = periodOf(clock, query);
  const tenants = await store.platform.tenantsAfter(query.limit + 1, query.starting_after);
  if (!tenants) throw ERRORS.notFound('Tenant');
  const page = tenants.slice(0, query.limit);
  const items: Schemas['AdminUsage'][] = [];
  for (const tenant of page) items.push(await usageOf(store, tenant.id, span));
  return { items, nextCursor: tenants.length > query.limit ? page.at(-1)!.id : null };
}

async function usageOf(
  store: Store,
  tenantId: string,
  span: ReturnType<typeof periodOf>,
): Promise<Schemas['AdminUsage']> {
  const figures = await store.platform.usage(tenantId, span.from, span.asOf);
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
    start_date: span.start,
    end_date: span.end,
    runs: {
      total,
      by_status: byStatus,
      by_target: [...byTarget].map(([target, runs]) => ({ target, runs })),
    },
    pages_processed: pages,
    points_consumed: points,
    files_stored: figures.files,
    bytes_stored: figures.bytes,
    as_of: span.asOf,
    ...(span.byDay ? { daily: await dailyUsage(store, tenantId, span) } : {}),
  };
}

/** Every day of the period, oldest first; what is stored carried from day to day. */
async function dailyUsage(store: Store, tenantId: string, span: ReturnType<typeof periodOf>) {
  const { runs, files } = await store.platform.usageByDay(tenantId, span.from, span.asOf);
  const runsOn = new Map(runs.map((row) => [row.day, row]));
  const first = span.from.slice(0, 10);
  let stored = { files: 0, bytes: 0 };
  let next = 0;
  // the files created before the period are stored on its first day
  while (next < files.length && files[next]!.day < first) {
    stored = { files: stored.files + files[next]!.files, bytes: stored.bytes + files[next]!.bytes };
    next++;
  }
  const days: Schemas['AdminUsageDay'][] = [];
  for (let i = 0; i < span.days; i++) {
    const date = new Date(Date.parse(span.from) + i * DAY_MS).toISOString().slice(0, 10);
    if (`${date}T00:00:00.000Z` >= span.asOf) break;
    while (next < files.length && files[next]!.day === date) {
      stored = { files: stored.files + files[next]!.files, bytes: stored.bytes + files[next]!.bytes };
      next++;
    }
    const run = runsOn.get(date);
    days.push({
      date,
      runs: run?.runs ?? 0,
      pages_processed: run?.pages ?? 0,
      points_consumed: run?.points ?? 0,
      files_stored: stored.files,
      bytes_stored: stored.bytes,
    });
  }
  return days;
}
