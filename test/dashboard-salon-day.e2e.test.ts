/**
 * A salon's day in the dashboard (salon-scheduling.md) in a real browser: Debian's Chromium
 * through playwright-core against the real server, at 390 px and by keyboard. The owner gives a
 * colour its processing time and a wash basin in the service form; the calendar then draws the
 * colour's processing as processing, with the cut booked inside it drawn on top, and names the
 * basin unit it has; axe-core (WCAG 2 A and AA) finds nothing. Skipped, and said so, without /usr/bin/chromium.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import {
  BROWSER_ARGS,
  CHROMIUM,
  CONTEXT_OPTIONS,
  cspViolations,
  type LiveServer,
  SKIP_BROWSER as skip,
  signInThroughUi,
  startLiveServer,
  budapestDate,
} from './helpers/browser.ts';
import { wcagViolations } from './helpers/booking-page.ts';
import { createSalon, type SalonFixture } from './helpers/fixtures.ts';
import { adminOk } from './helpers/harness.ts';
import { insertMember } from './helpers/members.ts';

if (skip) console.log(`# ${skip}`);

if (skip) test('dashboard salon day in Chromium', { skip }, () => {});
else describeBrowser();

function describeBrowser() {
  describe('dashboard salon day in Chromium', () => {
    let server: LiveServer;
    let browser: Browser;
    let salon: SalonFixture;
    let owner: { email: string; password: string };
    const date = budapestDate(4);
    const contexts: BrowserContext[] = [];

    before(async () => {
      server = await startLiveServer();
      salon = await createSalon(server.app);
      owner = await insertMember(server.db, salon.business.id, 'owner');
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: BROWSER_ARGS });
    });

    after(async () => {
      for (const c of contexts) await c.close().catch(() => {});
      await browser?.close().catch(() => {});
      await server?.close();
    });

    async function phone() {
      const context = await browser.newContext({ ...CONTEXT_OPTIONS, viewport: { width: 390, height: 844 } });
      context.setDefaultTimeout(15_000);
      contexts.push(context);
      return context.newPage();
    }

    function book(serviceId: string, startTime: string, guest: string): Promise<any> {
      return adminOk(server.app, 'POST', `/businesses/${salon.business.slug}/bookings`, {
        locationSlug: salon.location.slug,
        serviceId,
        staffId: salon.staff[0]!.id,
        date,
        startTime,
        guest: { name: guest, phone: '+36 30 111 2222' },
      });
    }

    test('processing time and a resource: set in the service form, drawn on the calendar with a cut inside it', async () => {
      const page = await phone();
      const csp = cspViolations(page);
      const basinId = (
        await adminOk(server.app, 'POST', `/businesses/${salon.business.slug}/resources`, {
          locationSlug: salon.location.slug,
          name: 'Wash basin',
          quantity: 2,
        })
      ).resource.id;
      await signInThroughUi(page, server.base, owner.email, owner.password, `${salon.business.slug}/services`);
      const colouring = salon.manualService;
      const edit = page.getByRole('button', { name: `Edit ${colouring.name}` });
      await edit.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: `Edit ${colouring.name}` });
      await dialog.getByRole('spinbutton', { name: 'Processing (minutes)' }).fill('30');
      await dialog.getByRole('spinbutton', { name: 'Processing starts after (minutes of work)' }).fill('15');
      const basin = dialog.getByRole('group', { name: 'Resources' }).getByRole('checkbox', { name: 'Wash basin' });
      await basin.focus();
      await page.keyboard.press('Space');
      assert.deepEqual(await wcagViolations(page), [], 'the service form with processing time');
      await dialog.getByRole('button', { name: 'Save service' }).press('Enter');
      await dialog.waitFor({ state: 'hidden' });
      const saved = (await adminOk(server.app, 'GET', `/services/${colouring.id}`)).service;
      assert.deepEqual(saved.resourceIds, [basinId]);
      assert.deepEqual(saved.segments, [
        { kind: 'work', minutes: 15 },
        { kind: 'processing', minutes: 30 },
        { kind: 'work', minutes: 15 },
      ]);

      // a processing time that does not fit is said beside its field
      await edit.focus();
      await page.keyboard.press('Enter');
      await dialog.getByRole('spinbutton', { name: 'Processing (minutes)' }).fill('50');
      await dialog.getByRole('button', { name: 'Save service' }).press('Enter');
      const field = dialog.getByRole('spinbutton', { name: 'Processing (minutes)' });
      await page.waitForFunction(() => document.querySelector('[name="processingMinutes"]')?.getAttribute('aria-invalid') === 'true');
      assert.equal(await field.getAttribute('aria-invalid'), 'true');
      await dialog.getByRole('button', { name: 'Cancel' }).click();

      await book(colouring.id, '10:00', 'Colour Cili');
      await book(salon.service.id, '10:15', 'Cut Csaba');
      await page.goto(`${server.base}/dashboard/${salon.business.slug}/calendar?date=${date}`);
      const colour = page.getByRole('link', { name: /Colour Cili/ });
      await colour.waitFor();
      assert.match((await colour.getAttribute('aria-label')) ?? '', /processing 10:15–10:45, Wash basin 1$/);
      assert.equal(await colour.locator('.booking-resources').textContent(), 'Wash basin 1', 'the unit is shown');
      assert.equal(await colour.locator('.booking-processing').count(), 1, 'the processing part is drawn');
      const cut = page.getByRole('link', { name: /Cut Csaba/ });
      assert.match((await cut.getAttribute('class')) ?? '', /\bnested\b/, 'the cut sits on top of the processing time');
      assert.deepEqual(await wcagViolations(page), [], 'the calendar with processing time');
      assert.deepEqual(csp, [], 'no CSP violation');

      // A visit from New booking: a cut with Anna, then the colour (processing, a basin) with Bence
      await page.getByRole('button', { name: 'New booking' }).click();
      const newBooking = page.getByRole('dialog', { name: 'New booking' });
      await newBooking.getByRole('combobox', { name: 'Service', exact: true }).selectOption({ label: 'Haircut (30 min)' });
      await newBooking.getByRole('combobox', { name: 'Staff', exact: true }).selectOption({ label: 'Anna' });
      await newBooking.getByRole('button', { name: 'Add another service' }).click();
      await newBooking.getByRole('combobox', { name: 'Service 2' }).selectOption({ label: `${colouring.name} (60 min)` });
      await newBooking.getByRole('combobox', { name: 'Staff 2' }).selectOption({ label: 'Bence' });
      await newBooking.getByLabel('Time', { exact: true }).fill('13:00');
      await newBooking.getByRole('textbox', { name: 'Guest name' }).fill('Visit Vera');
      await newBooking.getByRole('textbox', { name: 'Phone' }).fill('+36301234567');
      assert.deepEqual(await wcagViolations(page), [], 'New booking with two services');
      await newBooking.getByRole('button', { name: 'Create booking' }).click();
      await newBooking.waitFor({ state: 'hidden' });
      const parts = page.getByRole('link', { name: /Visit Vera/ });
      await parts.nth(1).waitFor();
      assert.equal(await parts.count(), 2, 'both parts on the calendar');
      // the colour follows the cut: 13:00-13:30, then 13:30-14:30 with its processing and its basin
      const colourPart = page.getByRole('link', { name: /^13:30–14:30 Visit Vera/ });
      assert.match((await colourPart.getAttribute('aria-label')) ?? '', /processing 13:45–14:15, Wash basin \d$/);
      const listed = (await adminOk(server.app, 'GET', `/businesses/${salon.business.slug}/bookings?limit=100`)).bookings.filter(
        (b: { guest: { name: string } }) => b.guest.name === 'Visit Vera',
      );
      assert.equal(listed.length, 2);
      assert.equal(new Set(listed.map((b: { visitId?: string }) => b.visitId)).size, 1, 'one visit');
      assert.ok(listed[0].visitId, 'the parts carry their visitId');
    });
  });
}
