import { en, type Messages } from './en.ts';
import { hu } from './hu.ts';

/** The languages of the guest pages; the first is the default. */
export const LANGS = ['en', 'hu'] as const;
export type Lang = (typeof LANGS)[number];

const CATALOGS: Record<Lang, Messages> = { en, hu };

/** The BCP 47 tag Intl formats with. */
export const INTL_LOCALE: Record<Lang, string> = { en: 'en-GB', hu: 'hu-HU' };

export function messages(lang: Lang): Messages {
  return CATALOGS[lang];
}

export function isLang(value: unknown): value is Lang {
  return typeof value === 'string' && (LANGS as readonly string[]).includes(value);
}

/**
 * `?lang=` when it names a language of ours, else the first of Accept-Language's ranges (by
 * quality) that does, else English.
 */
export function pickLang(query: unknown, acceptLanguage: string | undefined): Lang {
  if (isLang(query)) return query;
  if (!acceptLanguage) return 'en';
  const ranges = acceptLanguage
    .slice(0, 500)
    .split(',')
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { base: tag.trim().toLowerCase().split('-')[0] ?? '', q: q === undefined ? 1 : Number(q), i };
    })
    .filter((r) => r.q > 0 && Number.isFinite(r.q))
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const r of ranges) if (isLang(r.base)) return r.base;
  return 'en';
}

export type { Messages };
