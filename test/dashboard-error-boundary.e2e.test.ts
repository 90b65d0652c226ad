/**
 * The router's error boundary (dashboard/src/components/RouteError.tsx) in a real browser: a page
 * that fails to render, here because the server's answer lacks what the page draws (the answer is
 * replaced in the browser, the server is real), shows the failure in words and a way back inside
 * the shell, not a blank page. Skipped, and said so, when /usr/bin/chromium is absent.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  type Browser,
  cspViolations,
  launchBrowser,
  type LiveServer,
  SKIP_BROWSER as skip,
  seriousViolations,
  signInThroughUi,
  startLiveServer,
} from './helpers/browser.ts';
import { createSalon, type SalonFixture } from './helpers/fixtures.ts';
import { insertMember } from './helpers/members.ts';

if (skip) console.log(`# ${skip}`);

if (skip) test('dashboard error boundary in Chromium', { skip }, () => {});
else describeBrowser();

function describeBrowser() {
  describe('dashboard error boundary in Chromium', () => {
    let server: LiveServer;
    let browser: Browser;
    let salon: SalonFixture;
    let member: { email: string; password: string };

    before(async () => {
      server = await startLiveServer();
      salon = await createSalon(server.app, { timezone: 'Europe/Budapest' });
      member = await insertMember(server.db, salon.business.id, 'owner');
      browser = await launchBrowser();
    });

    after(async () => {
      await browser?.close();
      await server?.close();
    });

    test('a page that fails to render shows a message and a way back; the navigation stays', async () => {
      const page = browser.page;
      const csp = cspViolations(page);
      const slug = salon.business.slug;
      await signInThroughUi(page, server.base, member.email, member.password, `${slug}/calendar`);

      // A location without its address: the Locations page cannot draw its row.
      const broken = JSON.stringify({
        ok: true,
        data: { locations: [{ id: 'x', slug: 'x', name: 'Broken' }] },
        meta: { requestId: 'r', v: '1' },
      });
      await page.route(`**/admin/v1/businesses/${slug}/locations`, (route) =>
        route.fulfill({ status: 200, contentType: 'application/json', body: broken }),
      );
      await page.goto(`${server.base}/dashboard/${slug}/locations`);
      await page.getByRole('heading', { name: 'Something went wrong', level: 1 }).waitFor();
      const alert = page.getByRole('alert');
      assert.match((await alert.textContent()) ?? '', /^This page could not be shown: /);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Calendar' }).waitFor();
      assert.deepEqual(await seriousViolations(page), [], 'the error page');

      // The way back reads everything again; with the server's own answers the dashboard works.
      await page.unroute(`**/admin/v1/businesses/${slug}/locations`);
      await page.getByRole('link', { name: 'Back to the dashboard' }).click();
      await page.getByRole('heading', { name: 'Calendar', level: 1 }).waitFor();
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Locations' }).click();
      await page.getByRole('heading', { name: 'Locations', level: 1 }).waitFor();
      assert.equal(await page.getByRole('heading', { name: 'Something went wrong' }).count(), 0);
      assert.deepEqual(csp, [], 'no CSP violation');
    });
  });
}
