/**
 * The dashboard in a real browser: Debian's Chromium driven by playwright-core against the real
 * server listening on a port (built dashboard served at /dashboard/, API at /admin/v1). Elements are
 * found by role and accessible name, as a receptionist's screen reader would. Skipped, and said so,
 * when /usr/bin/chromium is absent (`apt-get install -y chromium`).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { Temporal } from 'temporal-polyfill';
import type { App } from '../src/http/context.ts';
import type { Db } from '../src/store/db.ts';
import { CONSENT, createBody } from './helpers/bookings.ts';
import {
  type Browser,
  cspViolations,
  launchBrowser,
  type LiveServer,
  SKIP_BROWSER as skip,
  seriousViolations,
  startLiveServer,
} from './helpers/browser.ts';
import { api, createBusiness, createLocation, createSalon, type BusinessFixture, type SalonFixture } from './helpers/fixtures.ts';
import { ADMIN_TOKEN, adminOk, call } from './helpers/harness.ts';
import { insertMember } from './helpers/members.ts';

/**
 * Where the pictures of the calendar, requests and booking detail go. A test run writes nothing into
 * the repository: a temporary folder, removed at the end. `npm run screenshots` (scripts/screenshots.ts)
 * runs this file with SCREENSHOTS_DIR=docs/screenshots to refresh the docs' pictures.
 */
const SCREENSHOTS = process.env.SCREENSHOTS_DIR ?? '';
if (skip) console.log(`# ${skip}`);

// Counted as a skipped test in the run's summary, with the reason, rather than passing silently.
if (skip) test('dashboard in Chromium', { skip }, () => {});
else describeBrowser();

function describeBrowser() {
  describe('dashboard in Chromium', () => {
    let server: LiveServer;
    let browser: Browser;
    let db: Db;
    let app: App;
    let base: string;
    let salon: SalonFixture;
    let member: { userId: string; email: string; password: string };
    let other: BusinessFixture;
    let page: Page;
    let cspErrors: string[] = [];
    // The location's day, whatever the zone of this machine or of the browser (set far away below).
    const zone = 'Europe/Budapest';
    const today = Temporal.Now.plainDateISO(zone);
    const tomorrow = today.add({ days: 1 }).toString();

    /** A guest's request through the public API (manual service): its bookingId. */
    const request = async (guest: string, startTime: string): Promise<string> => {
      const body = createBody(salon, {
        service: salon.manualService,
        date: tomorrow,
        startTime,
        guest: { name: guest, phone: '+36301112244' },
        consent: { ...CONSENT, acceptedAt: new Date().toISOString() },
      });
      const r = await api(app, salon.key.secret, 'POST', '/bookings', body);
      assert.equal(r.status, 201, r.raw);
      assert.equal(r.body.data.booking.status, 'requested');
      return r.body.data.booking.bookingId;
    };

    let shots = SCREENSHOTS;
    const screenshot = async (name: string, fullPage = false) => {
      mkdirSync(shots, { recursive: true });
      await page.screenshot({ path: join(shots, name), fullPage });
    };

    before(async () => {
      if (!shots) shots = mkdtempSync(join(tmpdir(), 'dashboard-screenshots-'));
      server = await startLiveServer();
      ({ app, db, base } = server);

      salon = await createSalon(app, { timezone: zone });
      member = await insertMember(db, salon.business.id, 'owner');
      // A second location (another zone, no staff) and a second business the member works for.
      await createLocation(app, salon.business.slug, { name: 'Uptown', timezone: 'America/New_York' });
      other = await createBusiness(app);
      await createLocation(app, other.slug, { name: 'Harbour' });
      await db.query('INSERT INTO memberships (business_id, user_id, role) VALUES ($1, $2, $3)', [other.id, member.userId, 'frontDesk']);
      const [anna] = salon.staff;
      await adminOk(app, 'POST', `/businesses/${salon.business.slug}/bookings`, {
        locationSlug: salon.location.slug,
        serviceId: salon.service.id,
        staffId: anna!.id,
        date: tomorrow,
        startTime: '10:00',
        guest: { name: 'Greta Guest', phone: '+36301112233' },
      });
      await adminOk(app, 'POST', `/staff/${salon.staff[1]!.id}/time-off`, {
        from: { date: tomorrow, time: '12:00' },
        to: { date: tomorrow, time: '13:30' },
      });

      browser = await launchBrowser();
      page = browser.page;
      cspErrors = cspViolations(page);
    });

    after(async () => {
      await browser?.close();
      await server?.close();
      if (!SCREENSHOTS) rmSync(shots, { recursive: true, force: true });
    });

    test('sign-in page: a wrong password shows the API message; no serious accessibility violation', async () => {
      await page.goto(`${base}/dashboard/`);
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      assert.deepEqual(await seriousViolations(page), []);

      const expected = await call(app, {
        method: 'POST',
        url: '/admin/v1/session',
        payload: { email: member.email, password: 'not the password' },
      });
      await page.getByRole('textbox', { name: 'Email' }).fill(member.email);
      await page.getByLabel('Password', { exact: true }).fill('not the password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      const alert = page.getByRole('alert');
      await alert.waitFor();
      assert.equal((await alert.textContent())?.trim(), expected.body.error.message);
    });

    test('sign in -> calendar with staff columns -> Next day shows the booking -> Previous day, Today -> sign out', async () => {
      await page.getByLabel('Password', { exact: true }).fill(member.password);
      await page.getByRole('button', { name: 'Sign in' }).click();

      const nav = page.getByRole('navigation', { name: 'Main' });
      await nav.waitFor();
      for (const name of [
        'Calendar',
        'Requests',
        'Bookings',
        'Clients',
        'Waitlist',
        'Services',
        'Staff',
        'Locations',
        'API keys',
        'Webhooks',
        'Members',
      ]) {
        assert.equal(await nav.getByRole('link', { name, exact: true }).count(), 1, `navigation link ${name}`);
      }
      await page.getByRole('banner').getByText(`Salon ${salon.business.slug}`, { exact: true }).first().waitFor();
      await page.getByRole('heading', { name: 'Calendar', level: 1 }).waitFor();
      await page.getByRole('columnheader', { name: 'Anna' }).waitFor();
      await page.getByRole('columnheader', { name: 'Bence' }).waitFor();
      // The location's today, not the browser's (which may already or still be another date).
      assert.equal(await page.getByLabel('Date', { exact: true }).inputValue(), today.toString());

      await page.getByRole('button', { name: 'Next day' }).click();
      const block = page.getByRole('link', { name: /Greta Guest, Haircut, confirmed/ });
      await block.waitFor();
      // 10:00 in Budapest, though the browser lives in Los Angeles.
      assert.match((await block.getAttribute('aria-label')) ?? '', /^10:00–10:30 /);
      assert.match(new URL(page.url()).search, new RegExp(`date=${tomorrow}`));
      await page.getByText('Time off').first().waitFor();

      // New booking: a walk-in for Bence, checked through the API.
      await page.getByRole('button', { name: 'New booking' }).click();
      const dialog = page.getByRole('dialog', { name: 'New booking' });
      await dialog.waitFor();
      const fillBooking = async (guest: string) => {
        await dialog.getByRole('combobox', { name: 'Service' }).selectOption({ label: 'Haircut (30 min)' });
        await dialog.getByRole('combobox', { name: 'Staff' }).selectOption({ label: 'Bence' });
        await dialog.getByLabel('Date', { exact: true }).fill(tomorrow);
        await dialog.getByLabel('Time', { exact: true }).fill('11:00');
        await dialog.getByRole('textbox', { name: 'Guest name' }).fill(guest);
        await dialog.getByRole('textbox', { name: 'Phone' }).fill('+36301234567');
        await dialog.getByRole('button', { name: 'Create booking' }).click();
      };
      await fillBooking('Walk-in Wanda');
      await page.getByRole('link', { name: /^11:00–11:30 Walk-in Wanda, Haircut, confirmed/ }).waitFor();
      // the calendar is read again before the dialog closes (so the new booking can be scrolled to): wait for both
      await dialog.waitFor({ state: 'hidden' });
      const listed = async () =>
        (await adminOk(app, 'GET', `/businesses/${salon.business.slug}/bookings`)).bookings.filter(
          (b: any) => b.guest.name === 'Walk-in Wanda' || b.guest.name === 'Clash Claire',
        );
      const [wanda] = await listed();
      assert.equal(wanda.status, 'confirmed');
      assert.equal(wanda.staffId, salon.staff[1]!.id);
      assert.deepEqual([wanda.confirmedSlot.date, wanda.confirmedSlot.startTime], [tomorrow, '11:00']);

      // The same time again clashes: the API's message in the form, nothing created.
      const clash = await call(app, {
        method: 'POST',
        url: `/admin/v1/businesses/${salon.business.slug}/bookings`,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        payload: {
          locationSlug: salon.location.slug,
          serviceId: salon.service.id,
          staffId: salon.staff[1]!.id,
          date: tomorrow,
          startTime: '11:00',
          guest: { name: 'Clash Claire', phone: '+36301234567' },
        },
      });
      assert.equal(clash.status, 409);
      await page.getByRole('button', { name: 'New booking' }).click();
      await fillBooking('Clash Claire');
      const refusal = dialog.getByRole('alert');
      await refusal.waitFor();
      assert.equal((await refusal.textContent())?.trim(), clash.body.error.message);
      assert.equal((await listed()).length, 1);
      assert.deepEqual(await seriousViolations(page), [], 'the open New booking dialog');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden' });

      // Booking detail from its block: reschedule, then cancel with a reason, each checked through the API.
      await page.getByRole('link', { name: /Walk-in Wanda, Haircut, confirmed/ }).click();
      await page.getByRole('heading', { name: /^Booking BK-/, level: 1 }).waitFor();
      await page.getByText('+36 30 123 4567', { exact: true }).waitFor(); // grouped as dialled (lib/format.ts)
      // written from the dashboard by the signed-in member: the detail names them
      const [author] = (await db.query<{ name: string }>('SELECT name FROM users WHERE id = $1', [member.userId])).rows;
      await page.getByText(`Front desk (${author!.name})`, { exact: true }).waitFor();
      // the price it was booked at, as the browser's locale (en-GB) writes the view's price
      assert.deepEqual(wanda.price, { amount: 5000, currency: 'HUF' });
      const priceText = await page.locator('dt:text-is("Price") + dd').textContent();
      assert.equal(priceText?.replace(/\s+/g, ' ').trim(), 'HUF 5,000'); // Intl separates with a no-break space
      assert.deepEqual(await seriousViolations(page), [], 'booking detail');
      await screenshot('booking-detail.png', true);
      await page.getByRole('button', { name: 'Reschedule' }).click();
      const move = page.getByRole('dialog', { name: 'Move the booking' });
      await move.getByLabel('Time', { exact: true }).fill('14:00');
      await move.getByRole('button', { name: 'Move booking' }).click();
      await move.waitFor({ state: 'hidden' });
      await page.getByText(`${tomorrow} 14:00–14:30`, { exact: false }).waitFor();
      const moved = (await adminOk(app, 'GET', `/bookings/${wanda.bookingId}`)).booking;
      assert.deepEqual([moved.status, moved.confirmedSlot.startTime], ['confirmed', '14:00']);

      await page.getByRole('button', { name: 'Cancel booking' }).click();
      const cancel = page.getByRole('dialog', { name: 'Cancel the booking' });
      await cancel.getByRole('textbox', { name: 'Reason (optional)' }).fill('Guest phoned to cancel');
      await cancel.getByRole('button', { name: 'Confirm cancellation' }).click();
      await cancel.waitFor({ state: 'hidden' });
      await page.getByRole('definition').filter({ hasText: 'cancelled' }).waitFor();
      assert.equal(await page.getByRole('button', { name: 'Cancel booking' }).count(), 0);
      const cancelled = (await adminOk(app, 'GET', `/bookings/${wanda.bookingId}`)).booking;
      assert.deepEqual([cancelled.status, cancelled.reason], ['cancelled', 'Guest phoned to cancel']);
      // A cancelled booking's view has no time any more (confirmedSlot is null): back to today.
      await page.getByRole('link', { name: 'Back to the calendar' }).click();
      await page.getByRole('button', { name: 'Next day' }).click();
      await page.getByRole('link', { name: /Greta Guest, Haircut, confirmed/ }).waitFor();
      // the day may first show what it had cached before the cancellation, then what it reads again
      await page.getByRole('link', { name: /Walk-in Wanda/ }).waitFor({ state: 'detached' });
      assert.deepEqual(await seriousViolations(page), []);
      await screenshot('calendar.png');

      await page.getByRole('button', { name: 'Previous day' }).click();
      await page.waitForURL((u) => u.search.includes(`date=${today}`));
      await block.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Next day' }).click();
      await page.getByRole('button', { name: 'Next day' }).click();
      await page.waitForURL((u) => u.search.includes(`date=${today.add({ days: 2 })}`));
      await page.getByRole('button', { name: 'Today' }).click();
      await page.waitForURL((u) => u.search.includes(`date=${today}`));
      await page.getByRole('columnheader', { name: 'Anna' }).waitFor();

      // Requests: a request made through the public API appears within 10 s without a reload.
      await nav.getByRole('link', { name: 'Requests' }).click();
      await page.getByRole('heading', { name: 'Requests', level: 1 }).waitFor();
      await page.getByText('No request is waiting.').waitFor();
      assert.deepEqual(await seriousViolations(page), [], 'requests');
      const rita = await request('Rita Request', '15:00');
      const ritaCard = page.getByRole('article', { name: 'Rita Request, Colouring' });
      await ritaCard.waitFor({ timeout: 10_000 });
      // the navigation counts the requests waiting, beside the link (whose name stays `Requests`)
      await nav.getByText('1 waiting', { exact: true }).waitFor();
      assert.equal((await nav.getByRole('link', { name: 'Requests', exact: true }).getAttribute('aria-describedby')) !== null, true);
      await screenshot('requests.png');
      await ritaCard.getByRole('button', { name: 'Accept' }).click();
      await ritaCard.waitFor({ state: 'detached' });
      // a short confirmation, in the page's one live region
      await page.getByRole('status').filter({ hasText: 'Accepted.' }).waitFor();
      await nav.getByText(/ waiting$/).waitFor({ state: 'detached' });
      assert.equal((await adminOk(app, 'GET', `/bookings/${rita}`)).booking.status, 'confirmed');

      const dora = await request('Dora Decline', '13:00');
      const doraCard = page.getByRole('article', { name: 'Dora Decline, Colouring' });
      await doraCard.waitFor({ timeout: 10_000 });
      await doraCard.getByRole('button', { name: 'Decline' }).click();
      const decline = page.getByRole('dialog', { name: 'Decline the request' });
      await decline.getByRole('textbox', { name: 'Reason (optional)' }).fill('Fully booked that afternoon');
      await decline.getByRole('button', { name: 'Confirm decline' }).click();
      await doraCard.waitFor({ state: 'detached' });
      await page.getByRole('status').filter({ hasText: 'Declined.' }).waitFor();
      const declined = (await adminOk(app, 'GET', `/bookings/${dora}`)).booking;
      assert.deepEqual([declined.status, declined.reason], ['declined', 'Fully booked that afternoon']);

      // Bookings: the list with the API's filters.
      await nav.getByRole('link', { name: 'Bookings' }).click();
      await page.getByRole('heading', { name: 'Bookings', level: 1 }).waitFor();
      await page.getByRole('cell', { name: 'Greta Guest' }).waitFor();
      assert.deepEqual(await seriousViolations(page), [], 'bookings');
      await page.getByRole('combobox', { name: 'Status' }).selectOption({ label: 'cancelled' });
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.getByRole('cell', { name: 'Walk-in Wanda' }).waitFor();
      await page.getByRole('cell', { name: 'Greta Guest' }).waitFor({ state: 'detached' });
      assert.equal(await page.getByRole('row').count(), 2, 'the header and the one cancelled booking');
      await page.getByRole('combobox', { name: 'Status' }).selectOption({ label: 'confirmed' });
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.getByRole('cell', { name: 'Rita Request' }).waitFor();
      await page.getByRole('cell', { name: 'Greta Guest' }).waitFor();
      assert.equal(await page.getByRole('cell', { name: 'Walk-in Wanda' }).count(), 0);

      // API keys, Webhooks, Members and deposits: test/dashboard-admin.e2e.test.ts.
      // Services, Staff and Locations have their own flows: test/dashboard-catalog.e2e.test.ts.

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      // Signed out on the server too: the session is gone, a reload stays on the sign-in page.
      const session = await page.evaluate(() => fetch('/admin/v1/session').then((r) => r.status));
      assert.equal(session, 401);
      assert.deepEqual(cspErrors, [], 'no Content-Security-Policy violation');
    });

    test('location and business switchers; a day with a clock change draws its 23 and 25 hours', async () => {
      await page.getByRole('textbox', { name: 'Email' }).fill(member.email);
      await page.getByLabel('Password', { exact: true }).fill(member.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('columnheader', { name: 'Anna' }).waitFor();

      await page.getByRole('combobox', { name: 'Location', exact: true }).selectOption({ label: 'Uptown' });
      await page.getByText('No staff member works at this location.').waitFor();
      await page.getByText('America/New_York', { exact: false }).first().waitFor();
      await page.getByRole('combobox', { name: 'Location', exact: true }).selectOption({ label: 'Downtown' });
      await page.getByRole('columnheader', { name: 'Anna' }).waitFor();

      const business = page.getByRole('combobox', { name: 'Business', exact: true });
      await business.selectOption({ label: `Salon ${other.slug}` });
      await page.getByText('Front desk', { exact: true }).waitFor();
      await page.getByText('No staff member works at this location.').waitFor();
      await business.selectOption({ label: `Salon ${salon.business.slug}` });
      await page.getByRole('columnheader', { name: 'Anna' }).waitFor();

      const slug = salon.business.slug;
      const loc = salon.location.slug;
      // Europe/Budapest: 2026-03-29 has no 02:00, 2026-10-25 has two.
      await page.goto(`${base}/dashboard/${slug}/calendar?location=${loc}&date=2026-03-29`);
      await page.getByText('this day has 23 hours').waitFor();
      assert.equal(await page.getByText('02:00', { exact: true }).count(), 0);
      await page.getByText('03:00', { exact: true }).waitFor();

      await page.goto(`${base}/dashboard/${slug}/calendar?location=${loc}&date=2026-10-25`);
      await page.getByText('this day has 25 hours').waitFor();
      await page.getByText('02:00 (UTC+02:00)', { exact: true }).waitFor();
      await page.getByText('02:00 (UTC+01:00)', { exact: true }).waitFor();

      // The session ends behind the page's back (expiry, sign-out elsewhere): the next call's 401
      // brings the sign-in page, not a broken calendar.
      const ended = await page.evaluate(() => fetch('/admin/v1/session', { method: 'DELETE' }).then((r) => r.status));
      assert.equal(ended, 200);
      await page.getByRole('button', { name: 'Next day' }).click();
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
    });
  });
}
