import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';

/** A whole HTML document from a page component (React escapes every value it renders). */
export function renderDocument(page: ReactElement): string {
  return `<!doctype html>${renderToStaticMarkup(page)}`;
}
