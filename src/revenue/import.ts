import { randomUUID } from 'node:crypto';
import { parse as parseCsv } from 'csv-parse/sync';
import type { LedgerEntry, TransactionType } from '../store/types.js';
import { MoneyError, majorToMinor } from './money.js';

/** One line of a partner settlement file, before it is checked. */
interface RawRow {
  external_id?: unknown;
  type?: unknown;
  amount?: unknown;
  currency?: unknown;
  occurred_at?: unknown;
  description?: unknown;
}

export class ImportError extends Error {
  constructor(readonly problems: string[]) {
    super(`import refused, nothing was written:\n${problems.join('\n')}`);
  }
}

/** The columns of a settlement CSV, in this order. */
/** The contract's bounds on a transaction's texts (Transaction in openapi.yaml). */
export const MAX_EXTERNAL_ID = 255;
export const MAX_DESCRIPTION = 1000;

const CSV_HEADER = ['external_id', 'type', 'amount', 'currency', 'occurred_at', 'description'];

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
const TYPES: TransactionType[] = ['tech', 'ecosystem'];

/** Rows of a CSV file (with a header line) or of JSON lines, numbered as a person counts lines. */
function readRows(text: string): { line: number; row: RawRow | string }[] {
  const firstChar = text.trimStart()[0];
  if (firstChar === '{') {
    return text.split('\n').flatMap((raw, index): { line: number; row: RawRow | string }[] => {
      if (raw.trim() === '') return [];
      try {
        const value: unknown = JSON.parse(raw);
        if (typeof value !== 'object' || value === null || Array.isArray(value)) {
          return [{ line: index + 1, row: 'not a JSON object' }];
        }
        return [{ line: index + 1, row: value as RawRow }];
      } catch {
        return [{ line: index + 1, row: 'not valid JSON' }];
      }
    });
  }
  const records = parseCsv(text, {
    columns: (header: string[]) => {
      const given = header.map((name) => name.trim());
      if (given.join(',') !== CSV_HEADER.join(',')) {
        throw new ImportError([`the header must be ${CSV_HEADER.join(',')}; it is ${given.join(',')}`]);
      }
      return given;
    },
    skip_empty_lines: true,
    trim: true,
    info: true,
  }) as {
    record: RawRow;
    info: { lines: number };
  }[];
  return records.map(({ record, info }) => ({ line: info.lines, row: record }));
}

/** Checks every row and converts it; any problem refuses the whole file. */
export function parseSettlements(text: string, tenantId: string, currency: string, now: Date): LedgerEntry[] {
  let rows: { line: number; row: RawRow | string }[];
  try {
    rows = readRows(text);
  } catch (error) {
    if (error instanceof ImportError) throw error;
    throw new ImportError([`the file is not valid CSV: ${(error as Error).message}`]);
  }
  if (rows.length === 0) throw new ImportError(['the file has no rows']);
  const problems: string[] = [];
  const entries: LedgerEntry[] = [];
  const seen = new Map<string, number>();
  for (const { line, row } of rows) {
    const fail = (reason: string) => problems.push(`line ${line}: ${reason}`);
    if (typeof row === 'string') {
      fail(row);
      continue;
    }
    const externalId = String(row.external_id ?? '').trim();
    const type = String(row.type ?? '').trim() as TransactionType;
    const amountText = String(row.amount ?? '').trim();
    const rowCurrency = String(row.currency ?? '').trim();
    const occurredText = String(row.occurred_at ?? '').trim();
    const description = String(row.description ?? '').trim();
    if (externalId.length > MAX_EXTERNAL_ID)
      fail(`external_id is ${externalId.length} characters, more than ${MAX_EXTERNAL_ID}`);
    if (description.length > MAX_DESCRIPTION)
      fail(`description is ${description.length} characters, more than ${MAX_DESCRIPTION}`);
    if (!externalId) fail('external_id is missing');
    else if (seen.has(externalId)) fail(`external_id "${externalId}" repeats line ${seen.get(externalId)}`);
    else seen.set(externalId, line);
    if (!TYPES.includes(type)) fail(`type must be one of ${TYPES.join(', ')}, got "${type}"`);
    if (rowCurrency !== currency) fail(`currency must be the tenant's ${currency}, got "${rowCurrency}"`);
    if (typeof row.amount === 'number') fail('amount must be a decimal string, not a JSON number');
    let amount = 0;
    try {
      amount = majorToMinor(amountText, currency);
    } catch (error) {
      if (!(error instanceof MoneyError)) throw error;
      fail(error.message);
    }
    const occurred = new Date(occurredText);
    if (!ISO_INSTANT.test(occurredText) || Number.isNaN(occurred.getTime())) {
      fail(`occurred_at must be an ISO 8601 time with a zone, got "${occurredText}"`);
    } else if (occurred.getUTCFullYear() > 9999) {
      fail('occurred_at is out of range');
    }
    if (problems.length > 0) continue;
    entries.push({
      id: randomUUID(),
      tenant_id: tenantId,
      type,
      amount,
      currency,
      description,
      source: 'import',
      run_id: null,
      external_id: externalId,
      occurred_at: occurred.toISOString(),
      created_at: now.toISOString(),
    });
  }
  if (problems.length > 0) throw new ImportError(problems);
  return entries;
}
