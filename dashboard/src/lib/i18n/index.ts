import { useEffect, useSyncExternalStore } from 'react';
import { useSession } from '../auth.ts';
import { en, type Messages } from './en.ts';
import { catalogVersion, LANGS, loadCatalog, loaded, subscribe } from './catalogs.ts';

export { LANGS, loadCatalog };

export type Lang = Messages['lang'];
export type { Messages };

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
  useSyncExternalStore(subscribe, catalogVersion);
  const wanted: Lang = member?.language ?? browserLang();
  if (!loaded[wanted]) void loadCatalog(wanted);
  const lang: Lang = loaded[wanted] ? wanted : 'en';
  // Code outside React's tree (formErrors, the mutation cache's confirmations) reads the same choice.
  active = lang;
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  return loaded[lang] ?? en;
}

/** The words the page is being shown in, for code that is not a component. */
export function currentMessages(): Messages {
  return loaded[active] ?? en;
}
