import { describe, expect, it } from 'vitest';
import { MoneyError, majorToMinor, multiplyMinor } from '../../src/revenue/money.js';

describe('majorToMinor converts decimal text exactly', () => {
  it.each([
    ['12.34', 'USD', 1234],
    ['0.1', 'USD', 10],
    ['0.29', 'USD', 29], // 0.29 * 100 is 28.999999999999996 in floating point
    ['1.005', 'KWD', 1005],
    ['-0.5', 'EUR', -50],
    ['+7', 'EUR', 700],
    ['7', 'JPY', 7],
    ['0', 'USD', 0],
    ['90071992547409.91', 'USD', Number.MAX_SAFE_INTEGER],
    ['-90071992547409.91', 'USD', -Number.MAX_SAFE_INTEGER],
  ])('%s %s -> %d', (amount, currency, expected) => {
    expect(majorToMinor(amount, currency)).toBe(expected);
  });

  it.each([
    ['1.234', 'USD', /more than 2 decimal places/],
    ['1.5', 'JPY', /more than 0 decimal places/],
    ['90071992547409.92', 'USD', /beyond/],
    ['1e3', 'USD', /not a decimal/],
    ['12,50', 'EUR', /not a decimal/],
    ['', 'USD', /not a decimal/],
    ['.5', 'USD', /not a decimal/],
  ])('refuses %s %s', (amount, currency, message) => {
    expect(() => majorToMinor(amount, currency)).toThrow(MoneyError);
    expect(() => majorToMinor(amount, currency)).toThrow(message);
  });
});

describe('multiplyMinor', () => {
  it('multiplies points by a price without losing precision', () => {
    expect(multiplyMinor(60, 10)).toBe(600);
    expect(() => multiplyMinor(Number.MAX_SAFE_INTEGER, 2)).toThrow(MoneyError);
  });
});
