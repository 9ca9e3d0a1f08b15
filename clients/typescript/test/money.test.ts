import { describe, expect, it } from 'vitest';
import { formatMoney } from '../src/index.js';

describe('formatMoney: an integer of minor units, with the decimals of its currency', () => {
  it('cents of the two-decimal currencies: 20 minor units of USD are 0.20 USD, not 20 USD', () => {
    expect(formatMoney(20, 'USD')).toBe('0.20 USD');
    expect(formatMoney(3120, 'USD')).toBe('31.20 USD');
    expect(formatMoney(0, 'EUR')).toBe('0.00 EUR');
    expect(formatMoney(-25, 'EUR')).toBe('-0.25 EUR');
    expect(formatMoney(-10025, 'EUR')).toBe('-100.25 EUR');
  });

  it('the currency says how many decimals: none for JPY, three for BHD', () => {
    expect(formatMoney(1234, 'JPY')).toBe('1234 JPY');
    expect(formatMoney(-5, 'JPY')).toBe('-5 JPY');
    expect(formatMoney(1, 'BHD')).toBe('0.001 BHD');
    expect(formatMoney(123456, 'KWD')).toBe('123.456 KWD');
  });

  it('exact to the last minor unit at the ledger ceiling (2^53 - 1): no float arithmetic', () => {
    expect(formatMoney(Number.MAX_SAFE_INTEGER, 'USD')).toBe('90071992547409.91 USD');
    expect(formatMoney(-Number.MAX_SAFE_INTEGER, 'BHD')).toBe('-9007199254740.991 BHD');
    expect(formatMoney(2n ** 60n, 'USD')).toBe('11529215046068469.76 USD');
  });

  it('refuses what is not a whole number of minor units', () => {
    expect(() => formatMoney(0.5, 'USD')).toThrow(/whole number of minor units/);
    expect(() => formatMoney(20, 'dollars')).toThrow(RangeError);
  });
});
