/**
 * What no route may forget (src/http/plugins/security-headers.ts): every /admin/v1 answer is
 * `Cache-Control: no-store`, and every HTML answer of the origin refuses to be framed
 * (`frame-ancestors 'none'` and `X-Frame-Options: DENY`). The routes come from app.routeTable, so
 * a route added later is covered here without editing this file. In Chromium: another origin's
 * page cannot frame /docs or the dashboard, and /docs still works under its CSP.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { RouteTableEntry } from '../src/http/context.ts';
import { dbTargets } from './helpers/databases.ts';
import { ADMIN_TOKEN, call, startHarness, type Harness, type JsonResponse } from './helpers/harness.ts';
import { createBusiness } from './helpers/fixtures.ts';
import { insertMember, ownOrigin, signIn } from './helpers/members.ts';
import { label, minimalRequest, openapiDoc, send } from './helpers/route-samples.ts';
import { rawExchange, parseAnswers } from './helpers/raw-http.ts';
import { type Browser, cspViolations, launchBrowser, type LiveServer, ROOT, SKIP_BROWSER, startLiveServer } from './helpers/browser.ts';

function assertNoStore(res: Pick<JsonResponse, 'status' | 'headers' | 'raw'>, where: string): void {
  assert.equal(res.headers['cache-control'], 'no-store', `${where} -> ${res.status} ${res.raw.slice(0, 200)}`);
}

/** `frame-ancestors 'none'`, or a rule naming only this origin (a narrower one than any site). */
function assertNotFramable(headers: JsonResponse['headers'], where: string): void {
  const csp = String(headers['content-security-policy'] ?? '');
  const rule = /(?:^|;)\s*frame-ancestors\s+([^;]*)/i.exec(csp)?.[1]?.trim();
  assert.ok(rule === "'none'" || rule === "'self'", `${where}: frame-ancestors is ${rule ?? 'missing'} (CSP: ${csp})`);
  assert.match(String(headers['x-frame-options'] ?? ''), /^(DENY|SAMEORIGIN)$/i, `${where}: X-Frame-Options`);
}

function isHtml(res: { headers: JsonResponse['headers'] }): boolean {
  return /^text\/html\b/i.test(String(res.headers['content-type'] ?? ''));
}

/** Builds dashboard/dist when stale (as startLiveServer does), so /dashboard/ answers the app's HTML. */
function ensureDashboardBuilt(): void {
  const built = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/ensure-dashboard.ts', '--strict'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  assert.equal(built.status, 0, 'building the dashboard failed');
}

for (const target of dbTargets()) {
  describe(`security headers [${target.name}]`, () => {
    let h: Harness;
    let doc: any;
    let slug: string;
    let member: { email: string; password: string };
    before(async () => {
      ensureDashboardBuilt();
      h = await startHarness(target);
      doc = openapiDoc(h.app);
      const business = await createBusiness(h.app);
      slug = business.slug;
      member = await insertMember(h.db, business.id, 'owner');
    });
    after(() => h.close());

    test('every /admin/v1 route answers no-store: without credentials, as the platform, as a member', async (t) => {
      const routes = h.app.routeTable.filter((r) => r.url === '/admin/v1' || r.url.startsWith('/admin/v1/'));
      assert.ok(routes.length >= 20, `operator routes found: ${routes.length}`);
      let cookie = await signIn(h.app, member.email, member.password);
      for (const r of routes) {
        await t.test(label(r), async () => {
          const req = minimalRequest(doc, r, { salonSlug: slug, locationSlug: 'main' });
          assertNoStore(await send(h.app, r, req), `${label(r)} without credentials`);
          assertNoStore(await send(h.app, r, req, { token: 'wrong-token-0123456789' }), `${label(r)} wrong token`);
          assertNoStore(await send(h.app, r, req, { token: ADMIN_TOKEN }), `${label(r)} platform`);
          if (req.hasBody) assertNoStore(await send(h.app, r, req, { token: ADMIN_TOKEN, body: [] }), `${label(r)} bad body`);
          // A route before this one may have ended the session (sign-out, revoking sessions).
          if ((await call(h.app, { url: '/admin/v1/session', headers: { cookie } })).status !== 200) {
            cookie = await signIn(h.app, member.email, member.password);
          }
          const res = await send(h.app, r, req, { headers: { cookie, origin: ownOrigin(h.app) } });
          assertNoStore(res, `${label(r)} member`);
        });
      }
    });

    test('the framework and the 404 answer no-store under /admin/v1 too', async () => {
      const cases: Array<[string, Parameters<typeof call>[1]]> = [
        ['unknown path', { url: '/admin/v1/no/such/thing' }],
        ['unknown path with a token', { url: '/admin/v1/no-such', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } }],
        ['the prefix itself', { url: '/admin/v1' }],
        ['bad percent-encoding', { url: '/admin/v1/businesses/%zz' }],
        ['an unknown method', { method: 'PATCH', url: '/admin/v1/session' }],
        [
          'malformed JSON',
          { method: 'POST', url: '/admin/v1/session', payload: '{"email":', headers: { 'content-type': 'application/json' } },
        ],
        ['not JSON', { method: 'POST', url: '/admin/v1/session', payload: 'x', headers: { 'content-type': 'text/plain' } }],
        ['a schema failure', { method: 'POST', url: '/admin/v1/session', payload: { email: 'x' } }],
        ['a wrong password', { method: 'POST', url: '/admin/v1/session', payload: { email: member.email, password: 'wrong' } }],
        // The router decodes the path: these reach the operator routes (or their 404) too.
        ['a percent-encoded prefix', { url: '/%61dmin/v1/session' }],
        ['a percent-encoded version', { url: '/admin/%761/session' }],
        ['a percent-encoded unknown path', { url: '/%61dmin/v1/no-such' }],
      ];
      for (const [name, opts] of cases) {
        const res = await call(h.app, opts);
        assert.ok(res.status >= 400, `${name}: ${res.status}`);
        assertNoStore(res, name);
      }
    });

    test('malformed HTTP, answered before Fastify, is no-store as well', async () => {
      await h.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = h.app.server.address() as AddressInfo;
      const x = await rawExchange(port, ['GET /admin/v1/session HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n']);
      const [answer] = parseAnswers(x.received);
      assert.equal(answer?.status, 400, x.received);
      assertNoStore(answer!, 'malformed header');
    });

    test('every HTML answer of the origin refuses framing', async () => {
      // Every GET route of the table with fake parameters, wildcards as a deep link and as the
      // explorer's files, plus the pages named by hand; whatever answers HTML or redirects is checked.
      const fill = (r: RouteTableEntry, wildcard: string) => r.url.replace(/:([A-Za-z0-9_]+)/g, 'fake-$1').replace(/\*$/, wildcard);
      const urls = new Set<string>([
        '/docs',
        '/docs/',
        '/dashboard',
        '/dashboard/',
        '/dashboard/some/deep/link',
        '/pay/deposit/x/y',
        '/pay/%zz',
      ]);
      for (const r of h.app.routeTable) {
        if (r.method !== 'GET') continue;
        for (const w of ['some/deep/link', 'index.html', 'oauth2-redirect.html']) urls.add(fill(r, w));
      }
      const html: string[] = [];
      for (const url of urls) {
        const res = await h.app.inject({ url });
        if (!isHtml(res) && !(res.statusCode >= 300 && res.statusCode < 400)) continue;
        html.push(url);
        assertNotFramable(res.headers, `${url} (${res.statusCode})`);
      }
      // The check must have met the pages it is about, not an empty set.
      for (const page of ['/docs', '/docs/', '/dashboard', '/dashboard/', '/dashboard/some/deep/link', '/pay/deposit/x/y']) {
        assert.ok(html.includes(page), `${page} answered HTML or a redirect: ${html.join(', ')}`);
      }
      assert.ok(html.includes('/docs/static/oauth2-redirect.html'), html.join(', '));
    });

    test("the dashboard's HTML is no-store, its hashed assets stay immutable", async () => {
      for (const url of ['/dashboard/', '/dashboard/some/deep/link', '/dashboard/index.html']) {
        const res = await h.app.inject({ url });
        assert.ok(isHtml(res), `${url}: ${res.headers['content-type']}`);
        assert.equal(res.headers['cache-control'], 'no-store', url);
      }
      const page = await h.app.inject({ url: '/dashboard/' });
      const asset = /src="\/dashboard\/(assets\/[^"]+\.js)"/.exec(page.body)?.[1];
      assert.ok(asset, 'index.html names a hashed script');
      const res = await h.app.inject({ url: `/dashboard/${asset}` });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
    });
  });
}

if (SKIP_BROWSER) test('framing in Chromium', { skip: SKIP_BROWSER }, () => {});
else {
  describe('framing in Chromium', () => {
    let server: LiveServer;
    let browser: Browser;
    let page: Page;
    let other: http.Server;
    let otherBase: string;
    before(async () => {
      server = await startLiveServer();
      browser = await launchBrowser();
      page = browser.page;
      // Another origin: the same host, another port.
      other = http.createServer((req, res) => {
        const src = new URL(req.url ?? '/', 'http://x').searchParams.get('src') ?? '';
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(`<!doctype html><title>framer</title><iframe id="f" src="${server.base}${src}" width="800" height="600"></iframe>`);
      });
      await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
      otherBase = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    });
    after(async () => {
      await browser?.close();
      await new Promise((resolve) => other?.close(resolve));
      await server?.close();
    });

    /** What the frame shows once it settled: its URL and its body's text ('' when it has none). */
    async function framed(src: string): Promise<{ url: string; text: string; refusals: string[] }> {
      const refusals: string[] = [];
      const onConsole = (m: { text(): string }) => {
        if (/frame-ancestors|X-Frame-Options/i.test(m.text())) refusals.push(m.text());
      };
      page.on('console', onConsole);
      await page.goto(`${otherBase}/?src=${encodeURIComponent(src)}`);
      await page.waitForLoadState('load');
      // Give a frame that did load the time to run its scripts (the explorer draws its operations).
      await page.waitForTimeout(1500);
      page.off('console', onConsole);
      const frame = page.frames().find((f) => f !== page.mainFrame());
      assert.ok(frame, 'the iframe exists');
      const text = await frame.evaluate(() => document.body?.textContent ?? '').catch(() => '');
      return { url: frame.url(), text, refusals };
    }

    test('a page of this origin that allows framing does load in the other origin (the check can see a load)', async () => {
      const f = await framed('/v1/openapi.json');
      assert.match(f.text, /openapi/, `control frame: ${f.url} ${f.text.slice(0, 200)}`);
    });

    for (const src of ['/docs', '/docs/', '/dashboard/', '/dashboard/some/deep/link']) {
      test(`${src} is not loaded inside another origin's frame`, async () => {
        const f = await framed(src);
        assert.doesNotMatch(f.text, /Sign in|operator|Booking/i, `${src} rendered inside the frame: ${f.url} ${f.text.slice(0, 200)}`);
        assert.ok(!f.url.startsWith(server.base) || f.text.trim() === '', `${src}: frame at ${f.url} with ${f.text.slice(0, 100)}`);
        assert.ok(f.refusals.length > 0, `${src}: Chromium reported no refusal to frame`);
      });
    }

    test('/docs works top-level under its CSP: the operations are drawn, no violation', async () => {
      const violations = cspViolations(page);
      await page.goto(`${server.base}/docs`);
      await page.locator('.opblock').first().waitFor();
      assert.ok((await page.locator('.opblock').count()) > 20, 'the explorer lists the operations');
      assert.equal(await page.locator('.topbar img').evaluate((img) => (img as HTMLImageElement).naturalWidth > 0), true, 'logo');
      // "Try it out" on GET /healthz: the explorer's fetch to this origin passes connect-src.
      const op = page.locator('#operations-operations-getHealth');
      await op.locator('.opblock-summary').click();
      await op.getByRole('button', { name: 'Try it out' }).click();
      await op.getByRole('button', { name: 'Execute' }).click();
      await op.locator('.live-responses-table .response-col_status', { hasText: '200' }).first().waitFor();
      assert.deepEqual(violations, []);
    });

    test('the dashboard still works top-level under its CSP', async () => {
      const violations = cspViolations(page);
      await page.goto(`${server.base}/dashboard/`);
      await page.getByRole('textbox', { name: 'Email' }).waitFor();
      assert.deepEqual(violations, []);
    });
  });
}
