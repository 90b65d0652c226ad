import type { ReactNode } from 'react';
import { LANGS, type Lang, messages } from '../i18n/index.ts';

/** Where a page's stylesheet and script are (same origin, named by content hash). */
export interface PageAssets {
  css: string;
  js: string;
  /** the business's accent colour as a stylesheet of its own (no inline style under the CSP) */
  accentCss?: string | undefined;
}

export interface ShellProps {
  lang: Lang;
  title: string;
  businessName: string;
  assets: PageAssets;
  /** with bookingPageBranding only */
  logoUrl?: string | undefined;
  /** this page in each language (the visible language switch) */
  langLinks: Record<Lang, string>;
  /** pages about one booking are kept out of search engines */
  noindex?: boolean;
  children: ReactNode;
}

/** Every guest page's frame: language, skip link, landmarks, the language switch. */
export function Shell(p: ShellProps) {
  const t = messages(p.lang);
  return (
    <html lang={p.lang}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {p.noindex ? <meta name="robots" content="noindex, nofollow" /> : null}
        <title>{`${p.title} – ${p.businessName}`}</title>
        <link rel="stylesheet" href={p.assets.css} />
        {p.assets.accentCss ? <link rel="stylesheet" href={p.assets.accentCss} /> : null}
        <script src={p.assets.js} defer />
      </head>
      <body>
        <a className="skip" href="#main">
          {t.skipToContent}
        </a>
        <header className="top">
          <div className="brand">
            {p.logoUrl ? <img className="logo" src={p.logoUrl} alt="" /> : null}
            <p className="business">{p.businessName}</p>
          </div>
          <nav className="langs" aria-label={t.languageSwitch}>
            <ul>
              {LANGS.map((l) => (
                <li key={l}>
                  {l === p.lang ? (
                    <a href={p.langLinks[l]} aria-current="true" lang={l} hrefLang={l}>
                      {messages(l).languageName}
                    </a>
                  ) : (
                    <a href={p.langLinks[l]} lang={l} hrefLang={l}>
                      {messages(l).languageName}
                    </a>
                  )}
                </li>
              ))}
            </ul>
          </nav>
        </header>
        <main id="main">{p.children}</main>
        <footer className="foot">
          <p>{t.poweredBy}</p>
        </footer>
      </body>
    </html>
  );
}

/** A message that must be heard when the page opens (a time gone, a form to check). */
export function Notice(p: { title: string; children?: ReactNode; kind?: 'error' | 'info' }) {
  return (
    <div className={`notice ${p.kind ?? 'error'}`} role={p.kind === 'info' ? 'status' : 'alert'}>
      <p className="notice-title">{p.title}</p>
      {p.children}
    </div>
  );
}
