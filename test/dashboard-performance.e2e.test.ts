/**
 * Pages load in under a second with 2,000 bookings in the month (issue 15): a salon of five staff
 * members with every half hour of 25 days booked (5 × 16 × 25 = 2,000, made through the operator
 * API), then the time from navigation to the page drawn with its data, for the calendar's busiest
 * day, the bookings list, the requests inbox and a booking's detail. Prints each time against the
 * 1,000 ms target (reported in docs/performance.md) and checks what each page drew; it does not
 * fail on a time: a shared CI machine's load would make that a flaky test, and speed targets are
 * the benchmarks' to hold (developers' guide). Skipped, and said so, without Chromium.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Temporal } from 'temporal-polyfill';
import { type Browser, launchBrowser, type LiveServer, SKIP_BROWSER as skip, signInThroughUi, startLiveServer } from './helpers/browser.ts';
import { createSalon, createStaff, type SalonFixture } from './helpers/fixtures.ts';
import { adminOk } from './helpers/harness.ts';
import { insertMember } from './helpers/members.ts';

const TARGET_MS = 1_000;
const DAYS = 25;
const STAFF = 5;

if (skip) test('dashboard pages under 1 s with 2,000 bookings', { skip }, () => {});
else
  describe('dashboard pages under 1 s with 2,000 bookings', () => {
    let server: LiveServer;
    let browser: Browser;
    let salon: SalonFixture;
    let firstBookingId = '';
    const first = Temporal.Now.plainDateISO('Europe/Budapest').add({ days: 1 });
    const timings: Record<string, number> = {};

    before(async () => {
      server = await startLiveServer();
      const { app, db } = server;
      salon = await createSalon(app);
      const serviceIds = [salon.service.id, salon.manualService.id];
      const staff = [...salon.staff];
      for (let i = staff.length; i < STAFF; i++) {
        staff.push(await createStaff(app, salon.business.slug, salon.location.slug, { name: `Staff ${i + 1}`, serviceIds }));
      }
      const t0 = Date.now();
      let n = 0;
      for (let d = 0; d < DAYS; d++) {
        const date = first.add({ days: d }).toString();
        for (const s of staff) {
          for (let m = 9 * 60; m < 17 * 60; m += 30) {
            const startTime = `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
            const { booking } = await adminOk(app, 'POST', `/businesses/${salon.business.slug}/bookings`, {
              locationSlug: salon.location.slug,
              serviceId: salon.service.id,
              staffId: s.id,
              date,
              startTime,
              guest: { name: `Guest ${n}`, phone: '+36301112233' },
            });
            firstBookingId ||= booking.bookingId;
            n += 1;
          }
        }
      }
      assert.equal(n, 2_000);
      console.log(`# seeded ${n} bookings in ${Date.now() - t0} ms`);
      const member = await insertMember(db, salon.business.id, 'frontDesk');
      browser = await launchBrowser();
      await signInThroughUi(browser.page, server.base, member.email, member.password);
    });

    after(async () => {
      await browser?.close();
      await server?.close();
      console.log(`# page loads (ms): ${JSON.stringify(timings)}`);
    });

    /** From navigation (a full page load: HTML, script, session, data) to `ready` resolving. */
    async function timed(name: string, path: string, ready: () => Promise<unknown>): Promise<void> {
      const t0 = performance.now();
      await browser.page.goto(`${server.base}/dashboard/${salon.business.slug}/${path}`);
      await ready();
      timings[name] = Math.round(performance.now() - t0);
      const verdict = timings[name]! < TARGET_MS ? 'within' : 'OVER';
      console.log(`# ${name}: ${timings[name]} ms (${verdict} the ${TARGET_MS} ms target)`);
    }

    test('calendar of a full day (80 bookings)', async () => {
      const page = browser.page;
      const date = first.toString();
      // Once to warm the browser's cache of the hashed assets, as a receptionist's second visit.
      await page.goto(`${server.base}/dashboard/${salon.business.slug}/calendar?date=${date}`);
      await page.getByRole('link', { name: /Guest 0, Haircut/ }).waitFor();
      await timed('calendar', `calendar?location=${salon.location.slug}&date=${date}`, async () => {
        await page.getByRole('link', { name: /Guest 79, Haircut/ }).waitFor();
      });
      assert.equal(await page.getByRole('link', { name: /Guest \d+, Haircut, confirmed/ }).count(), 80);
    });

    test('bookings list, requests inbox, booking detail', async () => {
      const page = browser.page;
      await timed('bookings', 'bookings', () => page.getByRole('cell', { name: 'Guest 1999' }).waitFor());
      await timed('requests', 'requests', () => page.getByText('No request is waiting.').waitFor());
      await timed('booking detail', `bookings/${firstBookingId}`, () =>
        page.getByRole('list', { name: 'History' }).getByRole('listitem').first().waitFor(),
      );
    });
  });
