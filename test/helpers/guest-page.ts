/**
 * A browser's reading of the guest pages without a browser (the Chromium suites are
 * booking-page.e2e.test.ts): links and buttons by their text, forms with their hidden fields,
 * posts as a browser sends them (urlencoded, with this server's Origin), redirects followed.
 */
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import type { App } from '../../src/http/context.ts';

export function decode(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** Visible text of markup: tags dropped, entities decoded, spaces collapsed. */
export function textOf(html: string): string {
  return decode(html.replace(/<[^>]*>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
}

function attr(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return m ? decode(m[1]!) : undefined;
}

export interface Link {
  href: string;
  text: string;
}

export function links(html: string): Link[] {
  return [...html.matchAll(/<a\b([^>]*)>([\s\S]*?)<\/a>/g)].map((m) => ({ href: attr(m[1]!, 'href') ?? '', text: textOf(m[2]!) }));
}

/** The link whose accessible name (its text) is `name`, or starts with it when `prefix`. */
export function link(html: string, name: string, prefix = false): Link {
  const found = links(html).filter((l) => (prefix ? l.text.startsWith(name) : l.text === name));
  assert.equal(found.length, 1, `one link named ${JSON.stringify(name)}; links: ${JSON.stringify(links(html).map((l) => l.text))}`);
  return found[0]!;
}

export interface Form {
  action: string;
  fields: Record<string, string>;
  buttons: Array<{ name: string | undefined; value: string | undefined; text: string }>;
  html: string;
}

export function forms(html: string): Form[] {
  return [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)].map((m) => {
    const inner = m[2]!;
    const fields: Record<string, string> = {};
    for (const i of inner.matchAll(/<input\b([^>]*)>/g)) {
      const type = attr(i[1]!, 'type');
      const name = attr(i[1]!, 'name');
      if (name && type === 'hidden') fields[name] = attr(i[1]!, 'value') ?? '';
    }
    const buttons = [...inner.matchAll(/<button\b([^>]*)>([\s\S]*?)<\/button>/g)].map((b) => ({
      name: attr(b[1]!, 'name'),
      value: attr(b[1]!, 'value'),
      text: textOf(b[2]!),
    }));
    return { action: attr(m[1]!, 'action') ?? '', fields, buttons, html: inner };
  });
}

/** The form holding the button named `text`, with that button's name=value added, as a click sends it. */
export function clickButton(html: string, text: string, index = 0): { action: string; fields: Record<string, string> } {
  const hits = forms(html).flatMap((f) => f.buttons.filter((b) => b.text === text).map((b) => ({ f, b })));
  assert.ok(hits.length > index, `a button named ${JSON.stringify(text)}`);
  const { f, b } = hits[index]!;
  return { action: f.action, fields: { ...f.fields, ...(b.name ? { [b.name]: b.value ?? '' } : {}) } };
}

/** Every button text of the page. */
export function buttonTexts(html: string): string[] {
  return forms(html).flatMap((f) => f.buttons.map((b) => b.text));
}

export interface Page {
  status: number;
  url: string;
  html: string;
  headers: LightMyRequestResponse['headers'];
}

export async function get(app: App, url: string, headers: Record<string, string> = {}): Promise<Page> {
  const r = await app.inject({ method: 'GET', url, headers });
  return { status: r.statusCode, url, html: r.body, headers: r.headers };
}

/** Posts a form as a browser on this site does; answers the response as it came (no redirect followed). */
export async function post(
  app: App,
  action: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
  remoteAddress?: string,
): Promise<Page> {
  const r = await app.inject({
    method: 'POST',
    url: action,
    ...(remoteAddress ? { remoteAddress } : {}),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: new URL(app.ctx.config.publicBaseUrl).origin,
      'sec-fetch-site': 'same-origin',
      ...headers,
    },
    payload: new URLSearchParams(fields).toString(),
  });
  return { status: r.statusCode, url: action, html: r.body, headers: r.headers };
}

/** A 303's target, fetched. */
export async function follow(app: App, page: Page): Promise<Page> {
  assert.equal(page.status, 303, `a redirect from ${page.url}: ${page.status} ${textOf(page.html).slice(0, 300)}`);
  return get(app, String(page.headers.location));
}

/** The heading of the page. */
export function h1(html: string): string {
  const m = /<h1\b[^>]*>([\s\S]*?)<\/h1>/.exec(html);
  return m ? textOf(m[1]!) : '';
}

/** Guest details that pass the page's checks. */
export const GUEST = { name: 'Kiss Éva', phone: '+36 30 123 4567', email: 'eva@example.com', note: '', terms: 'yes' };
