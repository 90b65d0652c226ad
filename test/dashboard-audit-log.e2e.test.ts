/**
 * The dashboard's Audit log page (clients-and-reports.md "Audit log") in Chromium: a manager finds
 * it in the navigation, reads who changed what (the salon's set-up by the platform operator, then
 * their own change), filters by who, and axe (WCAG 2 A and AA) finds nothing; the front desk has no
 * such link. Skipped, and said so, without /usr/bin/chromium.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Browser, chromium } from 'playwright-core';
import {
  BROWSER_ARGS,
  CHROMIUM,
  CONTEXT_OPTIONS,
  type LiveServer,
  SKIP_BROWSER as skip,
  signInThroughUi,
  startLiveServer,
} from './helpers/browser.ts';
import { wcagViolations } from './helpers/booking-page.ts';
import { createSalon, type SalonFixture } from './helpers/fixtures.ts';
import { insertMember } from './helpers/members.ts';

if (skip) console.log(`# ${skip}`);

if (skip) test('dashboard Audit log in Chromium', { skip }, () => {});
else describeBrowser();

function describeBrowser() {
  describe('dashboard Audit log in Chromium', () => {
    let server: LiveServer;
    let browser: Browser;
    let salon: SalonFixture;
    before(async () => {
      server = await startLiveServer();
      salon = await createSalon(server.app);
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: BROWSER_ARGS });
    });
    after(async () => {
      await browser?.close().catch(() => {});
      await server?.close();
    });

    test('a manager reads and filters the log; the front desk has no link to it', async () => {
      const manager = await insertMember(server.db, salon.business.id, 'manager');
      const desk = await insertMember(server.db, salon.business.id, 'frontDesk');
      const context = await browser.newContext({ ...CONTEXT_OPTIONS, viewport: { width: 1280, height: 800 } });
      context.setDefaultTimeout(15_000);
      try {
        const page = await context.newPage();
        await signInThroughUi(page, server.base, manager.email, manager.password, `${salon.business.slug}/calendar`);
        // a change of the manager's own, through the page's API
        const changed = await page.evaluate(async (serviceId) => {
          const r = await fetch(`/admin/v1/services/${serviceId}`, {
            method: 'PATCH',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ description: 'Now with a wash' }),
          });
          return r.status;
        }, salon.service.id);
        assert.equal(changed, 200);
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log', exact: true }).click();
        await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
        const rows = page.locator('table.list tbody tr');
        await rows.first().waitFor();
        assert.match((await rows.first().textContent()) ?? '', /service\.update.*description/);
        assert.ok((await rows.allTextContents()).some((r) => /Platform operator.*service\.create/.test(r)));
        assert.deepEqual(await wcagViolations(page), [], 'the Audit log page');

        await page.getByLabel('Who').selectOption('guest');
        await page.getByRole('button', { name: 'Apply filters' }).click();
        await page.getByText('Nothing recorded for these filters.').waitFor();

        await page.getByRole('button', { name: 'Sign out' }).click();
        await page.waitForURL(/sign-in/);
        await signInThroughUi(page, server.base, desk.email, desk.password, `${salon.business.slug}/calendar`);
        const nav = page.getByRole('navigation', { name: 'Main' });
        await nav.getByRole('link', { name: 'Calendar', exact: true }).waitFor();
        assert.equal(await nav.getByRole('link', { name: 'Audit log' }).count(), 0);
      } finally {
        await context.close();
      }
    });
  });
}
