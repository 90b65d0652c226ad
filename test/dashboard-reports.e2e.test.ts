/**
 * The dashboard's Reports page (clients-and-reports.md "Reports") in Chromium: the owner opens it,
 * chooses a period, reads the figures and the per-staff charts with their tables, and downloads the
 * CSV (the file the browser saves starts with the named header row); a manager who reads Hungarian
 * does the same by keyboard alone at 390 px; axe (WCAG 2 A and AA) finds nothing. Skipped, and said so, without /usr/bin/chromium.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { type Browser, chromium } from 'playwright-core';
import {
  BROWSER_ARGS,
  budapestDate,
  CHROMIUM,
  CONTEXT_OPTIONS,
  type LiveServer,
  SKIP_BROWSER as skip,
  signInThroughUi,
  startLiveServer,
} from './helpers/browser.ts';
import { wcagViolations } from './helpers/booking-page.ts';
import { createSalon, type SalonFixture } from './helpers/fixtures.ts';
import { adminOk } from './helpers/harness.ts';
import { insertMember } from './helpers/members.ts';

if (skip) console.log(`# ${skip}`);

if (skip) test('dashboard Reports in Chromium', { skip }, () => {});
else describeBrowser();

function describeBrowser() {
  describe('dashboard Reports in Chromium', () => {
    let server: LiveServer;
    let browser: Browser;
    let salon: SalonFixture;
    before(async () => {
      server = await startLiveServer();
      salon = await createSalon(server.app);
      for (const [i, name] of ['Report Rita', 'Report Réka'].entries()) {
        await adminOk(server.app, 'POST', `/businesses/${salon.business.slug}/bookings`, {
          locationSlug: salon.location.slug,
          serviceId: salon.service.id,
          staffId: salon.staff[i]!.id,
          date: budapestDate(2),
          startTime: '10:00',
          guest: { name, phone: `+3630555000${i}` },
        });
      }
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: BROWSER_ARGS });
    });
    after(async () => {
      await browser?.close().catch(() => {});
      await server?.close();
    });

    test('the owner reads a period and downloads its CSV', async () => {
      const owner = await insertMember(server.db, salon.business.id, 'owner');
      const context = await browser.newContext({ ...CONTEXT_OPTIONS, acceptDownloads: true, viewport: { width: 1280, height: 800 } });
      context.setDefaultTimeout(15_000);
      try {
        const page = await context.newPage();
        await signInThroughUi(page, server.base, owner.email, owner.password, `${salon.business.slug}/calendar`);
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports', exact: true }).click();
        await page.getByRole('heading', { level: 1, name: 'Reports' }).waitFor();
        await page.getByLabel('From').fill(budapestDate(0));
        await page.getByLabel('To').fill(budapestDate(7));
        await page.getByRole('button', { name: 'Show report' }).click();
        await page.waitForURL((u) => u.searchParams.get('from') === budapestDate(0));
        // the previous period's figures stay on screen (marked busy) until the new ones arrive
        await page.waitForFunction(() => /Bookings\s*2(?!\d)/.test(document.querySelector('dl.facts')?.textContent ?? ''));
        await page.locator('[aria-busy="false"] dl.facts').waitFor();
        const facts = page.locator('dl.facts');
        assert.match((await facts.textContent()) ?? '', /Bookings\s*2/);
        // each chart's figures are a table too: one row per staff member
        const utilisation = page.getByRole('figure', { name: 'Utilisation by staff member' });
        assert.ok((await utilisation.getByRole('row').count()) >= 3, 'a header row and the staff');
        await page.getByRole('figure', { name: 'Revenue by staff member' }).getByRole('cell', { name: 'Anna' }).waitFor();
        assert.deepEqual(await wcagViolations(page), [], 'the Reports page');

        const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
        const text = await readFile((await download.path())!, 'utf8');
        assert.equal(text.split(/\r\n/)[0], 'reference,date,start,end,service,staff,status,source,price,currency,client');
        assert.equal(text.trim().split(/\r\n/).length, 3, 'the header and the two bookings');
      } finally {
        await context.close();
      }
    });

    test('in Hungarian and by keyboard alone: the period chosen, the report shown, the CSV downloaded', async () => {
      const manager = await insertMember(server.db, salon.business.id, 'manager');
      await server.db.query("UPDATE users SET language = 'hu' WHERE id = $1", [manager.userId]);
      const context = await browser.newContext({ ...CONTEXT_OPTIONS, acceptDownloads: true, viewport: { width: 390, height: 844 } });
      context.setDefaultTimeout(15_000);
      try {
        const page = await context.newPage();
        // the sign-in page speaks the browser's language (English here); the dashboard then the member's
        await page.goto(`${server.base}/dashboard/${salon.business.slug}/reports`);
        await page.getByRole('textbox', { name: 'Email' }).fill(manager.email);
        await page.getByLabel('Password', { exact: true }).fill(manager.password);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('heading', { level: 1, name: 'Kimutatások' }).waitFor();
        assert.equal(await page.evaluate(() => document.documentElement.lang), 'hu');
        // From the heading on, keys only: Tab to the first date, Tab to the second, Enter submits
        await page.getByRole('heading', { level: 1 }).evaluate((h) => {
          h.setAttribute('tabindex', '-1');
          h.focus();
        });
        const focusedName = () => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name ?? '');
        for (let i = 0; i < 10 && (await focusedName()) !== 'from'; i++) await page.keyboard.press('Tab');
        assert.equal(await focusedName(), 'from', 'the first date is reached by Tab');
        // typing into a date field's segments is the browser's own; the value goes in as a date, the rest is keys
        await page.locator('input[name=from]:focus').fill(budapestDate(0));
        for (let i = 0; i < 8 && (await focusedName()) !== 'to'; i++) await page.keyboard.press('Tab');
        assert.equal(await focusedName(), 'to', 'the second date is reached by Tab');
        await page.locator('input[name=to]:focus').fill(budapestDate(7));
        await page.keyboard.press('Enter');
        await page.waitForURL((u) => u.searchParams.get('from') === budapestDate(0) && u.searchParams.get('to') === budapestDate(7));
        await page.waitForFunction(() => /Foglalások\s*2(?!\d)/.test(document.querySelector('dl.facts')?.textContent ?? ''));
        await page.getByRole('figure', { name: 'Kihasználtság munkatársanként' }).waitFor();
        await page.getByRole('figure', { name: 'Bevétel munkatársanként' }).getByRole('cell', { name: 'Anna' }).waitFor();
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(width <= 390, `no sideways scroll at 390 px (${width})`);
        assert.deepEqual(await wcagViolations(page), [], 'the Reports page in Hungarian at 390 px');

        // Tab on to the download link (after the submit button) and press Enter
        const csvLink = page.getByRole('link', { name: 'CSV letöltése' });
        for (let i = 0; i < 10 && !(await csvLink.evaluate((a) => a === document.activeElement)); i++) await page.keyboard.press('Tab');
        const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
        const text = await readFile((await download.path())!, 'utf8');
        assert.equal(text.trim().split(/\r\n/).length, 3, 'the header and the two bookings');
      } finally {
        await context.close();
      }
    });
  });
}
