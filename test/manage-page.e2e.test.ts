/**
 * The manage page in a real browser (issue 25, "Done when"; guest-side.md "Self-service"): Debian's
 * Chromium through playwright-core against the real server on a port, JavaScript off and on, at
 * 390 px, by mouse with JavaScript off and by keyboard alone with it on. A guest cancels inside the
 * window and cannot outside it (the page says until when and shows the phone), reschedules an
 * automatic-policy booking, accepts a proposed time, declines one. Each change writes its event with
 * actor `guest`, its webhook delivery row and the guest's message, sent by the job worker to a real
 * SMTP server (test/helpers/message-sinks.ts); every page is axe-clean and
 * fits the screen. Skipped, and said so, without /usr/bin/chromium.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import type { Browser as PwBrowser, BrowserContext, Page } from 'playwright-core';
import { Temporal } from 'temporal-polyfill';
import { createBody } from './helpers/bookings.ts';
import {
  activate,
  type GuestServer,
  horizontalOverflow,
  type Input,
  launchChromium,
  newGuest,
  startGuestServer,
  TIME_NAME,
  wcagViolations,
} from './helpers/booking-page.ts';
import { SKIP_BROWSER as skip } from './helpers/browser.ts';
import { isolatedDbTargets } from './helpers/isolated-databases.ts';
import { api, createSalon, type SalonFixture } from './helpers/fixtures.ts';
import { adminOk, type Harness } from './helpers/harness.ts';
import { storeWebhookRow } from './helpers/webhooks.ts';
import { startMailSink, waitUntil, type MailSink } from './helpers/message-sinks.ts';
import { startJobWorker } from '../src/jobs/start.ts';
import type { JobWorker } from '../src/jobs/worker.ts';

const ZONE = 'Europe/Budapest';
/** the guest's message each guest change sends (guest-side.md "Notifications") */
const MESSAGE_OF: Record<string, string> = {
  'booking.cancelled': 'booking.cancelled',
  'booking.reschedule_confirmed': 'booking.rescheduled',
  'booking.declined': 'booking.declined',
};
const PHONE = '+36 1 234 5678';

if (skip) console.log(`# ${skip}`);
if (skip) test('manage page in Chromium', { skip }, () => {});
else for (const target of isolatedDbTargets()) describeTarget(target);

function describeTarget(target: ReturnType<typeof isolatedDbTargets>[number]) {
  describe(`manage page in Chromium [${target.name}]`, () => {
    let server: GuestServer;
    let chromium: PwBrowser;
    let contexts: BrowserContext[] = [];
    let sink: MailSink;
    let worker: JobWorker;

    before(async () => {
      sink = await startMailSink();
      server = await startGuestServer(target, { smtpUrl: sink.url });
      // messages only: the webhook's address is not a real receiver; its delivery row is what is checked
      worker = await startJobWorker({
        db: server.db,
        config: server.app.ctx.config,
        webhooks: false,
        housekeeping: false,
        pollIntervalMs: 100,
      });
      chromium = await launchChromium();
    });
    after(async () => {
      await chromium?.close();
      await worker?.stop();
      await server?.close();
      await sink?.close();
    });
    afterEach(async () => {
      for (const c of contexts) await c.close().catch(() => {});
      contexts = [];
    });

    async function guest(javaScriptEnabled: boolean): Promise<Page> {
      const { context, page } = await newGuest(chromium, { javaScriptEnabled, width: 390 });
      contexts.push(context);
      return page;
    }

    /** A salon with the location's phone and a webhook (so every change has its delivery row). */
    async function salon(): Promise<SalonFixture> {
      const s = await createSalon(server.app, { timezone: ZONE });
      await adminOk(server.app, 'PATCH', `/businesses/${s.business.slug}/locations/${s.location.slug}`, { phone: PHONE });
      await storeWebhookRow({ db: server.db, app: server.app } as unknown as Harness, s.business.id, 'https://hooks.example.com/booking');
      return s;
    }

    /** A booking of the automatic service with Anna, at least three days ahead (outside every default window). */
    async function booked(s: SalonFixture): Promise<{ bookingId: string; manage: string }> {
      const from = Temporal.Now.plainDateISO(ZONE).add({ days: 3 });
      const search = await api(server.app, s.key.secret, 'POST', '/availability/search', {
        salonSlug: s.business.slug,
        locationSlug: s.location.slug,
        serviceId: s.service.id,
        staffId: s.staff[0]!.id,
        dateRange: { from: from.toString(), to: from.add({ days: 2 }).toString() },
      });
      const slot = search.body.data.slots[0];
      assert.ok(slot, search.raw);
      const r = await api(server.app, s.key.secret, 'POST', '/bookings', createBody(s, { date: slot.date, startTime: slot.startTime }));
      assert.equal(r.status, 201, r.raw);
      const bookingId = r.body.data.booking.bookingId;
      const { manageUrl } = await adminOk(server.app, 'POST', `/bookings/${bookingId}/manage-link`);
      return { bookingId, manage: manageUrl };
    }

    /** What each guest change leaves: the event by the guest, its webhook delivery row, its follow-up job. */
    async function checkChange(bookingId: string, event: string) {
      const { rows } = await server.db.query<{ sequence: number; actor: string; event: string }>(
        'SELECT sequence, actor, event FROM booking_events WHERE booking_id = $1 ORDER BY sequence DESC LIMIT 1',
        [bookingId],
      );
      assert.deepEqual({ event: rows[0]!.event, actor: rows[0]!.actor }, { event, actor: 'guest' });
      const sequence = rows[0]!.sequence;
      const deliveries = await server.db.query('SELECT 1 FROM webhook_deliveries WHERE booking_id = $1 AND sequence = $2', [
        bookingId,
        sequence,
      ]);
      assert.equal(deliveries.rows.length, 1, 'its webhook delivery row');
      const jobs = await server.db.query(
        `SELECT 1 FROM jobs WHERE kind = 'booking.followup' AND payload->>'bookingId' = $1 AND (payload->>'sequence')::int = $2`,
        [bookingId, sequence],
      );
      assert.equal(jobs.rows.length, 1, 'its booking.followup job');
      // ... and the guest's message about it, sent to the SMTP server with the manage link
      const kind = MESSAGE_OF[event]!;
      const sent = async () =>
        (
          await server.db.query<{ id: string }>(
            `SELECT id FROM messages WHERE booking_id = $1 AND state_version = $2 AND kind = $3 AND audience = 'guest' AND status = 'sent'`,
            [bookingId, sequence, kind],
          )
        ).rows[0];
      await waitUntil(`the ${kind} message`, async () => (await sent()) !== undefined, 30_000);
      const { id } = (await sent())!;
      const mail = sink.mails.find((m) => m.raw.includes(`<${id}@127.0.0.1>`));
      assert.ok(mail, `the ${kind} mail reached the SMTP server`);
      assert.match(mail.raw, /\/manage\/[A-Za-z0-9_-]{43}/, 'with the manage link');
      const { events } = await adminOk(server.app, 'GET', `/bookings/${bookingId}/events`);
      assert.equal(events.at(-1).actor, 'guest');
    }

    /**
     * axe-clean, no horizontal scroll at 390 px. Both run a script in the page, which a page with
     * JavaScript off cannot: they are checked in the JavaScript-on runs (the markup is the same).
     */
    async function checkPage(page: Page, js: boolean, what: string) {
      if (!js) return;
      assert.deepEqual(await wcagViolations(page), [], `${what}: axe`);
      assert.equal(await horizontalOverflow(page), 0, `${what} at 390 px`);
    }

    const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
    const main = async (page: Page) => ((await page.locator('main').textContent()) ?? '').replace(/\s+/g, ' ');

    for (const js of [false, true]) {
      // The keyboard's focus is read by a script in the page, so the keyboard runs with JavaScript on.
      const input: Input = js ? 'keyboard' : 'mouse';
      const how = `JavaScript ${js ? 'on, by keyboard alone' : 'off, by mouse'}`;

      test(`a guest cancels inside the window (${how})`, async () => {
        const s = await salon();
        const b = await booked(s);
        const page = await guest(js);
        await page.goto(b.manage);
        await button(page, 'Cancel booking').waitFor();
        await checkPage(page, js, 'manage page');
        assert.ok(!(await main(page)).includes(PHONE), 'no phone while the guest can cancel here');
        await activate(page, button(page, 'Cancel booking'), input);
        await page.getByRole('heading', { name: 'Cancel this booking?' }).waitFor();
        await checkPage(page, js, 'confirm step');
        await activate(page, button(page, 'Cancel booking'), input);
        await page.getByText('Your booking is cancelled.').waitFor();
        assert.equal(await button(page, 'Cancel booking').count(), 0);
        await checkChange(b.bookingId, 'booking.cancelled');
      });

      test(`a guest cannot cancel outside the window: the page says until when and shows the phone (${how})`, async () => {
        const s = await salon();
        // Two weeks' notice: a booking three days ahead is past it.
        await adminOk(server.app, 'PATCH', `/businesses/${s.business.slug}/guest-settings`, {
          guestCancel: { allowed: true, noticeMinutes: 20_160 },
        });
        const b = await booked(s);
        const page = await guest(js);
        await page.goto(b.manage);
        await page.getByRole('heading', { name: 'Your booking' }).waitFor();
        assert.equal(await button(page, 'Cancel booking').count(), 0);
        const text = await main(page);
        assert.match(text, /Online cancellation was possible until \w+, \d+ \w+ \d{4}, \d\d:\d\d \(Europe\/Budapest time\)\./);
        assert.ok(text.includes(`To cancel now, please call ${PHONE}.`), text);
        await checkPage(page, js, 'manage page, window closed');
      });

      test(`a guest reschedules an automatic-policy booking (${how})`, async () => {
        const s = await salon();
        const b = await booked(s);
        const page = await guest(js);
        await page.goto(b.manage);
        await activate(page, page.getByRole('link', { name: 'Reschedule', exact: true }), input);
        await page.getByRole('heading', { name: 'Choose a new time' }).waitFor();
        await checkPage(page, js, 'time step');
        const time = page.getByRole('button', { name: TIME_NAME }).first();
        const chosen = ((await time.textContent()) ?? '').trim();
        await activate(page, time, input);
        await button(page, 'Confirm new time').waitFor();
        await checkPage(page, js, 'new time');
        await activate(page, button(page, 'Confirm new time'), input);
        await page.getByText('Your booking has moved to the new time.').waitFor();
        const { booking } = await adminOk(server.app, 'GET', `/bookings/${b.bookingId}`);
        assert.equal(booking.status, 'confirmed');
        assert.equal(booking.confirmedSlot.startTime, chosen);
        await checkChange(b.bookingId, 'booking.reschedule_confirmed');
      });

      for (const answer of ['Accept new time', 'Decline new time'] as const) {
        test(`a guest answers a proposed time: ${answer} (${how})`, async () => {
          const s = await salon();
          const b = await booked(s);
          const { booking } = await adminOk(server.app, 'GET', `/bookings/${b.bookingId}`);
          const proposedDate = Temporal.PlainDate.from(booking.confirmedSlot.date).add({ days: 1 }).toString();
          await adminOk(server.app, 'POST', `/bookings/${b.bookingId}/propose`, { date: proposedDate, startTime: '12:00' });
          const page = await guest(js);
          await page.goto(b.manage);
          await page.getByRole('heading', { name: 'Proposed new time' }).waitFor();
          assert.ok((await main(page)).includes('12:00 (Europe/Budapest time)'));
          await checkPage(page, js, 'proposal');
          await activate(page, button(page, answer), input);
          const accepted = answer === 'Accept new time';
          await page.getByText(accepted ? 'You accepted the new time.' : 'You declined the new time.').waitFor();
          const after = (await adminOk(server.app, 'GET', `/bookings/${b.bookingId}`)).booking;
          assert.equal(after.status, accepted ? 'confirmed' : 'declined');
          if (accepted) assert.deepEqual([after.confirmedSlot.date, after.confirmedSlot.startTime], [proposedDate, '12:00']);
          await checkChange(b.bookingId, accepted ? 'booking.reschedule_confirmed' : 'booking.declined');
        });
      }
    }
  });
}
