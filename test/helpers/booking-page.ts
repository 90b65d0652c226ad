/**
 * The booking page's browser tests (guest-side.md "The booking page"): the real server on a port,
 * Debian's Chromium with JavaScript on or off, a guest's way through the steps by the spec's fixed
 * accessible names (by mouse or by keyboard alone), and what each step loads.
 */
import assert from 'node:assert/strict';
import axe from 'axe-core';
import { type Browser as PwBrowser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { buildApp } from '../../src/app.ts';
import type { Config } from '../../src/config.ts';
import { BROWSER_ARGS, CHROMIUM, freePort, type LiveServer } from './browser.ts';
import type { DbTarget } from './databases.ts';
import { testConfig } from './harness.ts';
import { GenerousRateLimitStore } from './rate-limit.ts';

/** The live server of the dashboard's browser tests, here on any database target. */
export type GuestServer = LiveServer;

/**
 * The app on `target`, listening on 127.0.0.1, with the real clock (the page shows the week from
 * today). TRUST_PROXY 1: each guest context names its own address in X-Forwarded-For, as guests
 * behind a proxy are, so the per-address limits of one test's guests do not spill into the next.
 */
export async function startGuestServer(target: DbTarget, overrides: Partial<Config> = {}): Promise<GuestServer> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const db = await target.open();
  const rateLimitStore = new GenerousRateLimitStore();
  const app = await buildApp({
    logger: false,
    config: testConfig({ trustProxy: 1, ...overrides, publicBaseUrl: base }),
    db,
    rateLimitStore,
  });
  await app.listen({ host: '127.0.0.1', port });
  return {
    app,
    db,
    base,
    async close() {
      await app.close();
      await rateLimitStore.close();
      await db.close();
    },
  };
}

export async function launchChromium(): Promise<PwBrowser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: BROWSER_ARGS });
}

let guestAddress = 0;

export interface GuestOptions {
  javaScriptEnabled?: boolean;
  width?: number;
  locale?: string;
}

/** A fresh guest: its own context (no cookie shared), its own client address, a phone-sized screen by default. */
export async function newGuest(browser: PwBrowser, o: GuestOptions = {}): Promise<{ context: BrowserContext; page: Page }> {
  guestAddress += 1;
  const context = await browser.newContext({
    javaScriptEnabled: o.javaScriptEnabled ?? true,
    viewport: { width: o.width ?? 390, height: 844 },
    locale: o.locale ?? 'en-GB',
    // far from the salon's zone: the page's times must follow the location, never the browser
    timezoneId: 'America/Los_Angeles',
    extraHTTPHeaders: { 'x-forwarded-for': `198.51.100.${(guestAddress % 250) + 1}` },
  });
  context.setDefaultTimeout(15_000);
  return { context, page: await context.newPage() };
}

/** A link or a button: the spec lets a step offer either. */
export function choice(scope: Page | Locator, name: string | RegExp): Locator {
  const exact = typeof name === 'string';
  return scope.getByRole('link', { name, exact }).or(scope.getByRole('button', { name, exact }));
}

/** Every free start time of the time step is named exactly HH:MM. */
export const TIME_NAME = /^\d\d:\d\d$/;

/** How the guest moves: the mouse, or the keyboard alone (Tab to the element, then Enter or Space). */
export type Input = 'mouse' | 'keyboard';

/** Presses Tab until `target` has the focus; fails when it is never reached. */
export async function tabTo(page: Page, target: Locator, max = 150): Promise<void> {
  const el = target.first();
  await el.waitFor();
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await el.evaluate((node) => node === document.activeElement)) return;
  }
  assert.fail(`Tab never reached ${String(el)} in ${max} presses`);
}

export async function activate(page: Page, target: Locator, input: Input): Promise<void> {
  if (input === 'mouse') return target.first().click();
  await tabTo(page, target);
  await page.keyboard.press('Enter');
}

export async function fill(page: Page, field: Locator, value: string, input: Input): Promise<void> {
  if (input === 'mouse') return field.fill(value);
  await tabTo(page, field);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(value);
}

export async function check(page: Page, box: Locator, input: Input): Promise<void> {
  if (input === 'mouse') return box.check();
  await tabTo(page, box);
  await page.keyboard.press('Space');
  assert.equal(await box.isChecked(), true, 'Space checks the box');
}

/** axe-core with the WCAG 2 A and AA rules, every impact; evaluated over the DevTools protocol. */
export async function wcagViolations(page: Page): Promise<string[]> {
  await page.evaluate(axe.source);
  const result = await page.evaluate(() =>
    (window as unknown as { axe: typeof axe }).axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] },
      resultTypes: ['violations'],
    }),
  );
  return result.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`).join('; ')}`,
  );
}

/** Horizontal scroll of the page at its current width (0 when everything fits). */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

export interface Transfer {
  url: string;
  type: string;
  bytes: number;
}

/**
 * Every request the page makes (for the same-origin rule) and what each finished response
 * transferred: headers plus the body as it came over the wire.
 */
export function recordRequests(page: Page) {
  const urls: string[] = [];
  let transfers: Transfer[] = [];
  const pending = new Set<Promise<void>>();
  page.on('request', (r) => urls.push(r.url()));
  page.on('requestfinished', (r) => {
    const p = (async () => {
      const response = await r.response();
      const sizes = await r.sizes();
      const type = response?.headers()['content-type'] ?? '';
      transfers.push({ url: r.url(), type, bytes: sizes.responseHeadersSize + sizes.responseBodySize });
    })().catch(() => {});
    pending.add(p);
    void p.finally(() => pending.delete(p));
  });
  return {
    urls,
    /** Starts a step: what the step transfers is counted from here. */
    reset() {
      transfers = [];
    },
    /** What the step transferred, images aside, once the network is quiet. */
    async step(): Promise<{ bytes: number; transfers: Transfer[] }> {
      await page.waitForLoadState('networkidle');
      await Promise.all([...pending]);
      const counted = transfers.filter((t) => !t.type.startsWith('image/'));
      return { bytes: counted.reduce((n, t) => n + t.bytes, 0), transfers: counted };
    },
  };
}

/** The browser cache off: each step is weighed as a first visit's, its CSS and script included. */
export async function disableCache(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
}

/** The public reference a done page shows. */
export async function referenceOn(page: Page): Promise<string> {
  const text = (await page.locator('main').textContent()) ?? '';
  const m = /BK-[34679ACDEFGHJKMNPQRTUVWXY]{8}/.exec(text);
  assert.ok(m, `no public reference on the done page: ${text.slice(0, 500)}`);
  return m[0];
}
