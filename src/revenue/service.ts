import { readFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { ERRORS, type ValidationIssue } from '../kernel/errors.js';
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
import type { Clock } from '../kernel/time.js';
import type { Schemas } from '../contract/schemas.js';
import { transactionView } from '../records/transaction.js';
import { addDays, daysBetween, monthStart, previousMonth, utcDay } from './dates.js';
import { ImportError, parseSettlements } from './import.js';

export interface TransactionQuery {
  transactionType: 'all' | TransactionType;
  limit: number;
  offset: number;
  startDate?: string | undefined;
  endDate?: string | undefined;
}

/** A reversal's external_id: the entry it reverses, so that an entry is reversed once (the ledger's unique key). */
const REVERSAL_OF = 'reversal-of:';

/** What the feed made of one entry (AdminLedgerEntryOutcome in openapi.yaml). */
export type FeedOutcome = Schemas['AdminLedgerEntryOutcome'];

/** An entry sent again is a duplicate only with the same content; the currency is the tenant's either way. */
const sameContent = (a: LedgerEntry, b: LedgerEntry) =>
  a.type === b.type &&
  a.amount === b.amount &&
  a.occurred_at === b.occurred_at &&
  a.description === b.description;

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
      query.limit,
      query.offset,
    );
  }

  /** The tenant's transactions as the admin API reads them back: as the tenant lists them, or 404. */
  async listTenantLedger(tenantId: string, query: TransactionQuery) {
    if (!(await this.store.tenants.get(tenantId))) throw ERRORS.notFound('Tenant');
    return this.listTransactions(tenantId, query);
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
  ): Promise<{ imported: number; skipped: number; entries: FeedOutcome[] }> {
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
      if (entry.external_id.startsWith(REVERSAL_OF))
        at('external_id', `external_id must not start with "${REVERSAL_OF}": the reversals' own ids`);
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
        const outcomes = await tx.appendLedger(rows);
        // an external_id booked before with other content is no retry: the whole batch is refused
        const clash = outcomes.find(({ entry, booked }) => booked !== entry && !sameContent(entry, booked));
        if (clash) throw ERRORS.externalIdConflict(clash.entry.external_id!, clash.booked.id);
        const entries = outcomes.map(({ entry, booked }) => ({
          external_id: entry.external_id!,
          outcome: booked === entry ? ('booked' as const) : ('duplicate' as const),
          transaction_id: booked.id,
        }));
        const imported = entries.filter((e) => e.outcome === 'booked').length;
        const skipped = entries.length - imported;
        const row = auditRow(origin.actor, 'ledger.appended', now, tenantId, tenantId, { imported, skipped });
        await tx.audit(row);
        tx.afterCommit(() => this.onAudit?.(row));
        return { imported, skipped, entries };
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

  /**
   * Books the opposite of one of the tenant's entries, once (its external_id is the entry's, under
   * REVERSAL_OF): the same type, the amount negated, now. A reversal is not reversed again.
   */
  async reverseEntry(
    tenantId: string,
    transactionId: string,
    description: string | undefined,
    origin: ChangeOrigin,
  ): Promise<Schemas['Transaction']> {
    if (!(await this.store.tenants.get(tenantId))) throw ERRORS.notFound('Tenant');
    const now = this.clock.now().toISOString();
    try {
      return await this.store.platform.change(async (tx) => {
        const entry = await tx.findLedgerEntry(tenantId, transactionId);
        if (!entry) throw ERRORS.notFound('Transaction');
        if (entry.external_id?.startsWith(REVERSAL_OF))
          throw ERRORS.isAReversal(entry.id, entry.external_id.slice(REVERSAL_OF.length));
        const reversal: LedgerEntry = {
          id: randomUUID(),
          tenant_id: tenantId,
          type: entry.type,
          amount: -entry.amount,
          currency: entry.currency,
          description: description ?? `Reversal of ${entry.external_id ?? entry.id}`,
          source: 'adjustment',
          run_id: null,
          external_id: `${REVERSAL_OF}${entry.id}`,
          occurred_at: now,
          created_at: now,
        };
        const { booked } = (await tx.appendLedger([reversal]))[0]!;
        if (booked !== reversal) throw ERRORS.alreadyReversed(entry.id, booked.id);
        await tx.recordEffect(reversal.id);
        const row = auditRow(origin.actor, 'ledger.reversed', now, tenantId, entry.id, {
          transaction_id: entry.id,
          reversal_id: reversal.id,
        });
        await tx.audit(row);
        tx.afterCommit(() => this.onAudit?.(row));
        return transactionView(reversal);
      }, origin.effect);
    } catch (error) {
      if (!(error instanceof LedgerRangeError)) throw error;
      throw ERRORS.validation([
        {
          loc: ['path', 'transaction_id'],
          msg: `Value error, this reversal would carry the tenant's ledger past ${Number.MAX_SAFE_INTEGER} minor units in all (the range in which every total is exact); nothing was booked`,
          type: 'value_error',
        },
      ]);
    }
  }

  /** A reversal booked under an Idempotency-Key whose answer was lost, as the answer would have shown it. */
  async reversal(tenantId: string, reversalId: string): Promise<Schemas['Transaction']> {
    const entry = await this.store.ledger.get(tenantId, reversalId);
    if (!entry) throw ERRORS.notFound('Transaction');
    return transactionView(entry);
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
