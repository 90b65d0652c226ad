import { currentMessages, type Lang, useT } from './index.ts';

/**
 * Words only one page uses live with that page (`features/<page>/words.ts`), so they are in its
 * lazily loaded chunk and not in the first download (docs/performance.md). Both languages of a page
 * travel together; the global catalogs (en.ts, hu.ts) keep the words of the first page, the shell,
 * sign-in and the shared components.
 */
export type PageWords<W> = Readonly<Record<Lang, W>>;

/**
 * A page's words in English and Hungarian. The English object sets the shape, as en.ts does for
 * hu.ts: its strings are `string` and its functions keep their signatures, and the Hungarian one
 * must have the same keys (a missing or extra key does not compile).
 */
export function definePageWords<W>(en: W, hu: NoInfer<W>): PageWords<W> {
  return { en, hu };
}

/** The page's words in the language `useT()` shows (the member's, once its catalog is loaded). */
export function usePageWords<W>(words: PageWords<W>): W {
  return words[useT().lang];
}

/** The same for code outside React's tree (a mutation's confirmation, a draft's checks). */
export function pageWordsNow<W>(words: PageWords<W>): W {
  return words[currentMessages().lang];
}
