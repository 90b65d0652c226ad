/**
 * How the server serves the dashboard (src/http/routes/dashboard.ts), on a build of its own made in
 * a temporary folder: the SPA fallback, the redirect, the security headers and the caching, and
 * that none of it enters the OpenAPI document.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import Fastify from 'fastify';
import { DASHBOARD_CSP, dashboardRoutes } from '../src/http/routes/dashboard.ts';
import type { App } from '../src/http/context.ts';
import { dbTargets } from './helpers/databases.ts';
import { startHarness, type Harness } from './helpers/harness.ts';

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

describe('dashboard serving', () => {
  let root: string;
  let app: App;
  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'dashboard-dist-'));
    mkdirSync(join(root, 'assets'));
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>app</title>');
    writeFileSync(join(root, 'assets', 'index-abc123.js'), 'console.log(1)');
    writeFileSync(join(root, '.secret'), 'no');
    app = Fastify({ routerOptions: { ignoreTrailingSlash: true } }) as unknown as App;
    await app.register(dashboardRoutes, { root });
    await app.ready();
  });
  after(async () => {
    await app.close();
    rmSync(root, { recursive: true, force: true });
  });

  test('the CSP is the strict one', () => assert.equal(DASHBOARD_CSP, CSP));

  test('/dashboard redirects to /dashboard/, keeping the query', async () => {
    const r = await app.inject({ url: '/dashboard?x=1' });
    assert.equal(r.statusCode, 301);
    assert.equal(r.headers.location, '/dashboard/?x=1');
  });

  test('/ (GET and HEAD, exactly /) redirects to the dashboard with 302', async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      for (const url of ['/', '/?from=bookmark']) {
        const r = await app.inject({ method, url });
        assert.equal(r.statusCode, 302, `${method} ${url}`);
        assert.equal(r.headers.location, '/dashboard/');
      }
    }
    const post = await app.inject({ method: 'POST', url: '/' });
    assert.equal(post.statusCode, 404);
    assert.equal((await app.inject({ url: '/index.html' })).statusCode, 404);
  });

  for (const url of ['/dashboard/', '/dashboard/sign-in', '/dashboard/salon-a/calendar?date=2026-03-29', '/dashboard/.secret']) {
    test(`${url} -> index.html, never stored, with the security headers`, async () => {
      const r = await app.inject({ url });
      assert.equal(r.statusCode, 200);
      assert.match(r.headers['content-type'] as string, /^text\/html/);
      assert.equal(r.body, '<!doctype html><title>app</title>');
      assert.equal(r.headers['content-security-policy'], CSP);
      assert.equal(r.headers['x-content-type-options'], 'nosniff');
      assert.equal(r.headers['referrer-policy'], 'same-origin');
      assert.equal(r.headers['cache-control'], 'no-store');
    });
  }

  test('a hashed asset is immutable; a missing one is 404, not the app', async () => {
    const r = await app.inject({ url: '/dashboard/assets/index-abc123.js' });
    assert.equal(r.statusCode, 200);
    assert.equal(r.body, 'console.log(1)');
    assert.equal(r.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(r.headers['x-content-type-options'], 'nosniff');
    const missing = await app.inject({ url: '/dashboard/assets/index-old.js' });
    assert.equal(missing.statusCode, 404);
  });

  test('nothing outside the build', async () => {
    for (const url of ['/dashboard/../package.json', '/dashboard/%2e%2e/%2e%2e/package.json', '/dashboard/assets/..%2f..%2fpackage.json']) {
      const r = await app.inject({ url });
      assert.ok(!r.body.includes('"name"'), `${url} leaked a file: ${r.statusCode}`);
    }
  });

  test('no build: 503 saying how to build it', async () => {
    const empty = Fastify() as unknown as App;
    await empty.register(dashboardRoutes, { root: join(root, 'missing') });
    const r = await empty.inject({ url: '/dashboard/' });
    assert.equal(r.statusCode, 503);
    assert.match(r.body, /npm run build/);
    await empty.close();
  });
});

for (const target of dbTargets()) {
  describe(`dashboard routes in the app [${target.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(target);
    });
    after(async () => h.close());

    test('open, hidden from the OpenAPI document', async () => {
      const paths = Object.keys((h.app.swagger() as { paths: Record<string, unknown> }).paths);
      assert.deepEqual(
        paths.filter((p) => p.startsWith('/dashboard')),
        [],
      );
      assert.equal((h.app.swagger() as { paths: Record<string, unknown> }).paths['/'], undefined);
      const entries = h.app.routeTable.filter((r) => r.url.startsWith('/dashboard') || r.url === '/');
      assert.ok(entries.length >= 3);
      assert.ok(entries.some((e) => e.url === '/'));
      for (const e of entries) {
        assert.deepEqual(e.access, { surface: 'open' });
        assert.equal(e.hidden, true);
      }
      const r = await h.app.inject({ url: '/dashboard' });
      assert.equal(r.statusCode, 301);
      const root = await h.app.inject({ url: '/' });
      assert.equal(root.statusCode, 302);
      assert.equal(root.headers.location, '/dashboard/');
    });
  });
}
