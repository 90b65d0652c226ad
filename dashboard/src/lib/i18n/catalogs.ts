import { en, type Messages } from './en.ts';

type Lang = Messages['lang'];

export const LANGS: readonly Lang[] = ['en', 'hu'];

/**
 * English is in the first download; Hungarian is a chunk of its own, fetched for a member who reads
 * it (the first page stays under its size budget, docs/performance.md). The session read and the
 * language change wait for it (lib/auth.ts), so a Hungarian member's pages are not first drawn in
 * English.
 */
export const loaded: Partial<Record<Lang, Messages>> = { en };
const pending = new Map<Lang, Promise<void>>();
const listeners = new Set<() => void>();
let version = 0;

export function loadCatalog(lang: Lang): Promise<void> {
  if (loaded[lang]) return Promise.resolve();
  let p = pending.get(lang);
  if (!p) {
    p = import('./hu.ts').then((m) => {
      loaded.hu = m.hu;
      version += 1;
      for (const l of listeners) l();
    });
    pending.set(lang, p);
  }
  return p;
}

export function subscribe(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

export function catalogVersion(): number {
  return version;
}
