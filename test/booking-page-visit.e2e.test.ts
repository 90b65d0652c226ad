/**
 * A visit on the booking page and its manage page in a real browser (salon-scheduling.md
 * "Visits"): Chromium with JavaScript on and off at 390 × 844, `Add another service`, the visit's
 * time, details and done steps, then the manage page moving (script on) or cancelling (script off)
 * the whole visit. axe-core's WCAG 2 A and AA rules on every step, and no step wider than the
 * screen. Skipped, and said so, without /usr/bin/chromium.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import type { Browser as PwBrowser, BrowserContext, Page } from 'playwright-core';
import {
  activate,
  check,
  choice,
  fill,
  type GuestServer,
  launchChromium,
  newGuest,
  startGuestServer,
  TIME_NAME,
  wcagViolations,
} from './helpers/booking-page.ts';
import { SKIP_BROWSER as skip } from './helpers/browser.ts';
import { dbTargets } from './helpers/databases.ts';
import { adminOk } from './helpers/harness.ts';
import { createVisitSalon, type VisitSalon } from './helpers/visit-salon.ts';

const WIDTH = 390;

if (skip) console.log(`# ${skip}`);
if (skip) test('booking page visits in Chromium', { skip }, () => {});
else for (const target of dbTargets()) describeTarget(target);

function describeTarget(target: ReturnType<typeof dbTargets>[number]) {
  describe(`booking page visits in Chromium [${target.name}]`, () => {
    let server: GuestServer;
    let chromium: PwBrowser;
    let contexts: BrowserContext[] = [];

    before(async () => {
      server = await startGuestServer(target);
      chromium = await launchChromium();
    });
    after(async () => {
      await chromium?.close();
      await server?.close();
    });
    afterEach(async () => {
      for (const c of contexts) await c.close().catch(() => {});
      contexts = [];
    });

    /** The step as the guest sees it: no WCAG 2 A/AA violation, nothing wider than the phone. */
    async function checkStep(page: Page, step: string): Promise<void> {
      assert.deepEqual(await wcagViolations(page), [], `axe on ${step}`);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.equal(width, WIDTH, `${step} fits ${WIDTH} px`);
    }

    async function parts(salon: VisitSalon) {
      const { rows } = await server.db.query<{ service_id: string; status: string; visit_id: string; start_at: Date; end_at: Date }>(
        'SELECT service_id, status, visit_id, start_at, end_at FROM bookings WHERE business_id = $1 ORDER BY start_at',
        [salon.business.id],
      );
      return rows;
    }

    /** Cut with Anna, Colour added, the first time, the details, Book: the done page shown. */
    async function bookVisit(page: Page, salon: VisitSalon): Promise<void> {
      await page.goto(`${server.base}/book/${salon.business.slug}`);
      await checkStep(page, 'services');
      await activate(page, choice(page, /^Cut/), 'mouse');
      await activate(page, choice(page, 'Anna'), 'mouse');
      await page.getByRole('link', { name: 'Add another service', exact: true }).waitFor();
      await checkStep(page, 'time step of one service');
      await activate(page, page.getByRole('link', { name: 'Add another service', exact: true }), 'mouse');
      await checkStep(page, 'another service');
      await activate(page, choice(page, /^Colour/), 'mouse');
      await page.getByRole('link', { name: 'Remove Colour', exact: true }).waitFor();
      const main = (await page.locator('main').textContent()) ?? '';
      assert.ok(main.includes('Total: 90 min'), main.slice(0, 400));
      await checkStep(page, 'time step of the visit');
      await activate(page, choice(page, TIME_NAME).first(), 'keyboard');

      await page.getByRole('textbox', { name: 'Name', exact: true }).waitFor();
      const details = (await page.locator('main').textContent()) ?? '';
      assert.match(details, /Cut · Anna · \d\d:\d\d–\d\d:\d\d/);
      assert.match(details, /Colour · Anna · \d\d:\d\d–\d\d:\d\d/);
      await checkStep(page, 'details');
      await fill(page, page.getByRole('textbox', { name: 'Name', exact: true }), 'Kiss Éva', 'keyboard');
      await fill(page, page.getByRole('textbox', { name: 'Phone', exact: true }), '+36 30 123 4567', 'keyboard');
      await fill(page, page.getByRole('textbox', { name: 'Email', exact: true }), 'eva@example.com', 'keyboard');
      await check(page, page.getByRole('checkbox', { name: 'I accept the terms', exact: true }), 'keyboard');
      await activate(page, page.getByRole('button', { name: 'Book', exact: true }), 'keyboard');
      await page.getByRole('heading', { name: /Booking confirmed/ }).waitFor();
      await checkStep(page, 'done');
      const done = (await page.locator('main').textContent()) ?? '';
      assert.match(done, /Cut · Anna/);
      assert.match(done, /Colour · Anna/);
    }

    for (const js of [true, false]) {
      test(`a guest books a visit and ${js ? 'moves' : 'cancels'} it, JavaScript ${js ? 'on' : 'off'}`, async () => {
        const salon = await createVisitSalon(server.app);
        // The first free time may be today: the manage page's changes are open up to the start.
        await adminOk(server.app, 'PATCH', `/businesses/${salon.business.slug}/guest-settings`, {
          guestCancel: { allowed: true, noticeMinutes: 0 },
          guestReschedule: { allowed: true, noticeMinutes: 0 },
        });
        const { context, page } = await newGuest(chromium, { width: WIDTH });
        contexts.push(context);
        // axe and the width check need JavaScript in the page: "off" blocks the page's own script, as
        // booking-page.e2e.test.ts does, so every step runs as it would without it.
        if (!js) await context.route(/\.m?js(\?|$)/, (r) => r.abort());
        await bookVisit(page, salon);
        const booked = await parts(salon);
        assert.deepEqual(
          booked.map((p) => p.status),
          ['confirmed', 'confirmed'],
        );
        assert.equal(booked[0]!.visit_id, booked[1]!.visit_id);
        assert.equal(booked[0]!.end_at.getTime(), booked[1]!.start_at.getTime(), 'back to back');

        await activate(page, page.getByRole('link', { name: 'Manage booking', exact: true }), 'mouse');
        await page.getByRole('button', { name: 'Cancel booking', exact: true }).waitFor();
        const manage = (await page.locator('main').textContent()) ?? '';
        assert.match(manage, /Cut · Anna/);
        assert.match(manage, /Colour · Anna/);
        await checkStep(page, 'manage');

        if (js) {
          await activate(page, page.getByRole('link', { name: 'Reschedule', exact: true }), 'mouse');
          const times = choice(page, TIME_NAME);
          await times.first().waitFor();
          await checkStep(page, 'reschedule');
          // The last time offered: never the visit's own (its parts still hold their times).
          await activate(page, times.last(), 'mouse');
          await page.getByRole('button', { name: 'Confirm new time', exact: true }).waitFor();
          await checkStep(page, 'new time');
          await activate(page, page.getByRole('button', { name: 'Confirm new time', exact: true }), 'mouse');
          await page.getByText('Your booking has moved to the new time.').waitFor();
          const moved = await parts(salon);
          assert.deepEqual(
            moved.map((p) => p.status),
            ['confirmed', 'confirmed'],
          );
          assert.notEqual(moved[0]!.start_at.getTime(), booked[0]!.start_at.getTime(), 'moved');
          assert.equal(moved[0]!.end_at.getTime(), moved[1]!.start_at.getTime(), 'still back to back');
          assert.equal(
            moved[1]!.start_at.getTime() - moved[0]!.start_at.getTime(),
            booked[1]!.start_at.getTime() - booked[0]!.start_at.getTime(),
          );
        } else {
          await activate(page, page.getByRole('button', { name: 'Cancel booking', exact: true }), 'keyboard');
          await page
            .getByRole('heading', { name: /cancel/i })
            .first()
            .waitFor();
          await checkStep(page, 'cancel confirm');
          await activate(page, page.getByRole('button', { name: 'Cancel booking', exact: true }), 'keyboard');
          await page.getByText('Your booking is cancelled.').waitFor();
          await checkStep(page, 'cancelled');
          assert.deepEqual(
            (await parts(salon)).map((p) => p.status),
            ['cancelled', 'cancelled'],
          );
        }
      });
    }
  });
}
