import { useEffect } from 'react';
import { useSession } from '../auth.ts';
import { en, type Messages } from './en.ts';
import { hu } from './hu.ts';

export type Lang = Messages['lang'];
export type { Messages };

export const CATALOGS: Record<Lang, Messages> = { en, hu };
export const LANGS = Object.keys(CATALOGS) as Lang[];

/** Before sign-in there is no member to ask: the browser's first language of ours, else English. */
export function browserLang(): Lang {
  const tags = typeof navigator === 'undefined' ? [] : navigator.languages;
  for (const tag of tags) {
    const base = tag.toLowerCase().split('-')[0];
    if (base === 'hu' || base === 'en') return base;
  }
  return 'en';
}

let active: Lang = browserLang();

/**
 * The words of the signed-in member's language (`member.language`, their own choice), the
 * browser's before sign-in. Every component asks the session query, so a change of language
 * re-renders the whole dashboard at once; `<html lang>` follows for screen readers and spelling.
 */
export function useT(): Messages {
  const { data: member } = useSession();
  const lang: Lang = member?.language ?? browserLang();
  // Code outside React's tree (formErrors, the mutation cache's confirmations) reads the same choice.
  active = lang;
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  return CATALOGS[lang];
}

/** The words the page is being shown in, for code that is not a component. */
export function currentMessages(): Messages {
  return CATALOGS[active];
}
