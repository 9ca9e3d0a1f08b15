/**
 * Money as the API keeps it: an integer of the currency's minor units (cents for USD, yen for JPY, fils for
 * BHD). Printed with as many decimals as the currency has, by string arithmetic on the integer: a float
 * division would round amounts near the ledger's ceiling of 2^53 - 1.
 */
const exponents = new Map<string, number>();

/** How many decimals `currency` (ISO 4217) has: 2 for USD and EUR, 0 for JPY, 3 for BHD. */
export function currencyExponent(currency: string): number {
  let exponent = exponents.get(currency);
  if (exponent === undefined) {
    // throws RangeError for a code that is not one (ISO 4217 codes are three letters)
    exponent = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
      .maximumFractionDigits!;
    exponents.set(currency, exponent);
  }
  return exponent;
}

/** `20, 'USD'` is `0.20 USD`; `1234, 'JPY'` is `1234 JPY`; `-25, 'EUR'` is `-0.25 EUR`. */
export function formatMoney(minorUnits: number | bigint, currency: string): string {
  if (typeof minorUnits === 'number' && !Number.isSafeInteger(minorUnits))
    throw new RangeError(`${minorUnits} is not a whole number of minor units`);
  const exponent = currencyExponent(currency);
  const negative = minorUnits < 0;
  const digits = String(negative ? -minorUnits : minorUnits).padStart(exponent + 1, '0');
  const whole = exponent === 0 ? digits : `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
  return `${negative ? '-' : ''}${whole} ${currency}`;
}
