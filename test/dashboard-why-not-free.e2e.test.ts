/**
 * The calendar's `Why not free?` (salon-scheduling.md, "Explain") in a real browser: Debian's
 * Chromium through playwright-core against the real server, at 390 px and by keyboard. For a time
 * held by a guest, a booked time (with a link to the booking in the way) and a time outside the
 * working hours, the answer is given in words; axe-core (WCAG 2 A and AA) finds nothing.
 * Skipped, and said so, without /usr/bin/chromium.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import {
  BROWSER_ARGS,
  CHROMIUM,
  CONTEXT_OPTIONS,
  cspViolations,
  type LiveServer,
  SKIP_BROWSER as skip,
  signInThroughUi,
  budapestDate,
} from './helpers/browser.ts';
import { startLiveServer } from './helpers/browser.ts';
import { wcagViolations } from './helpers/booking-page.ts';
import { api, createSalon, type SalonFixture } from './helpers/fixtures.ts';
import { adminOk } from './helpers/harness.ts';
import { insertMember } from './helpers/members.ts';

if (skip) console.log(`# ${skip}`);

if (skip) test('dashboard Why not free? in Chromium', { skip }, () => {});
else describeBrowser();

function describeBrowser() {
  describe('dashboard Why not free? in Chromium', () => {
    let server: LiveServer;
    let browser: Browser;
    let salon: SalonFixture;
    let owner: { email: string; password: string };
    let bookingId: string;
    const date = budapestDate(3);
    const contexts: BrowserContext[] = [];

    before(async () => {
      server = await startLiveServer();
      salon = await createSalon(server.app);
      owner = await insertMember(server.db, salon.business.id, 'owner');
      bookingId = (
        await adminOk(server.app, 'POST', `/businesses/${salon.business.slug}/bookings`, {
          locationSlug: salon.location.slug,
          serviceId: salon.service.id,
          staffId: salon.staff[0]!.id,
          date,
          startTime: '10:00',
          guest: { name: 'Booked Betti', phone: '+36 30 111 2222' },
        })
      ).booking.bookingId;
      const held = await api(server.app, salon.key.secret, 'POST', '/holds', {
        salonSlug: salon.business.slug,
        locationSlug: salon.location.slug,
        serviceId: salon.service.id,
        staffId: salon.staff[0]!.id,
        slot: { date, startTime: '14:00' },
      });
      assert.equal(held.status, 201, held.raw);
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: BROWSER_ARGS });
    });

    after(async () => {
      for (const c of contexts) await c.close().catch(() => {});
      await browser?.close().catch(() => {});
      await server?.close();
    });

    async function ask(page: Page, time: string, staff: string): Promise<string> {
      const dialog = page.getByRole('dialog', { name: 'Why not free?' });
      await dialog.getByRole('combobox', { name: 'Staff' }).selectOption({ label: staff });
      await dialog.getByLabel('Date').fill(date);
      await dialog.getByLabel('Time').fill(time);
      await dialog.getByRole('button', { name: 'Explain' }).press('Enter');
      const answer = dialog.getByRole('region', { name: 'Answer' });
      await answer.getByText(`${date} ${time} (Europe/Budapest)`).waitFor();
      return (await answer.textContent()) ?? '';
    }

    test('held, booked and out of hours, each in words, at 390 px by keyboard', async () => {
      const context = await browser.newContext({ ...CONTEXT_OPTIONS, viewport: { width: 390, height: 844 } });
      context.setDefaultTimeout(15_000);
      contexts.push(context);
      const page = await context.newPage();
      const csp = cspViolations(page);
      await signInThroughUi(page, server.base, owner.email, owner.password, `${salon.business.slug}/calendar?date=${date}`);
      const open = page.getByRole('button', { name: 'Why not free?' });
      await open.focus();
      await page.keyboard.press('Enter');
      await page.getByRole('dialog', { name: 'Why not free?' }).waitFor();

      const held = await ask(page, '14:00', 'Anna');
      assert.match(held, /not free/);
      assert.match(held, /Anna: A guest is holding this time while they book\./);

      const late = await ask(page, '20:00', 'Bence');
      assert.match(late, /Bence: Outside the working hours, or the service would not end before they do\./);

      const booked = await ask(page, '10:00', 'Everyone who does the service');
      assert.match(booked, /Anna: Another booking is in the way\./);
      assert.match(booked, /Bence: free\./);
      const link = page.getByRole('dialog', { name: 'Why not free?' }).getByRole('link', { name: 'Open the booking' });
      assert.match((await link.getAttribute('href')) ?? '', new RegExp(`/bookings/${bookingId}$`));

      assert.deepEqual(await wcagViolations(page), [], 'the dialog with an answer');
      assert.deepEqual(await overflowing(page), [], 'no sideways scrolling at 390 px');
      assert.deepEqual(csp, [], 'no CSP violation');

      await link.click();
      await page.waitForURL(new RegExp(`/bookings/${bookingId}$`));
    });
  });
}

/** The innermost elements reaching past the right edge of the screen (none: no sideways scrolling). */
function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= width) return [];
    return [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > width + 0.5)
      .filter((el) => ![...el.children].some((c) => c.getBoundingClientRect().right > width + 0.5))
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}: ${(el.textContent ?? '').slice(0, 40)}`);
  });
}
