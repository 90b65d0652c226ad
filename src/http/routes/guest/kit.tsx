import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ReactElement } from 'react';
import { type Lang, LANGS, messages, pickLang } from '../../../ui/i18n/index.ts';
import { renderDocument } from '../../../ui/render.ts';
import { Shell } from '../../../ui/booking/layout.tsx';
import { MessageView } from '../../../ui/booking/done.tsx';
import { pageAssets } from './assets.ts';

/** The language of a guest request: `?lang=` (or a posted `lang`), else Accept-Language, else English. */
export function langOf(request: FastifyRequest): Lang {
  const query = request.query as Record<string, unknown> | undefined;
  const body = request.body as Record<string, unknown> | undefined;
  const asked = query?.lang ?? (body && typeof body === 'object' ? body.lang : undefined);
  return pickLang(asked, request.headers['accept-language']);
}

/** A path with its query; empty and undefined values left out. */
export function link(path: string, query: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') q.set(k, v);
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

/** The same page in each language. */
export function langLinks(path: string, query: Record<string, string | undefined>): Record<Lang, string> {
  return Object.fromEntries(LANGS.map((l) => [l, link(path, { ...query, lang: l })])) as Record<Lang, string>;
}

/** Who may frame a page, and from where its images may come. */
export interface Framing {
  embedOrigins: readonly string[];
  /** the origin of the business's logo, when it is shown */
  imageOrigin?: string | undefined;
}

/**
 * The guest pages' CSP: only this origin's stylesheet and script (no inline script or style), no
 * request to another origin (a branded logo's origin excepted), framed only by this origin and the
 * business's `embedOrigins`.
 */
export function guestCsp(f: Framing): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self'${f.imageOrigin ? ` ${f.imageOrigin}` : ''}`,
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    `frame-ancestors 'self'${f.embedOrigins.map((o) => ` ${o}`).join('')}`,
  ].join('; ');
}

/** A see-other redirect (post/redirect/get, or a step's state mended) under the page's own framing. */
export function seeOther(reply: FastifyReply, framing: Framing, url: string): FastifyReply {
  return frameHeaders(reply, framing)
    .headers({ 'referrer-policy': 'strict-origin-when-cross-origin', 'cache-control': 'no-store' })
    .redirect(url, 303);
}

/**
 * The CSP, and `X-Frame-Options: SAMEORIGIN` for browsers that know no `frame-ancestors` when the
 * business names no embedding origin (with origins it is left out: it cannot list them, and every
 * browser that reads `frame-ancestors` ignores it anyway).
 */
function frameHeaders(reply: FastifyReply, framing: Framing): FastifyReply {
  void reply.header('content-security-policy', guestCsp(framing));
  if (framing.embedOrigins.length === 0) void reply.header('x-frame-options', 'SAMEORIGIN');
  return reply;
}

/** Headers of every guest page: its own CSP (security-headers.ts then leaves it alone), no caching. */
export function pageHeaders(reply: FastifyReply, framing: Framing, referrer = 'strict-origin-when-cross-origin'): FastifyReply {
  return frameHeaders(reply, framing).headers({
    'content-type': 'text/html; charset=utf-8',
    'referrer-policy': referrer,
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
  });
}

export interface PageFrame {
  lang: Lang;
  title: string;
  businessName: string;
  accentColor?: string | null | undefined;
  logoUrl?: string | null | undefined;
  /** the path and query of this page, for the language switch */
  here: { path: string; query: Record<string, string | undefined> };
  noindex?: boolean;
}

/** Renders a page into its frame. */
export function renderPage(frame: PageFrame, body: ReactElement): string {
  return renderDocument(
    <Shell
      lang={frame.lang}
      title={frame.title}
      businessName={frame.businessName}
      assets={pageAssets(frame.accentColor ?? null)}
      logoUrl={frame.logoUrl ?? undefined}
      langLinks={langLinks(frame.here.path, frame.here.query)}
      noindex={frame.noindex}
    >
      {body}
    </Shell>,
  );
}

/** A page that only says something (404, 429, refused, error), framed only by this origin. */
export function sendMessage(
  reply: FastifyReply,
  request: FastifyRequest,
  status: number,
  pick: (t: ReturnType<typeof messages>) => { title: string; text: string; link?: { href: string; text: string } },
  framing: Framing = { embedOrigins: [] },
): FastifyReply {
  const lang = langOf(request);
  const m = pick(messages(lang));
  const path = request.url.split('?', 1)[0]!;
  const html = renderPage(
    {
      lang,
      title: m.title,
      businessName: messages(lang).poweredBy,
      here: { path: request.method === 'GET' ? path : path, query: {} },
      noindex: true,
    },
    <MessageView title={m.title} text={m.text} link={m.link} />,
  );
  return pageHeaders(reply.status(status), framing).send(html);
}
