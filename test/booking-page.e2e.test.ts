/**
 * The booking page in a real browser (issue 24, "Done when"; guest-side.md "The booking page" and
 * "Holds"): Debian's Chromium through playwright-core against the real server on a port, with
 * JavaScript on and off, by mouse and by keyboard alone, on a phone-sized screen. Elements are found
 * by the spec's fixed accessible names; every booking is checked through the operator API (and its
 * consent in the database, which no read shows). Every request of every page is recorded: none may
 * leave the server's origin. Skipped, and said so, without /usr/bin/chromium.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import type { Browser as PwBrowser, BrowserContext, Page } from 'playwright-core';
import { Temporal } from 'temporal-polyfill';
import { en } from '../src/ui/i18n/en.ts';
import { hu } from '../src/ui/i18n/hu.ts';
import { CONSENT } from './helpers/bookings.ts';
import {
  activate,
  check,
  choice,
  disableCache,
  fill,
  type GuestOptions,
  type GuestServer,
  horizontalOverflow,
  type Input,
  launchChromium,
  newGuest,
  recordRequests,
  referenceOn,
  startGuestServer,
  TIME_NAME,
  wcagViolations,
} from './helpers/booking-page.ts';
import { SKIP_BROWSER as skip } from './helpers/browser.ts';
import { dbTargets } from './helpers/databases.ts';
import { api, createSalon, createService, createStaff, type SalonFixture } from './helpers/fixtures.ts';
import { adminOk } from './helpers/harness.ts';

const ZONE = 'Europe/Budapest';
/** guest-side.md: "Each step weighs at most 60 KB transferred"; KB read as 1,000 bytes, the stricter. */
const STEP_BUDGET = 60_000;

if (skip) console.log(`# ${skip}`);
if (skip) test('booking page in Chromium', { skip }, () => {});
else for (const target of dbTargets()) describeTarget(target);

function describeTarget(target: ReturnType<typeof dbTargets>[number]) {
  describe(`booking page in Chromium [${target.name}]`, () => {
    let server: GuestServer;
    let chromium: PwBrowser;
    /** every context a test opened, closed after it; and every URL its pages requested */
    let contexts: BrowserContext[] = [];
    let requested: string[][] = [];

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
      const origin = new URL(server.base).origin;
      const foreign = requested.flat().filter((u) => /^https?:/.test(u) && new URL(u).origin !== origin);
      requested = [];
      assert.deepEqual(foreign, [], 'every request stays on the server origin');
    });

    async function guest(o: GuestOptions = {}): Promise<{ page: Page; context: BrowserContext; rec: ReturnType<typeof recordRequests> }> {
      const { context, page } = await newGuest(chromium, o);
      contexts.push(context);
      const rec = recordRequests(page);
      requested.push(rec.urls);
      return { page, context, rec };
    }

    const pageUrl = (salon: SalonFixture, query = '') => `${server.base}/book/${salon.business.slug}${query}`;

    /** The operator's view of the booking a done page names. */
    async function operatorBooking(salon: SalonFixture, reference: string): Promise<any> {
      const { bookings } = await adminOk(server.app, 'GET', `/businesses/${salon.business.slug}/bookings`);
      const found = bookings.find((b: { publicReference: string }) => b.publicReference === reference);
      assert.ok(found, `${reference} in the operator's list`);
      return (await adminOk(server.app, 'GET', `/bookings/${found.bookingId}`)).booking;
    }

    async function bookingCount(salon: SalonFixture): Promise<number> {
      const { rows } = await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM bookings WHERE business_id = $1', [
        salon.business.id,
      ]);
      return rows[0]!.n;
    }

    /** The earliest free start of `staffId` in the week from today, as the public API sees it. */
    async function firstFreeSlot(salon: SalonFixture, staffId: string, serviceId = salon.service.id) {
      const today = Temporal.Now.plainDateISO(ZONE);
      const r = await api(server.app, salon.key.secret, 'POST', '/availability/search', {
        salonSlug: salon.business.slug,
        locationSlug: salon.location.slug,
        serviceId,
        staffId,
        dateRange: { from: today.toString(), to: today.add({ days: 6 }).toString() },
      });
      assert.equal(r.status, 200, r.raw);
      const slot = r.body.data.slots[0];
      assert.ok(slot, 'a free slot this week');
      return { date: slot.date as string, startTime: slot.startTime as string };
    }

    type StepName = 'service' | 'staff' | 'time' | 'details' | 'done';
    interface Walk {
      input?: Input;
      service?: string;
      /** the staff choice's name; 'Any staff' by default */
      staff?: string;
      /** called on each step once it is shown */
      onStep?: (step: StepName) => Promise<void>;
      query?: string;
      words?: { anyStaff: string; name: string; phone: string; email: string; acceptTerms: string; book: string; heldUntil: RegExp };
    }

    const EN = {
      anyStaff: 'Any staff',
      name: 'Name',
      phone: 'Phone',
      email: 'Email',
      acceptTerms: 'I accept the terms',
      book: 'Book',
      heldUntil: /until \d\d:\d\d/,
    };

    /** Service, staff and time; returns the time chosen, the details step shown. */
    async function toDetails(page: Page, salon: SalonFixture, w: Walk): Promise<string> {
      const input = w.input ?? 'mouse';
      const words = w.words ?? EN;
      await page.goto(pageUrl(salon, w.query ?? ''));
      await choice(page, new RegExp(`^${w.service ?? 'Haircut'}`))
        .first()
        .waitFor();
      await w.onStep?.('service');
      await activate(page, choice(page, new RegExp(`^${w.service ?? 'Haircut'}`)), input);

      await choice(page, words.anyStaff).waitFor();
      await w.onStep?.('staff');
      await activate(page, choice(page, w.staff ?? words.anyStaff), input);

      const time = choice(page, TIME_NAME).first();
      await time.waitFor();
      await w.onStep?.('time');
      const chosen = ((await time.textContent()) ?? '').trim();
      await activate(page, time, input);

      await page.getByRole('textbox', { name: words.name, exact: true }).waitFor();
      // "the next page says until when" the time is held
      const body = (await page.locator('body').textContent()) ?? '';
      assert.match(body, words.heldUntil, 'the details step says until when the time is held');
      // ... and it is the hold's end, in the location's time
      const { rows } = await server.db.query<{ expires_at: Date }>(
        "SELECT expires_at FROM holds WHERE business_id = $1 AND status = 'active' ORDER BY created_at DESC LIMIT 1",
        [salon.business.id],
      );
      assert.ok(rows[0], 'the chosen time is held');
      const until = Temporal.Instant.fromEpochMilliseconds(new Date(rows[0].expires_at).getTime())
        .toZonedDateTimeISO(ZONE)
        .toPlainTime()
        .toString({ smallestUnit: 'minute' });
      assert.ok(body.includes(until), `the hold's end ${until} is shown`);
      await w.onStep?.('details');
      return chosen;
    }

    async function fillDetails(page: Page, w: Walk, guestName = 'Kiss Éva'): Promise<void> {
      const input = w.input ?? 'mouse';
      const words = w.words ?? EN;
      await fill(page, page.getByRole('textbox', { name: words.name, exact: true }), guestName, input);
      await fill(page, page.getByRole('textbox', { name: words.phone, exact: true }), '+36 30 123 4567', input);
      await fill(page, page.getByRole('textbox', { name: words.email, exact: true }), 'eva@example.com', input);
      await check(page, page.getByRole('checkbox', { name: words.acceptTerms, exact: true }), input);
    }

    /** The whole way: returns the time chosen and the reference the done page shows. */
    async function book(page: Page, salon: SalonFixture, w: Walk = {}, guestName = 'Kiss Éva') {
      const chosen = await toDetails(page, salon, w);
      await fillDetails(page, w, guestName);
      await activate(page, page.getByRole('button', { name: (w.words ?? EN).book, exact: true }), w.input ?? 'mouse');
      await page.getByRole('heading', { name: /Booking (received|confirmed)|Foglalás/ }).waitFor();
      await w.onStep?.('done');
      return { chosen, reference: await referenceOn(page) };
    }

    /** What every booking made on the page shows to the operator. */
    async function checkBooked(salon: SalonFixture, reference: string, chosen: string, guestName = 'Kiss Éva') {
      const b = await operatorBooking(salon, reference);
      assert.equal(b.source, 'bookingPage');
      assert.equal(b.guestName, guestName);
      assert.equal(b.guest.email, 'eva@example.com');
      assert.equal(b.guest.phone, '+36301234567');
      assert.equal(b.requestedSlot.startTime, chosen);
      return b;
    }

    test('a guest books with JavaScript on at 390 px; every step fits 320 px without horizontal scroll', async () => {
      const salon = await createSalon(server.app, { timezone: ZONE });
      const { page } = await guest({ width: 390 });
      const seen: StepName[] = [];
      const onStep = async (step: StepName) => {
        seen.push(step);
        assert.equal(await horizontalOverflow(page), 0, `${step} at 390 px`);
        await page.setViewportSize({ width: 320, height: 700 });
        assert.equal(await horizontalOverflow(page), 0, `${step} at 320 px`);
        await page.setViewportSize({ width: 390, height: 844 });
      };
      const { chosen, reference } = await book(page, salon, { staff: 'Anna', onStep });
      assert.deepEqual(seen, ['service', 'staff', 'time', 'details', 'done']);
      const b = await checkBooked(salon, reference, chosen);
      assert.equal(b.staffName, 'Anna');
      const main = (await page.locator('main').textContent()) ?? '';
      for (const part of [reference, 'Haircut', 'Anna', chosen]) assert.ok(main.includes(part), `the done page shows ${part}`);
      await page.getByRole('heading', { name: /Booking confirmed/ }).waitFor();

      const ics = page.getByRole('link', { name: 'Add to calendar', exact: true });
      const href = await ics.getAttribute('href');
      assert.ok(href);
      const res = await page.request.get(new URL(href, page.url()).toString());
      assert.equal(res.status(), 200);
      assert.match(res.headers()['content-type'] ?? '', /text\/calendar/);
      assert.match(await res.text(), /BEGIN:VCALENDAR[\s\S]*BEGIN:VEVENT/);
      await page.getByRole('link', { name: 'Manage booking', exact: true }).waitFor();
    });

    test('the staff step offers Any staff first, then each staff member offering the service', async () => {
      const salon = await createSalon(server.app, { timezone: ZONE });
      // Cili does not offer Haircut: she is not offered
      await createStaff(server.app, salon.business.slug, salon.location.slug, { name: 'Cili', serviceIds: [salon.manualService.id] });
      const { page } = await guest();
      await page.goto(pageUrl(salon));
      await activate(page, choice(page, /^Haircut/), 'mouse');
      await choice(page, 'Any staff').waitFor();
      const names = await page
        .locator('main')
        .getByRole('link')
        .or(page.locator('main').getByRole('button'))
        .evaluateAll((els) => els.map((e) => (e.textContent ?? '').trim()));
      const staffNames = ['Any staff', 'Anna', 'Bence', 'Cili'];
      const offered = names.flatMap((n) => staffNames.filter((s) => n.startsWith(s)));
      assert.deepEqual(offered, ['Any staff', 'Anna', 'Bence']);
    });

    test('the time step: a week from today, a heading per day, a day without a time says so, the zone named once, week links within today and the horizon', async () => {
      const salon = await createSalon(server.app, { timezone: ZONE });
      await adminOk(server.app, 'PATCH', `/businesses/${salon.business.slug}/locations/${salon.location.slug}`, { horizonDays: 10 });
      const weekdays = [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start: '09:00', end: '17:00' }));
      const cili = await createStaff(server.app, salon.business.slug, salon.location.slug, {
        name: 'Cili',
        serviceIds: [salon.service.id],
        workingHours: weekdays,
      });
      const today = Temporal.Now.plainDateISO(ZONE);
      const week = Array.from({ length: 7 }, (_, i) => today.add({ days: i }));
      const search = await api(server.app, salon.key.secret, 'POST', '/availability/search', {
        salonSlug: salon.business.slug,
        locationSlug: salon.location.slug,
        serviceId: salon.service.id,
        staffId: cili.id,
        dateRange: { from: week[0]!.toString(), to: week[6]!.toString() },
      });
      const withTimes = new Set((search.body.data.slots as { date: string }[]).map((x) => x.date));
      const empty = week.filter((d) => !withTimes.has(d.toString())).length;
      assert.ok(empty >= 2, 'the weekend is closed');

      const { page } = await guest({ javaScriptEnabled: false });
      await page.goto(pageUrl(salon));
      await choice(page, /^Haircut/)
        .first()
        .click();
      await choice(page, 'Cili').click();
      await choice(page, TIME_NAME).first().waitFor();
      const main = page.locator('main');
      const headings = await main.getByRole('heading').allTextContents();
      const month = (d: Temporal.PlainDate) =>
        new Intl.DateTimeFormat('en', { month: 'long', timeZone: 'UTC' }).format(new Date(`${d}T12:00:00Z`));
      for (const d of week) {
        assert.ok(
          headings.some((h) => new RegExp(`\\b${d.day}\\b`).test(h) && h.includes(month(d))),
          `a heading for ${d}: ${headings.join(' | ')}`,
        );
      }
      const text = (await main.textContent()) ?? '';
      assert.equal(text.split(en.noTimesThisDay).length - 1, empty, 'each day without a time says so');
      assert.equal(text.split(ZONE).length - 1, 1, 'the time zone named once');
      assert.equal(await choice(page, 'Previous week').count(), 0, 'never before today');
      await choice(page, 'Next week').click();
      await choice(page, 'Previous week').waitFor();
      assert.equal(await choice(page, 'Next week').count(), 0, 'never past the horizon (10 days)');
      const later = (await main.getByRole('heading').allTextContents()).join(' | ');
      assert.ok(later.includes(month(today.add({ days: 7 }))), later);
      await choice(page, 'Previous week').click();
      await choice(page, 'Next week').waitFor();
      assert.equal(await choice(page, 'Previous week').count(), 0);
    });

    test('a guest books with JavaScript off', async () => {
      const salon = await createSalon(server.app, { timezone: ZONE });
      const { page } = await guest({ javaScriptEnabled: false });
      const { chosen, reference } = await book(page, salon);
      const b = await checkBooked(salon, reference, chosen);
      assert.ok(['Anna', 'Bence'].includes(b.staffName), 'Any staff: one of them');
    });

    test('a guest books by keyboard alone (Tab, Enter, Space; no click)', async () => {
      const salon = await createSalon(server.app, { timezone: ZONE });
      const { page } = await guest();
      const { chosen, reference } = await book(page, salon, { input: 'keyboard', staff: 'Bence' });
      const b = await checkBooked(salon, reference, chosen);
      assert.equal(b.staffName, 'Bence');
    });

    for (const scripts of ['with its script', 'with scripts blocked'] as const) {
      test(`axe-core (wcag2a, wcag2aa) reports no violation on any step, ${scripts}`, async () => {
        const salon = await createSalon(server.app, { timezone: ZONE });
        const { page, context } = await guest();
        // axe needs JavaScript in the page; blocking the page's own scripts shows it as without JavaScript
        if (scripts === 'with scripts blocked') await context.route(/\.m?js(\?|$)/, (r) => r.abort());
        const found: Record<string, string[]> = {};
        const onStep = async (step: StepName) => {
          found[step] = await wcagViolations(page);
        };
        const w: Walk = { staff: 'Anna', onStep };
        const chosen = await toDetails(page, salon, w);
        // details with errors shown: a phone that is no phone number passes the browser, not the server
        await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Kiss Éva');
        await page.getByRole('textbox', { name: 'Phone', exact: true }).fill('not a phone');
        await page.getByRole('textbox', { name: 'Email', exact: true }).fill('eva@example.com');
        await page.getByRole('checkbox', { name: 'I accept the terms', exact: true }).check();
        await page.getByRole('button', { name: 'Book', exact: true }).click();
        const phone = page.getByRole('textbox', { name: 'Phone', exact: true });
        await page.waitForFunction(() => document.querySelector('[aria-invalid="true"]') !== null);
        found['details with errors'] = await wcagViolations(page);
        // the message beside the field, linked by aria-describedby; entered values kept
        const described = await phone.evaluate((el) =>
          (el.getAttribute('aria-describedby') ?? '')
            .split(/\s+/)
            .map((id) => document.getElementById(id)?.textContent ?? '')
            .join(' '),
        );
        assert.match(described, /phone/i, 'the phone error is linked to the field');
        assert.equal(await page.getByRole('textbox', { name: 'Name', exact: true }).inputValue(), 'Kiss Éva', 'the name is kept');
        assert.equal(await page.getByRole('textbox', { name: 'Email', exact: true }).inputValue(), 'eva@example.com');
        assert.equal(await bookingCount(salon), 0, 'an invalid form books nothing');

        await phone.fill('+36 30 123 4567');
        await page.getByRole('checkbox', { name: 'I accept the terms', exact: true }).check();
        await page.getByRole('button', { name: 'Book', exact: true }).click();
        await page.getByRole('heading', { name: /Booking (received|confirmed)/ }).waitFor();
        found.done = await wcagViolations(page);
        await checkBooked(salon, await referenceOn(page), chosen);

        assert.deepEqual(Object.keys(found), ['service', 'staff', 'time', 'details', 'details with errors', 'done']);
        for (const [step, violations] of Object.entries(found)) assert.deepEqual(violations, [], `${step}: ${violations.join('\n')}`);
      });
    }

    test('every step weighs at most 60 KB transferred (HTML, CSS, JS; cache off) and no request leaves the origin', async () => {
      const salon = await createSalon(server.app, { timezone: ZONE });
      const { page, context, rec } = await guest();
      await disableCache(context, page);
      const weights: Record<string, number> = {};
      const weigh = async (step: string) => {
        const { bytes, transfers } = await rec.step();
        weights[step] = bytes;
        assert.ok(transfers.length > 0, `${step}: something was loaded`);
        assert.ok(
          bytes <= STEP_BUDGET,
          `${step}: ${bytes} bytes > ${STEP_BUDGET}: ${transfers.map((t) => `${t.url} ${t.bytes}`).join(', ')}`,
        );
        rec.reset();
      };
      rec.reset();
      const { reference } = await book(page, salon, { onStep: weigh });
      assert.deepEqual(Object.keys(weights), ['service', 'staff', 'time', 'details', 'done']);
      console.log(`# step weights (bytes): ${JSON.stringify(weights)}`);
      await operatorBooking(salon, reference);
      const origin = new URL(server.base).origin;
      assert.ok(rec.urls.length >= 5);
      for (const u of rec.urls) if (/^https?:/.test(u)) assert.equal(new URL(u).origin, origin, u);
    });

    test('?lang=hu gives a Hungarian page whose booking records consent.locale hu; Accept-Language hu too', async () => {
      const salon = await createSalon(server.app, { timezone: ZONE });
      const { page } = await guest();
      const words = {
        anyStaff: hu.anyStaff,
        name: hu.name,
        phone: hu.phone,
        email: hu.email,
        acceptTerms: hu.acceptTerms,
        book: hu.book,
        // the catalog's sentence with any HH:MM in it
        heldUntil: new RegExp(
          hu
            .heldUntil('00:00')
            .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
            .replace('00:00', '\\d\\d:\\d\\d'),
        ),
      };
      const onStep = async (step: StepName) => {
        assert.equal(await page.locator('html').getAttribute('lang'), 'hu', `${step}: html lang`);
        const text = (await page.locator('body').textContent()) ?? '';
        for (const en of ['Any staff', 'Next week', 'I accept the terms', 'Booking confirmed', 'Choose a']) {
          assert.ok(!text.includes(en), `${step}: no English "${en}"`);
        }
        if (step === 'time') {
          assert.ok(text.includes(hu.nextWeek), 'Hungarian week links');
          // dates named in Hungarian: the month of today or of the week's last day
          const today = Temporal.Now.plainDateISO(ZONE);
          const months = [today, today.add({ days: 6 })].map((d) =>
            new Intl.DateTimeFormat('hu', { month: 'long', timeZone: 'UTC' }).format(new Date(`${d}T12:00:00Z`)),
          );
          assert.ok(
            months.some((m) => text.toLowerCase().includes(m)),
            `a Hungarian month name (${months.join(', ')})`,
          );
        }
      };
      const { chosen, reference } = await book(page, salon, { query: '?lang=hu', words, onStep });
      await page.getByRole('heading', { name: hu.bookingConfirmed }).waitFor();
      await checkBooked(salon, reference, chosen);
      const { rows } = await server.db.query<{ locale: string }>(
        "SELECT consent->>'locale' AS locale FROM bookings WHERE public_reference = $1",
        [reference],
      );
      assert.equal(rows[0]?.locale, 'hu');

      const browserHu = await guest({ locale: 'hu-HU' });
      await browserHu.page.goto(pageUrl(salon));
      assert.equal(await browserHu.page.locator('html').getAttribute('lang'), 'hu', 'Accept-Language: hu');
      await browserHu.page.goto(pageUrl(salon, '?lang=en'));
      assert.equal(await browserHu.page.locator('html').getAttribute('lang'), 'en', '?lang=en wins over Accept-Language');
    });

    describe('a time that is no longer available returns the guest to the time step and creates nothing', () => {
      /** Back on the time step, said so, nothing created beyond `expected` bookings. */
      async function backOnTimeStep(page: Page, salon: SalonFixture, expected: number) {
        await page.getByText('That time is no longer available').first().waitFor();
        await choice(page, TIME_NAME).first().waitFor();
        await choice(page, 'Next week').waitFor();
        assert.equal(await bookingCount(salon), expected);
        const { bookings } = await adminOk(server.app, 'GET', `/businesses/${salon.business.slug}/bookings`);
        assert.ok(
          bookings.every((b: { source: string }) => b.source !== 'bookingPage'),
          'no booking from the page',
        );
      }

      /** The hold's time has passed: its expiry moved into the past, as the clock would. */
      async function expireHolds(salon: SalonFixture): Promise<void> {
        const { rowCount } = await server.db.query(
          "UPDATE holds SET expires_at = now() - interval '1 minute' WHERE business_id = $1 AND expires_at > now()",
          [salon.business.id],
        );
        assert.equal(rowCount, 1, 'the page held the time');
      }

      async function apiBook(salon: SalonFixture, slot: { date: string; startTime: string }) {
        return api(server.app, salon.key.secret, 'POST', '/bookings', {
          salonSlug: salon.business.slug,
          locationSlug: salon.location.slug,
          serviceId: salon.service.id,
          expectedPricingVersion: salon.service.pricingVersion,
          staffId: salon.staff[0]!.id,
          slot,
          guest: { name: 'Other Guest', phone: '+36301112233' },
          consent: { ...CONSENT, acceptedAt: new Date().toISOString() },
        });
      }

      for (const input of ['mouse', 'keyboard'] as const) {
        test(`the hold expired (time still free), by ${input}`, async () => {
          const salon = await createSalon(server.app, { timezone: ZONE });
          const { page } = await guest({ javaScriptEnabled: input !== 'mouse' });
          const w: Walk = { staff: 'Anna', input };
          await toDetails(page, salon, w);
          await expireHolds(salon);
          await fillDetails(page, w);
          await activate(page, page.getByRole('button', { name: 'Book', exact: true }), input);
          await backOnTimeStep(page, salon, 0);
        });
      }

      test('the hold expired and the API took the time', async () => {
        const salon = await createSalon(server.app, { timezone: ZONE });
        const slot = await firstFreeSlot(salon, salon.staff[0]!.id);
        const { page } = await guest();
        const w: Walk = { staff: 'Anna' };
        const chosen = await toDetails(page, salon, w);
        assert.equal(chosen, slot.startTime, 'the first time offered is the first free one');
        // while held, the API cannot take it
        const refused = await apiBook(salon, slot);
        assert.equal(refused.status, 409, refused.raw);
        assert.ok(['booking.slot_unavailable', 'booking.slot_no_longer_available'].includes(refused.body.error.code), refused.raw);
        await expireHolds(salon);
        const taken = await apiBook(salon, slot);
        assert.equal(taken.status, 201, taken.raw);
        await fillDetails(page, w);
        await page.getByRole('button', { name: 'Book', exact: true }).click();
        await backOnTimeStep(page, salon, 1);
      });

      test('the time was taken after the guest saw it, before choosing it', async () => {
        const salon = await createSalon(server.app, { timezone: ZONE });
        const slot = await firstFreeSlot(salon, salon.staff[0]!.id);
        const { page } = await guest({ javaScriptEnabled: false });
        await page.goto(pageUrl(salon));
        await choice(page, /^Haircut/)
          .first()
          .click();
        await choice(page, 'Anna').click();
        const time = choice(page, TIME_NAME).first();
        assert.equal(((await time.textContent()) ?? '').trim(), slot.startTime);
        const taken = await apiBook(salon, slot);
        assert.equal(taken.status, 201, taken.raw);
        await time.click();
        await backOnTimeStep(page, salon, 1);
        const { rows } = await server.db.query('SELECT 1 FROM holds WHERE business_id = $1', [salon.business.id]);
        assert.equal(rows.length, 0, 'no hold was made');
      });
    });

    test('a group-session service lists its sessions with their remaining seats; a seat is booked', async () => {
      const salon = await createSalon(server.app, { timezone: ZONE });
      const yoga = await createService(server.app, salon.business.slug, salon.location.slug, {
        name: 'Yoga class',
        durationMinutes: 60,
        bookingMode: 'groupSession',
      });
      const anna = salon.staff[0]!;
      await adminOk(server.app, 'PATCH', `/staff/${anna.id}`, { serviceIds: [salon.service.id, salon.manualService.id, yoga.id] });
      const day = Temporal.Now.plainDateISO(ZONE).add({ days: 2 });
      const at = (hh: string) => day.toZonedDateTime({ timeZone: ZONE, plainTime: hh }).toInstant().toString();
      const { session } = await adminOk(server.app, 'POST', `/services/${yoga.id}/sessions`, {
        staffId: anna.id,
        startAtUtc: at('18:00'),
        endAtUtc: at('19:00'),
        capacityMax: 6,
      });
      // two seats taken by the API
      for (const name of ['First', 'Second']) {
        const search = await api(server.app, salon.key.secret, 'POST', '/availability/search', {
          salonSlug: salon.business.slug,
          locationSlug: salon.location.slug,
          serviceId: yoga.id,
          dateRange: { from: day.toString(), to: day.toString() },
        });
        const slot = search.body.data.slots.find((s: { sessionId?: string }) => s.sessionId === session.id);
        const r = await api(server.app, salon.key.secret, 'POST', '/bookings', {
          salonSlug: salon.business.slug,
          locationSlug: salon.location.slug,
          serviceId: yoga.id,
          sessionId: session.id,
          slotToken: slot.slotToken,
          guest: { name, phone: '+36301112233' },
          consent: { ...CONSENT, acceptedAt: new Date().toISOString() },
        });
        assert.equal(r.status, 201, r.raw);
      }

      const { page } = await guest();
      await page.goto(pageUrl(salon));
      await activate(page, choice(page, /^Yoga class/), 'mouse');
      // straight to the sessions, or through the staff step
      const session18 = choice(page, /^18:00/).first();
      const anyStaff = choice(page, 'Any staff');
      await session18.or(anyStaff).first().waitFor();
      if (await anyStaff.isVisible()) await anyStaff.click();
      await session18.waitFor();
      const main = (await page.locator('main').textContent()) ?? '';
      assert.match(main, /4 places left|4\D{0,20}(left|remaining|seats?|places?)/i, `remaining seats shown: ${main.slice(0, 600)}`);
      await activate(page, session18, 'mouse');
      await page.getByRole('textbox', { name: 'Name', exact: true }).waitFor();
      await fillDetails(page, {});
      await page.getByRole('button', { name: 'Book', exact: true }).click();
      await page.getByRole('heading', { name: /Booking (received|confirmed)/ }).waitFor();
      const b = await operatorBooking(salon, await referenceOn(page));
      assert.equal(b.source, 'bookingPage');
      assert.equal(b.sessionId, session.id);
      const { sessions } = await adminOk(server.app, 'GET', `/services/${yoga.id}/sessions`);
      assert.equal(sessions[0].seatsTaken, 3);
    });

    test('a deposit service asks "I accept the deposit terms" with the amount; the done page links Pay deposit', async () => {
      const salon = await createSalon(server.app, { timezone: ZONE });
      const balayage = await createService(server.app, salon.business.slug, salon.location.slug, {
        name: 'Balayage',
        deposit: { required: true, termsVersion: 'v1', amount: { amount: 2000, currency: 'HUF' } },
      });
      await createStaff(server.app, salon.business.slug, salon.location.slug, { name: 'Cili', serviceIds: [balayage.id] });
      const { page } = await guest({ javaScriptEnabled: false });
      const w: Walk = { service: 'Balayage', staff: 'Cili' };
      const chosen = await toDetails(page, salon, w);
      const depositBox = page.getByRole('checkbox', { name: 'I accept the deposit terms', exact: true });
      await depositBox.waitFor();
      // the amount beside the box: shown, and in its description (or its name) for a screen reader
      const described = await depositBox.evaluate((el) =>
        [
          ...[...((el as HTMLInputElement).labels ?? [])].map((l) => l.textContent ?? ''),
          ...(el.getAttribute('aria-describedby') ?? '')
            .split(/\s+/)
            .map((id) => (id ? (document.getElementById(id)?.textContent ?? '') : '')),
        ].join(' '),
      );
      assert.match(described, /2[\s\u00a0\u202f,.]?000/, 'the deposit amount is announced with the box');
      await fillDetails(page, w);

      // without the deposit box: refused beside it, nothing booked
      await page.getByRole('button', { name: 'Book', exact: true }).click();
      await page.getByRole('checkbox', { name: 'I accept the deposit terms', exact: true }).waitFor();
      assert.equal(await bookingCount(salon), 0);

      await page.getByRole('checkbox', { name: 'I accept the terms', exact: true }).check();
      await page.getByRole('checkbox', { name: 'I accept the deposit terms', exact: true }).check();
      await page.getByRole('button', { name: 'Book', exact: true }).click();
      await page.getByRole('heading', { name: /Booking (received|confirmed)/ }).waitFor();
      const pay = page.getByRole('link', { name: 'Pay deposit', exact: true });
      await pay.waitFor();
      const b = await checkBooked(salon, await referenceOn(page), chosen);
      assert.equal(b.deposit.amount, 2000);
      assert.equal(b.deposit.status, 'pending');
      await pay.click();
      await page.waitForLoadState();
      assert.match((await page.locator('body').textContent()) ?? '', /2[\s\u00a0\u202f,.]?000/, 'the payment page shows the amount');
    });
  });
}
