import { readFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { ERRORS, type ValidationIssue } from '../errors.js';
import { auditRow, type ChangeOrigin } from '../platform/audit.js';
import {
  type AuditRow,
  type DailySums,
  type LedgerEntry,
  LedgerRangeError,
  type PeriodSums,
  type Store,
  type TransactionType,
} from '../store/types.js';
import type { Clock } from '../time.js';
import type { Schemas } from '../contract.js';
import { addDays, daysBetween, monthStart, previousMonth, utcDay } from './dates.js';
import { ImportError, parseSettlements } from './import.js';

export interface TransactionQuery {
  transactionType: 'all' | TransactionType;
  page: number;
  pageSize: number;
  startDate?: string;
  endDate?: string;
}

/** One entry of the admin API's ledger feed (AdminLedgerEntry in openapi.yaml). */
export type FeedEntry = Schemas['AdminLedgerEntry'];

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
    /** Told every audit row once committed: the log line of each admin change (services.ts). */
    private readonly onAudit?: (row: AuditRow) => void,
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
    const now = this.clock.now();
    const today = utcDay(now);
    const firstDay = addDays(today, -(DASHBOARD_DAYS - 1));
    const previous = previousMonth(today);
    // one read of the daily sums covers the chart and every period but all-time (at most ~62 days)
    const ledger = this.store.ledger;
    const spanStart = previous.first < firstDay ? previous.first : firstDay;
    const { currency, allTime, daily, count, latestOccurredAt } = await ledger.overview(
      tenantId,
      spanStart,
      today,
    );
    if (currency === null) throw ERRORS.notFound('Tenant');
    const todays = sumDays(daily, today, today);
    const monthToDate = sumDays(daily, monthStart(today), today);
    const previousMonthSums = sumDays(daily, previous.first, previous.last);
    const byDay = new Map(daily.map((d) => [d.day, d]));
    return {
      currency,
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

  /**
   * The admin API's feed: entries of integer minor units, all or nothing, each booked once per external_id
   * (an entry the ledger has already is skipped), in one transaction with its audit row. The import's rules:
   * the tenant's currency, an external_id once per batch, the ledger's exact range.
   */
  async appendFeed(
    tenantId: string,
    entries: readonly FeedEntry[],
    origin: ChangeOrigin,
  ): Promise<{ imported: number; skipped: number }> {
    const tenant = await this.store.tenants.get(tenantId);
    if (!tenant) throw ERRORS.notFound('Tenant');
    const issues: ValidationIssue[] = [];
    const seen = new Map<string, number>();
    const now = this.clock.now().toISOString();
    const rows: LedgerEntry[] = entries.map((entry, index) => {
      const at = (field: string, msg: string) =>
        issues.push({
          loc: ['body', 'entries', String(index), field],
          msg: `Value error, ${msg}`,
          type: 'value_error',
        });
      if (entry.currency !== tenant.currency)
        at('currency', `currency must be the tenant's ${tenant.currency}, got ${entry.currency}`);
      const first = seen.get(entry.external_id);
      if (first !== undefined) at('external_id', `external_id repeats entry ${first}`);
      else seen.set(entry.external_id, index);
      const occurred = new Date(entry.occurred_at);
      if (Number.isNaN(occurred.getTime()) || occurred.getUTCFullYear() > 9999)
        at('occurred_at', 'occurred_at is out of range');
      return {
        id: randomUUID(),
        tenant_id: tenantId,
        type: entry.type,
        amount: entry.amount,
        currency: tenant.currency,
        description: entry.description ?? '',
        source: 'import',
        run_id: null,
        external_id: entry.external_id,
        occurred_at: Number.isNaN(occurred.getTime()) ? now : occurred.toISOString(),
        created_at: now,
      };
    });
    if (issues.length > 0) throw ERRORS.validation(issues);
    try {
      return await this.store.platform.change(async (tx) => {
        const { inserted, skipped } = await tx.appendLedger(rows);
        const row = auditRow(origin.actor, 'ledger.appended', now, tenantId, tenantId, {
          imported: inserted,
          skipped,
        });
        await tx.audit(row);
        tx.afterCommit(() => this.onAudit?.(row));
        return { imported: inserted, skipped };
      }, origin.effect);
    } catch (error) {
      if (!(error instanceof LedgerRangeError)) throw error;
      throw ERRORS.validation([
        {
          loc: ['body', 'entries'],
          msg: `Value error, these entries would carry the tenant's ledger past ${Number.MAX_SAFE_INTEGER} minor units in all (the range in which every total is exact); nothing was booked`,
          type: 'value_error',
        },
      ]);
    }
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
