import { createHash } from 'node:crypto';

// ISO 4217 gives HUF two decimals, but prices are quoted in whole forints in practice (the
// contract calls HUF-like amounts integers); these currencies are treated as having none.
const ZERO_DECIMAL = new Set(['HUF', 'JPY', 'KRW', 'ISK', 'CLP', 'VND', 'XOF', 'XAF', 'UGX', 'PYG', 'RWF']);

export function currencyExponent(currency: string): number {
  if (ZERO_DECIMAL.has(currency)) return 0;
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

export function isKnownCurrency(currency: string): boolean {
  if (!/^[A-Z]{3}$/.test(currency)) return false;
  return (Intl as unknown as { supportedValuesOf(k: string): string[] }).supportedValuesOf('currency').includes(currency);
}

/** Major units to minor units; undefined when the amount has more decimals than the currency. */
export function toMinor(amount: number, currency: string): number | undefined {
  const scale = 10 ** currencyExponent(currency);
  const minor = Math.round(amount * scale);
  if (!Number.isSafeInteger(minor) || Math.abs(minor - amount * scale) > 1e-6) return undefined;
  return minor;
}

export function toMajor(minor: number, currency: string): number {
  const exp = currencyExponent(currency);
  return exp === 0 ? minor : Number((minor / 10 ** exp).toFixed(exp));
}

/**
 * 12 hex characters over what a guest agrees to: price type, listed price and duration, and the
 * staff variants (domain/scheduling/staff-variants.ts variantsKey). Without variants the text hashed
 * is what it always was, so the stored versions of existing services stay valid.
 */
export function pricingVersion(priceType: string, priceMinor: number | null, durationMinutes: number, variantsKey = ''): string {
  return createHash('sha256')
    .update(`${priceType}|${priceMinor ?? 'null'}|${durationMinutes}${variantsKey === '' ? '' : `|${variantsKey}`}`)
    .digest('hex')
    .slice(0, 12);
}
