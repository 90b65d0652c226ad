/**
 * Stylist variants in the dashboard (salon-scheduling.md "Stylist variants") in a real browser:
 * Debian's Chromium through playwright-core against the real server, at 390 px and by keyboard.
 * The owner gives Anna her own duration and price for a haircut in the service form; the service
 * then shows both in its read, the list marks it, and a search offers Anna's times with her end.
 * A price the currency cannot hold is said beside Anna's variant. axe-core (WCAG 2 A and AA)
 * finds nothing. Skipped, and said so, without /usr/bin/chromium.
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
import { api, createSalon, type SalonFixture } from './helpers/fixtures.ts';
import { adminOk } from './helpers/harness.ts';
import { insertMember } from './helpers/members.ts';

if (skip) console.log(`# ${skip}`);

if (skip) test('dashboard stylist variants in Chromium', { skip }, () => {});
else describeBrowser();

function describeBrowser() {
  describe('dashboard stylist variants in Chromium', () => {
    let server: LiveServer;
    let browser: Browser;
    let salon: SalonFixture;
    let owner: { email: string; password: string };
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

    test("a staff member's own duration and price: set by keyboard in the service form, used by the search", async () => {
      const page = await phone();
      const csp = cspViolations(page);
      const [anna, bence] = salon.staff;
      await signInThroughUi(page, server.base, owner.email, owner.password, `${salon.business.slug}/services`);
      const haircut = salon.service;
      const edit = page.getByRole('button', { name: `Edit ${haircut.name}` });
      await edit.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: `Edit ${haircut.name}` });
      const annaGroup = dialog.getByRole('group', { name: anna!.name, exact: true });
      const duration = annaGroup.getByRole('spinbutton', { name: `${anna!.name}: duration (minutes)` });
      await duration.focus();
      await page.keyboard.type('45');
      await page.keyboard.press('Tab');
      await page.keyboard.type('8000');
      assert.equal(await annaGroup.getByRole('spinbutton', { name: `${anna!.name}: price (HUF)` }).inputValue(), '8000');
      assert.equal(await dialog.getByRole('spinbutton', { name: `${bence!.name}: duration (minutes)` }).inputValue(), '');
      assert.deepEqual(await wcagViolations(page), [], 'the service form with stylist variants');
      // the form fits the phone's width: nothing in the dialog reaches past the screen's right edge
      // (the services table behind it scrolls sideways at 390 px, as it did before variants)
      const past = await dialog.evaluate((d) =>
        [...d.querySelectorAll('*')]
          .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5)
          .map((el) => `${el.tagName.toLowerCase()}: ${(el.textContent ?? '').slice(0, 30)}`),
      );
      assert.deepEqual(past, [], 'the variant fields fit 390 px');
      await dialog.getByRole('button', { name: 'Save service' }).press('Enter');
      await dialog.waitFor({ state: 'hidden' });
      const saved = (await adminOk(server.app, 'GET', `/services/${haircut.id}`)).service;
      assert.deepEqual(saved.staffVariants, [{ staffId: anna!.id, durationMinutes: 45, price: { amount: 8000, currency: 'HUF' } }]);
      assert.notEqual(saved.pricingVersion, haircut.pricingVersion);
      await page
        .getByRole('row', { name: new RegExp(haircut.name) })
        .getByText('Varies by staff')
        .waitFor();

      // the search gives Anna her 45 minutes and Bence the service's 30
      const date = budapestDate(4);
      const search = await api(server.app, salon.key.secret, 'POST', '/availability/search', {
        salonSlug: salon.business.slug,
        locationSlug: salon.location.slug,
        serviceId: haircut.id,
        dateRange: { from: date, to: date },
      });
      assert.equal(search.status, 200, search.raw);
      const at10 = new Map(search.body.data.slots.filter((s: any) => s.startTime === '10:00').map((s: any) => [s.staffId, s.endTime]));
      assert.equal(at10.get(anna!.id), '10:45');
      assert.equal(at10.get(bence!.id), '10:30');

      // a price HUF cannot hold is said beside Anna's variant; the form reopens with her values
      await edit.focus();
      await page.keyboard.press('Enter');
      assert.equal(await duration.inputValue(), '45');
      await annaGroup.getByRole('spinbutton', { name: `${anna!.name}: price (HUF)` }).fill('10.5');
      await dialog.getByRole('button', { name: 'Save service' }).press('Enter');
      await annaGroup.locator('.field-error').waitFor();
      assert.match((await annaGroup.locator('.field-error').textContent()) ?? '', /decimals/);
      assert.deepEqual(await wcagViolations(page), [], 'the refused variant');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      assert.deepEqual(csp, [], 'no CSP violation');
    });
  });
}
