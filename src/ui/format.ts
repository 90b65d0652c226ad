import { currencyExponent, toMajor } from '../domain/money.ts';
import { INTL_LOCALE, type Lang } from './i18n/index.ts';

const formats = new Map<string, Intl.DateTimeFormat>();

function dateFormat(lang: Lang, style: 'day' | 'long' | 'short'): Intl.DateTimeFormat {
  const id = `${lang}.${style}`;
  let f = formats.get(id);
  if (!f) {
    const options: Intl.DateTimeFormatOptions =
      style === 'short'
        ? { timeZone: 'UTC', month: 'short', day: 'numeric' }
        : { timeZone: 'UTC', weekday: 'long', month: 'long', day: 'numeric', ...(style === 'long' ? { year: 'numeric' } : {}) };
    f = new Intl.DateTimeFormat(INTL_LOCALE[lang], options);
    formats.set(id, f);
  }
  return f;
}

/** A local calendar date (YYYY-MM-DD, no zone) in the language: `Monday 1 December` (`long` adds the year). */
export function formatDate(lang: Lang, date: string, style: 'day' | 'long' | 'short' = 'day'): string {
  const [y, m, d] = date.split('-').map(Number);
  return dateFormat(lang, style).format(Date.UTC(y!, m! - 1, d!, 12));
}

/** The wall-clock time of an instant in a zone, HH:MM. */
export function formatTimeIn(timeZone: string, instant: Date): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(instant);
}

/** An amount in minor units, in the language's currency format. */
export function formatMoney(lang: Lang, minor: number, currency: string): string {
  const digits = currencyExponent(currency);
  try {
    return new Intl.NumberFormat(INTL_LOCALE[lang], {
      style: 'currency',
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(toMajor(minor, currency));
  } catch {
    return `${toMajor(minor, currency)} ${currency}`;
  }
}
