/**
 * The dashboard's Clients page (clients-and-reports.md "Clients") in Chromium: a front-desk member
 * finds a client by typing part of a name with and without accents, opens the client, sees the
 * history and adds a note that the server keeps; axe (WCAG 2 A and AA) finds nothing on either page.
 * Skipped, and said so, without /usr/bin/chromium.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Browser, chromium } from 'playwright-core';
import {
  BROWSER_ARGS,
  budapestDate,
  CHROMIUM,
  CONTEXT_OPTIONS,
  cspViolations,
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

if (skip) test('dashboard Clients in Chromium', { skip }, () => {});
else describeBrowser();

function describeBrowser() {
  describe('dashboard Clients in Chromium', () => {
    let server: LiveServer;
    let browser: Browser;
    let salon: SalonFixture;
    let desk: { email: string; password: string };
    let clientId: string;

    before(async () => {
      server = await startLiveServer();
      salon = await createSalon(server.app);
      desk = await insertMember(server.db, salon.business.id, 'frontDesk');
      const book = async (name: string, phone: string, day: number, startTime: string) =>
        (
          await adminOk(server.app, 'POST', `/businesses/${salon.business.slug}/bookings`, {
            locationSlug: salon.location.slug,
            serviceId: salon.service.id,
            staffId: salon.staff[0]!.id,
            date: budapestDate(day),
            startTime,
            guest: { name, phone },
          })
        ).booking;
      const first = await book('Kiss Éva', '+36 30 111 2233', 3, '10:00');
      await book('Kiss Éva', '+36 30 111 2233', 5, '11:00');
      await book('Nagy Ödön', '+36 30 555 4433', 3, '12:00');
      clientId = (await adminOk(server.app, 'GET', `/bookings/${first.bookingId}`)).booking.clientId;
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: BROWSER_ARGS });
    });

    after(async () => {
      await browser?.close().catch(() => {});
      await server?.close();
    });

    test('find a client by part of a name, with and without accents; see the history; add a note', async () => {
      const context = await browser.newContext({ ...CONTEXT_OPTIONS, viewport: { width: 1024, height: 768 } });
      context.setDefaultTimeout(15_000);
      try {
        const page = await context.newPage();
        const csp = cspViolations(page);
        await signInThroughUi(page, server.base, desk.email, desk.password, `${salon.business.slug}/calendar`);
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Clients', exact: true }).click();
        await page.getByRole('heading', { level: 1, name: 'Clients' }).waitFor();
        const search = page.getByLabel('Search clients');
        const rows = page.locator('table.list tbody tr');

        for (const typed of ['eva', 'ÉVA', 'kiss é']) {
          await search.fill('');
          await search.pressSequentially(typed);
          await page.waitForURL((u) => u.searchParams.get('q') === typed);
          await page.waitForFunction(() => !document.querySelector('table.list[aria-busy="true"]'));
          assert.deepEqual(await rows.locator('td:first-child').allTextContents(), ['Kiss Éva'], `typed ${typed}`);
        }
        await search.fill('odon');
        await page.waitForURL((u) => u.searchParams.get('q') === 'odon');
        await page.getByRole('link', { name: 'Nagy Ödön' }).waitFor();
        assert.deepEqual(await wcagViolations(page), [], 'the Clients page');

        await search.fill('Éva');
        await page.getByRole('link', { name: 'Kiss Éva' }).click();
        await page.getByRole('heading', { level: 1, name: 'Kiss Éva' }).waitFor();
        // the history: both bookings, the later one first
        const history = page.getByRole('table').locator('tbody tr');
        assert.equal(await history.count(), 2);
        assert.match((await history.nth(0).textContent()) ?? '', new RegExp(budapestDate(5)));
        assert.match((await history.nth(1).textContent()) ?? '', new RegExp(budapestDate(3)));

        await page.getByLabel('Notes', { exact: true }).fill('Patch test done; allergic to ammonia.');
        await page.getByLabel('Tags', { exact: true }).fill('VIP, patch test done');
        await page.getByRole('button', { name: 'Save notes' }).click();
        await page.getByRole('status').filter({ hasText: 'Client saved.' }).waitFor();
        const saved = (await adminOk(server.app, 'GET', `/clients/${clientId}`)).client;
        assert.equal(saved.notes, 'Patch test done; allergic to ammonia.');
        assert.deepEqual(saved.tags, ['VIP', 'patch test done']);
        assert.deepEqual(await wcagViolations(page), [], 'the client page');

        await page.reload();
        assert.equal(await page.getByLabel('Notes', { exact: true }).inputValue(), 'Patch test done; allergic to ammonia.');

        // New booking suggests the client as the name is typed; choosing fills the phone
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Calendar', exact: true }).click();
        await page.getByRole('button', { name: 'New booking' }).click();
        const dialog = page.getByRole('dialog', { name: 'New booking' });
        await dialog.getByLabel('Guest name').pressSequentially('kiss');
        await dialog.getByRole('button', { name: 'Use Kiss Éva, +36301112233' }).click();
        assert.equal(await dialog.getByLabel('Guest name').inputValue(), 'Kiss Éva');
        assert.equal(await dialog.getByLabel('Phone').inputValue(), '+36301112233');
        assert.deepEqual(await wcagViolations(page), [], 'New booking with a suggestion');
        await dialog.getByRole('button', { name: 'Create booking' }).click();
        const ask = page.getByRole('dialog', { name: 'Book anyway?' });
        await Promise.race([dialog.waitFor({ state: 'hidden' }), ask.waitFor()]);
        if (await ask.isVisible()) await ask.getByRole('button', { name: 'Book anyway' }).click();
        await dialog.waitFor({ state: 'hidden' });
        const after = (await adminOk(server.app, 'GET', `/clients/${clientId}`)).client.bookings;
        assert.equal(after.length, 3, 'the new booking is the same client');
        assert.deepEqual(csp, []);
      } finally {
        await context.close();
      }
    });
  });
}
