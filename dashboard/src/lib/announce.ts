import { currentMessages } from './i18n/index.ts';
import { useSyncExternalStore } from 'react';

/**
 * The short confirmation after an action (`Accepted.`, `Saved.`), shown for a few seconds and read
 * by screen readers from one polite live region (AppShell's). Every successful mutation says
 * something unless it is marked silent: its `meta.done` words, else `Saved.` (query-client.ts).
 */
export interface MutationMeta extends Record<string, unknown> {
  /** what to say once it succeeded; a function of the mutation's variables */
  done?: string | ((variables: unknown) => string);
  /** says nothing: reads (explain, a check before booking), signing in and out */
  silent?: boolean;
}

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: MutationMeta;
  }
}

const SHOWN_MS = 5_000;
let current: { text: string; at: number } | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<() => void>();

function set(next: { text: string; at: number } | null): void {
  current = next;
  for (const l of listeners) l();
}

export function announce(text: string): void {
  clearTimeout(timer);
  // The region stays in the page and only its text changes, which is what a screen reader reads;
  // the same words again are emptied first, or nothing would change.
  const again = current?.text === text;
  if (again) set(null);
  timer = setTimeout(
    () => {
      set({ text, at: Date.now() });
      timer = setTimeout(() => set(null), SHOWN_MS);
    },
    again ? 100 : 0,
  );
}

export function useAnnouncement(): { text: string; at: number } | null {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => current,
  );
}

export function doneWords(meta: MutationMeta | undefined, variables: unknown): string | null {
  if (meta?.silent) return null;
  const done = meta?.done;
  if (typeof done === 'function') return done(variables);
  return done ?? currentMessages().common.saved;
}
