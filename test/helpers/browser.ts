/**
 * The dashboard's browser tests: the real server on a port with the built dashboard, Debian's
 * Chromium through playwright-core, axe-core. SKIP_BROWSER names why they cannot run (no Chromium).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import axe from 'axe-core';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { buildApp } from '../../src/app.ts';
import type { Config } from '../../src/config.ts';
import type { App } from '../../src/http/context.ts';
import type { Db } from '../../src/store/db.ts';
import { dbTargets } from './databases.ts';
import { testConfig } from './harness.ts';
import { GenerousRateLimitStore } from './rate-limit.ts';

export const CHROMIUM = '/usr/bin/chromium';
export const ROOT = join(import.meta.dirname, '..', '..');

/** false when the browser tests can run; else the reason, shown as the skip reason. */
export const SKIP_BROWSER: string | false = existsSync(CHROMIUM)
  ? false
  : `browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium)`;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export interface LiveServer {
  app: App;
  db: Db;
  /** http://127.0.0.1:port, also the app's PUBLIC_BASE_URL (cookie writes name it in Origin) */
  base: string;
  close(): Promise<void>;
}

/** Builds the dashboard when stale, then the app on PGlite, listening on 127.0.0.1. */
export async function startLiveServer(overrides: Partial<Config> = {}): Promise<LiveServer> {
  const built = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/ensure-dashboard.ts', '--strict'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  assert.equal(built.status, 0, 'building the dashboard failed');
  assert.ok(existsSync(join(ROOT, 'dashboard', 'dist', 'index.html')), 'dashboard/dist/index.html missing after the build');
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const db = await dbTargets()[0]!.open();
  const rateLimitStore = new GenerousRateLimitStore();
  const app = await buildApp({ logger: false, config: testConfig({ ...overrides, publicBaseUrl: base }), db, rateLimitStore });
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

export interface Browser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** Without the background-networking flags Chromium's calls home are refused by this closed network, many at a time. */
export const BROWSER_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A zone far from the salons' (times must not follow the browser's), a fixed locale and size. */
export const CONTEXT_OPTIONS = {
  timezoneId: 'America/Los_Angeles',
  locale: 'en-GB',
  viewport: { width: 1280, height: 860 },
};

/** Headless Chromium with a fresh profile. */
export async function launchBrowser(): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'dashboard-e2e-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: BROWSER_ARGS,
    ...CONTEXT_OPTIONS,
  });
  context.setDefaultTimeout(15_000);
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close().catch(() => {});
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** axe-core in the page (evaluated over the DevTools protocol, which the page's CSP does not govern). */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(axe.source);
  const result = await page.evaluate(() => (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] }));
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Signs in on the sign-in page that `path` (under /dashboard/) leads to; back on that page after it. */
export async function signInThroughUi(page: Page, base: string, email: string, password: string, path = ''): Promise<void> {
  await page.goto(`${base}/dashboard/${path}`);
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}

/** The page's Content-Security-Policy violations as Chromium reports them on the console, as they come. */
export function cspViolations(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (msg) => {
    if (/Content Security Policy/i.test(msg.text())) seen.push(msg.text());
  });
  return seen;
}

/** A local date n days from today in Budapest (the fixture location's zone): inside notice and horizon. */
export function budapestDate(n: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Budapest', year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(Date.now() + n * 86_400_000),
  );
}
