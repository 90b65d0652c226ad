/**
 * The waitlist in a real browser (Debian's Chromium through playwright-core, against the real
 * server on a port): a guest on a 390 px phone with JavaScript off finds `Join the waitlist` on a
 * week without a free time, sends the form once with a mistake (told beside the field, in words),
 * then joins; axe-core finds no serious violation on the form. The front desk then sees the entry
 * on the dashboard's `Waitlist` page. Skipped, and said so, without /usr/bin/chromium.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import {
  BROWSER_ARGS,
  CHROMIUM,
  CONTEXT_OPTIONS,
  type LiveServer,
  SKIP_BROWSER as skip,
  seriousViolations,
  signInThroughUi,
  startLiveServer,
} from './helpers/browser.ts';
import { createSalon, createStaff, type SalonFixture } from './helpers/fixtures.ts';
import { insertMember } from './helpers/members.ts';

if (skip) console.log(`# ${skip}`);

if (skip) test('waitlist in Chromium', { skip }, () => {});
else describeBrowser();

function describeBrowser() {
  describe('waitlist in Chromium', () => {
    let server: LiveServer;
    let browser: Browser;
    let salon: SalonFixture;
    const contexts: BrowserContext[] = [];
    const phone = async (javaScriptEnabled: boolean) => {
      const c = await browser.newContext({ ...CONTEXT_OPTIONS, viewport: { width: 390, height: 844 }, javaScriptEnabled });
      c.setDefaultTimeout(15_000);
      contexts.push(c);
      return c.newPage();
    };

    before(async () => {
      server = await startLiveServer();
      salon = await createSalon(server.app);
      // Cili works no day: every week of hers is without a time.
      await createStaff(server.app, salon.business.slug, salon.location.slug, {
        name: 'Cili',
        serviceIds: [salon.service.id],
        workingHours: [],
      });
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: BROWSER_ARGS });
    });

    after(async () => {
      for (const c of contexts) await c.close().catch(() => {});
      await browser?.close().catch(() => {});
      await server?.close();
    });

    test('a guest with JavaScript off joins from a week without a time; the front desk sees the entry', async () => {
      const page = await phone(false);
      await page.goto(`${server.base}/book/${salon.business.slug}/${salon.location.slug}`);
      await page
        .locator('main')
        .getByRole('link', { name: /^Haircut/ })
        .first()
        .click();
      await page.locator('main').getByRole('link', { name: 'Cili' }).click();
      await page.getByText('No free time this week.').waitFor();
      await page.getByRole('link', { name: 'Join the waitlist' }).click();
      await page.getByRole('heading', { name: 'Join the waitlist', level: 1 }).waitFor();
      // axe runs as a script: in a page of its own with JavaScript on.
      const audit = await phone(true);
      await audit.goto(page.url());
      await audit.getByRole('heading', { name: 'Join the waitlist', level: 1 }).waitFor();
      assert.deepEqual(await seriousViolations(audit), [], 'the join form');
      assert.equal(
        await page.getByRole('combobox', { name: 'Staff' }).inputValue(),
        await page.locator('option', { hasText: 'Cili' }).getAttribute('value'),
      );

      // A mistake first: the email. The page says so beside the field and keeps what was typed.
      await page.getByRole('textbox', { name: 'Name' }).fill('Várólistás Vera');
      await page.getByRole('textbox', { name: 'Phone' }).fill('+36 30 222 3333');
      await page.getByRole('textbox', { name: 'Email' }).fill('vera-at-example.com');
      await page.getByLabel('Earliest time').fill('10:00');
      await page.getByLabel('Latest time').fill('12:00');
      await page.getByRole('button', { name: 'Join the waitlist' }).click();
      const email = page.getByRole('textbox', { name: 'Email' });
      await page.getByText('This does not look like an email address.').waitFor();
      assert.equal(await email.getAttribute('aria-invalid'), 'true');
      assert.match((await email.getAttribute('aria-describedby')) ?? '', /w-email-error/);
      assert.equal(await page.getByRole('textbox', { name: 'Name' }).inputValue(), 'Várólistás Vera');

      await email.fill('vera@example.com');
      await page.getByRole('button', { name: 'Join the waitlist' }).click();
      await page.getByRole('heading', { name: 'You are on the waitlist', level: 1 }).waitFor();
      const rows = await server.db.query<{ status: string; earliest_time: string; latest_time: string }>(
        'SELECT status, earliest_time, latest_time FROM waitlist_entries WHERE business_id = $1',
        [salon.business.id],
      );
      assert.deepEqual(rows.rows, [{ status: 'waiting', earliest_time: '10:00', latest_time: '12:00' }]);

      // The front desk's dashboard lists it under Waitlist.
      const desk = await insertMember(server.db, salon.business.id, 'frontDesk');
      const dash = await phone(true);
      await signInThroughUi(dash, server.base, desk.email, desk.password, `${salon.business.slug}/calendar`);
      const nav = dash.getByRole('navigation', { name: 'Main' });
      await nav.getByRole('button', { name: 'Menu' }).click(); // at 390 px the links are behind Menu
      await nav.getByRole('link', { name: 'Waitlist', exact: true }).click();
      await dash.getByRole('heading', { name: 'Waitlist', level: 1 }).waitFor();
      const row = dash.getByRole('row', { name: /Várólistás Vera/ });
      await row.waitFor();
      const text = (await row.textContent()) ?? '';
      for (const part of ['+36302223333', 'vera@example.com', 'Haircut', 'Cili', '10:00 – 12:00', 'waiting']) {
        assert.ok(text.includes(part), `${part} in ${text}`);
      }
      assert.deepEqual(await seriousViolations(dash), [], 'the Waitlist page');
    });
  });
}
