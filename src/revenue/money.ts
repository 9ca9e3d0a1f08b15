/**
 * Money is an integer number of minor units. Amounts written in major units ("12.34") are converted from
 * their decimal text with integer arithmetic only, so no float ever touches an amount.
 */

/** ISO 4217 minor-unit exponents that differ from the usual 2. */
const EXPONENTS: Record<string, number> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  CLF: 4,
  UYW: 4,
};

export function minorUnitExponent(currency: string): number {
  return EXPONENTS[currency] ?? 2;
}

export const MAX_MINOR_UNITS = Number.MAX_SAFE_INTEGER;

export class MoneyError extends Error {}

/** "12.34" USD -> 1234; "-0.5" USD -> -50; "7" JPY -> 7. */
export function majorToMinor(amount: string, currency: string): number {
  const match = /^([+-]?)(\d+)(?:\.(\d+))?$/.exec(amount.trim());
  if (!match) throw new MoneyError(`amount "${amount}" is not a decimal number`);
  const [, sign, whole, fraction = ''] = match;
  const exponent = minorUnitExponent(currency);
  if (fraction.length > exponent) {
    throw new MoneyError(`amount "${amount}" has more than ${exponent} decimal places for ${currency}`);
  }
  const minor = BigInt(`${whole}${fraction.padEnd(exponent, '0')}`) * (sign === '-' ? -1n : 1n);
  if (minor > BigInt(MAX_MINOR_UNITS) || minor < -BigInt(MAX_MINOR_UNITS)) {
    throw new MoneyError(`amount "${amount}" is beyond ${MAX_MINOR_UNITS} minor units`);
  }
  return Number(minor);
}

/** Points times a price in minor units, refused when it would lose precision. */
export function multiplyMinor(units: number, priceMinor: number): number {
  const product = BigInt(units) * BigInt(priceMinor);
  if (product > BigInt(MAX_MINOR_UNITS)) throw new MoneyError('amount is beyond the safe integer range');
  return Number(product);
}
