import { readFile } from 'node:fs/promises';
import { ERRORS } from '../errors.js';
import {
  type DailySums,
  LedgerRangeError,
  type PeriodSums,
  type Store,
  type TransactionType,
} from '../store/types.js';
import type { Clock } from '../time.js';
import { addDays, daysBetween, monthStart, previousMonth, utcDay } from './dates.js';
import { ImportError, parseSettlements } from './import.js';

export interface TransactionQuery {
  transactionType: 'all' | TransactionType;
  page: number;
  pageSize: number;
  startDate?: string;
  endDate?: string;
}

export const DASHBOARD_DAYS = 30;

function sumDays(days: DailySums[], from: string, to: string): PeriodSums {
  const sums: PeriodSums = { tech: 0, ecosystem: 0 };
  for (const day of days) {
    if (day.day < from || day.day > to) continue;
    sums.tech += day.tech;
    sums.ecosystem += day.ecosystem;
  }
  return sums;
}

function totals(sums: PeriodSums) {
  return { total: sums.tech + sums.ecosystem, tech: sums.tech, ecosystem: sums.ecosystem };
}

export class Revenue {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  async listTransactions(tenantId: string, query: TransactionQuery) {
    if (query.startDate && query.endDate && query.startDate > query.endDate) {
      throw ERRORS.endDateBeforeStart();
    }
    return this.store.ledger.list(
      tenantId,
      {
        type: query.transactionType === 'all' ? undefined : query.transactionType,
        startDate: query.startDate,
        endDate: query.endDate,
      },
      query.pageSize,
      (query.page - 1) * query.pageSize,
    );
  }

  async dashboard(tenantId: string) {
    const tenant = await this.store.tenants.get(tenantId);
    if (!tenant) throw ERRORS.notFound('Tenant');
    const now = this.clock.now();
    const today = utcDay(now);
    const firstDay = addDays(today, -(DASHBOARD_DAYS - 1));
    const previous = previousMonth(today);
    // one read of the daily sums covers the chart and every period but all-time (at most ~62 days)
    const ledger = this.store.ledger;
    const spanStart = previous.first < firstDay ? previous.first : firstDay;
    const { allTime, daily, count, latestOccurredAt } = await ledger.overview(tenantId, spanStart, today);
    const todays = sumDays(daily, today, today);
    const monthToDate = sumDays(daily, monthStart(today), today);
    const previousMonthSums = sumDays(daily, previous.first, previous.last);
    const byDay = new Map(daily.map((d) => [d.day, d]));
    return {
      currency: tenant.currency,
      all_time: totals(allTime),
      today: totals(todays),
      month_to_date: totals(monthToDate),
      previous_month: totals(previousMonthSums),
      transaction_count: count,
      latest_transaction_at: latestOccurredAt,
      daily: daysBetween(firstDay, today).map((date) => ({
        date,
        ...totals(byDay.get(date) ?? { tech: 0, ecosystem: 0 }),
      })),
      as_of: now.toISOString(),
    };
  }

  /** Imports a partner settlement file all-or-nothing; rows already imported (same external_id) are skipped. */
  async importFile(tenantId: string, path: string): Promise<{ imported: number; skipped: number }> {
    const tenant = await this.store.tenants.get(tenantId);
    if (!tenant) throw new Error(`no tenant ${tenantId}`);
    const entries = parseSettlements(
      await readFile(path, 'utf8'),
      tenantId,
      tenant.currency,
      this.clock.now(),
    );
    try {
      const { inserted, skipped } = await this.store.ledger.append(entries);
      return { imported: inserted, skipped };
    } catch (error) {
      if (!(error instanceof LedgerRangeError)) throw error;
      throw new ImportError([
        `importing these rows would carry the tenant's ledger past ${Number.MAX_SAFE_INTEGER} minor units in all (the range in which every total is exact); nothing was imported`,
      ]);
    }
  }
}
