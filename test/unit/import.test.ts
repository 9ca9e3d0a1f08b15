import { describe, expect, it } from 'vitest';
import { ImportError, parseSettlements } from '../../src/revenue/import.js';

const now = new Date('2026-11-21T10:00:00Z');
const header = 'external_id,type,amount,currency,occurred_at,description';

describe('parseSettlements', () => {
  it('reads CSV with quoted fields and converts amounts exactly', () => {
    const rows = parseSettlements(
      `${header}\nA-1,ecosystem,19.99,EUR,2026-11-20T10:00:00+02:00,"Partner, Inc."\nA-2,ecosystem,-0.01,EUR,2026-11-20T23:59:59.999Z,refund\n`,
      't1',
      'EUR',
      now,
    );
    expect(rows.map((r) => [r.external_id, r.amount, r.occurred_at, r.description, r.source])).toEqual([
      ['A-1', 1999, '2026-11-20T08:00:00.000Z', 'Partner, Inc.', 'import'],
      ['A-2', -1, '2026-11-20T23:59:59.999Z', 'refund', 'import'],
    ]);
  });

  it('reads JSON lines', () => {
    const rows = parseSettlements(
      '{"external_id":"J1","type":"ecosystem","amount":"5","currency":"USD","occurred_at":"2026-01-01T00:00:00Z","description":"x"}\n',
      't1',
      'USD',
      now,
    );
    expect(rows[0]).toMatchObject({ external_id: 'J1', amount: 500 });
  });

  it('refuses the whole file and names every bad line', () => {
    const text = [
      header,
      'ok-1,ecosystem,1.00,USD,2026-11-20T10:00:00Z,fine',
      'bad-1,ecosystem,1.00,EUR,2026-11-20T10:00:00Z,mixed currency',
      'bad-2,refund,1.00,USD,2026-11-20T10:00:00Z,bad type',
      'bad-3,ecosystem,1.001,USD,2026-11-20T10:00:00Z,too precise',
      'bad-4,ecosystem,1.00,USD,2026-11-20,no time',
      'ok-1,ecosystem,1.00,USD,2026-11-20T10:00:00Z,repeat',
      ',ecosystem,1.00,USD,2026-11-20T10:00:00Z,no id',
    ].join('\n');
    try {
      parseSettlements(text, 't1', 'USD', now);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ImportError);
      expect((error as ImportError).problems).toEqual([
        `line 3: currency must be the tenant's USD, got "EUR"`,
        'line 4: type must be one of tech, ecosystem, got "refund"',
        'line 5: amount "1.001" has more than 2 decimal places for USD',
        'line 6: occurred_at must be an ISO 8601 time with a zone, got "2026-11-20"',
        'line 7: external_id "ok-1" repeats line 2',
        'line 8: external_id is missing',
      ]);
    }
  });

  it('refuses a JSON number amount, which may already have lost precision', () => {
    expect(() =>
      parseSettlements(
        '{"external_id":"J1","type":"ecosystem","amount":0.1,"currency":"USD","occurred_at":"2026-01-01T00:00:00Z"}',
        't1',
        'USD',
        now,
      ),
    ).toThrow(/decimal string/);
  });

  it('bounds external_id at 255 characters and description at 1000, on both sides', () => {
    const row = (id: string, text: string) => `${id},ecosystem,1.00,USD,2026-11-20T10:00:00Z,${text}`;
    const fits = parseSettlements(`${header}\n${row('x'.repeat(255), 'd'.repeat(1000))}\n`, 't1', 'USD', now);
    expect(fits[0]!.external_id).toHaveLength(255);
    expect(fits[0]!.description).toHaveLength(1000);
    try {
      parseSettlements(`${header}\n${row('x'.repeat(256), 'd'.repeat(1001))}\n`, 't1', 'USD', now);
      expect.unreachable();
    } catch (error) {
      expect((error as ImportError).problems.join('\n')).toMatch(
        /external_id is 256 characters, more than 255/,
      );
      expect((error as ImportError).problems.join('\n')).toMatch(
        /description is 1001 characters, more than 1000/,
      );
    }
  });

  it('refuses an empty file', () => {
    expect(() => parseSettlements(`${header}\n`, 't1', 'USD', now)).toThrow(/no rows/);
  });
});
