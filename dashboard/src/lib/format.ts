/**
 * One way to show things on every page (issue 27 item 5), in the member's language: times on a
 * 24-hour clock, the location's zone named only where it is not the browser's, money with the
 * locale's separators and the currency's sign, phone numbers grouped as they are dialled.
 */
import { useEffect, useState } from 'react';
import { currentMessages } from './i18n/index.ts';

/** The browser's own zone: a time in it needs no zone name. */
export function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** ` (Europe/London)` when the location keeps another zone than the browser, else nothing. */
export function zoneNote(timeZone: string): string {
  return timeZone === browserZone() ? '' : ` (${timeZone})`;
}

/**
 * An instant in the browser's zone, naming the zone (keys, members and deliveries belong to the
 * business, not to one location, so no location zone applies).
 */
export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString(currentMessages().intl, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  });
}

/**
 * An instant as a location's wall clock (a booking's times, its messages, its deposit): English as
 * `2031-06-01 10:00`, as the booking's own date and time are written; other languages as their
 * locale writes a date and a time (`2031. 06. 01. 10:00`).
 */
export function wallClock(iso: string, timeZone: string): string {
  const t = currentMessages();
  const format = new Intl.DateTimeFormat(t.intl, {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  const d = new Date(iso);
  if (t.lang !== 'en') return format.format(d);
  const p = Object.fromEntries(format.formatToParts(d).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
}

/**
 * A booking's own date and time (`2031-06-01`, `10:00`, the location's wall clock): English as the
 * API writes them, other languages with the locale's date (`2031. 06. 01. 10:00`).
 */
export function slotTime(date: string, time: string): string {
  const t = currentMessages();
  if (t.lang === 'en') return `${date} ${time}`;
  const day = new Date(`${date}T12:00:00Z`).toLocaleDateString(t.intl, {
    timeZone: 'UTC',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
  return `${day} ${time}`;
}

/** A calendar date (`2026-06-01`) as a day's short heading: `Mon 1 Jun`, `jún. 1., H`. */
export function shortDay(date: string): string {
  return new Date(`${date}T12:00:00Z`).toLocaleDateString(currentMessages().intl, {
    timeZone: 'UTC',
    weekday: 'short',
    day: 'numeric',
    month: 'short',
  });
}

/** A calendar date as the calendar's heading writes it: `Monday 1 June 2026`, `2026. június 1., hétfő`. */
export function longDay(date: string): string {
  return new Date(`${date}T12:00:00Z`).toLocaleDateString(currentMessages().intl, {
    timeZone: 'UTC',
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  });
}

/** A share (0.125) as a percentage with at most one decimal: `12.5%`, `12,5%`; `—` when there is none. */
export function percent(x: number | null): string {
  return x === null ? '—' : new Intl.NumberFormat(currentMessages().intl, { style: 'percent', maximumFractionDigits: 1 }).format(x);
}

/** An amount in major units (8000, 12.5) with the locale's separators and the currency: `8 000 Ft`, `€12.50`. */
export function money(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat(currentMessages().intl, {
      style: 'currency',
      currency,
      // whole forints and euros are written without `,00`; a fraction keeps the currency's digits
      ...(Number.isInteger(amount) ? { minimumFractionDigits: 0, maximumFractionDigits: 0 } : {}),
    }).format(amount);
  } catch {
    return `${amount} ${currency}`;
  }
}

type Parse = (text: string) => { formatInternational(): string } | undefined;
let parse: Parse | null = null;
let loading: Promise<void> | null = null;

/**
 * libphonenumber-js (its smallest metadata) is fetched by the first page that shows a phone, not
 * with the first page: it would add about a tenth to the dashboard's first download.
 */
function loadPhones(): Promise<void> {
  loading ??= import('libphonenumber-js/min').then((m) => {
    parse = (text) => m.parsePhoneNumberFromString(text);
  });
  return loading;
}

/** `+36301234567` as `+36 30 123 4567`; as written while the library loads or when it is no number. */
export function phone(raw: string | null | undefined): string {
  if (!raw) return '—';
  return parse?.(raw)?.formatInternational() ?? raw;
}

/** `phone`, re-rendering the page once the formatter has arrived. */
export function usePhone(): typeof phone {
  const [, setReady] = useState(parse !== null);
  useEffect(() => {
    if (parse) return;
    let live = true;
    loadPhones().then(
      () => live && setReady(true),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return phone;
}
