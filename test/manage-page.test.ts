/**
 * The manage page's server (guest-side.md "Self-service"; docs/guest-pages.md "The manage page"):
 * stored, revocable links; what the page shows and never shows; each guest action under its rule
 * and window edges; the event each change writes with actor `guest`, its webhook delivery row and
 * its booking.followup job; the origin check and the per-address limit. Through `inject` on both
 * databases; the Chromium checks are manage-page.e2e.test.ts's.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dbTargets } from './helpers/databases.ts';
import { admin, adminOk, type Harness } from './helpers/harness.ts';
import { createSalon, type SalonFixture } from './helpers/fixtures.ts';
import { bookingHarness, createOk, day, expectError, operatorOk, SECRET_EMAIL, SECRET_PHONE_DIGITS, sql } from './helpers/bookings.ts';
import { buttonTexts, clickButton, follow, get, h1, link, links, post, textOf, type Page } from './helpers/guest-page.ts';
import { asMember, memberCookie } from './helpers/members.ts';
import { deliveriesOf, storeWebhookRow } from './helpers/webhooks.ts';

const PHONE = '+36 1 234 5678';
/** day(2) 10:00 in Budapest (UTC+2), the bookings' start unless told otherwise. */
const START = new Date(`${day(2)}T08:00:00.000Z`);
const minutesBefore = (m: number) => new Date(START.getTime() - m * 60_000);

for (const target of dbTargets()) {
  describe(`manage page [${target.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await bookingHarness(target);
    });
    after(() => h.close());

    const reset = () => {
      h.clock.now = minutesBefore(2 * 1440);
    };

    /** A salon with the location's phone and a webhook, so each change has a delivery row. */
    async function salon(): Promise<SalonFixture> {
      reset();
      const s = await createSalon(h.app);
      await adminOk(h.app, 'PATCH', `/businesses/${s.business.slug}/locations/${s.location.slug}`, { phone: PHONE });
      await storeWebhookRow(h, s.business.id, 'https://hooks.example.com/booking');
      return s;
    }

    async function manageLink(bookingId: string): Promise<string> {
      const r = await adminOk(h.app, 'POST', `/bookings/${bookingId}/manage-link`);
      assert.match(r.manageUrl, /^http.+\/manage\/[A-Za-z0-9_-]{43}$/);
      return new URL(r.manageUrl).pathname;
    }

    async function page(path: string): Promise<Page> {
      const p = await get(h.app, path);
      assert.equal(p.status, 200, textOf(p.html).slice(0, 300));
      return p;
    }

    /** The event `sequence` as written: its actor, its webhook delivery row, its follow-up job. */
    async function checkWritten(bookingId: string, event: string, to: string) {
      const [booking] = await sql(h, 'SELECT status, state_version FROM bookings WHERE id = $1', [bookingId]);
      assert.equal(booking.status, to);
      const sequence = booking.state_version;
      const [row] = await sql(h, 'SELECT event, actor FROM booking_events WHERE booking_id = $1 AND sequence = $2', [bookingId, sequence]);
      assert.deepEqual({ ...row }, { event, actor: 'guest' });
      const delivery = (await deliveriesOf(h.db, bookingId)).find((d) => d.sequence === sequence);
      assert.equal(delivery?.event, event, 'a webhook delivery row for the change');
      const jobs = await sql(
        h,
        `SELECT 1 FROM jobs WHERE kind = 'booking.followup' AND payload->>'bookingId' = $1 AND (payload->>'sequence')::int = $2`,
        [bookingId, sequence],
      );
      assert.equal(jobs.length, 1, 'its booking.followup job');
      const events = await adminOk(h.app, 'GET', `/bookings/${bookingId}/events`);
      assert.equal(events.events.at(-1).actor, 'guest');
      assert.equal(events.events.at(-1).event, event);
    }

    test('the page: what it shows (never phone or email), its headers, its buttons', async () => {
      const s = await salon();
      const b = await createOk(h, s);
      const path = await manageLink(b.bookingId);
      const p = await page(path);
      assert.equal(p.headers['cache-control'], 'no-store');
      assert.equal(p.headers['referrer-policy'], 'no-referrer');
      assert.match(String(p.headers['x-robots-tag']), /noindex/);
      assert.match(p.html, /<meta name="robots" content="noindex/);
      const text = textOf(p.html);
      for (const part of [
        'Downtown',
        b.publicReference,
        'Confirmed',
        'Haircut',
        'Anna',
        'Tuesday, 3 June 2031',
        '10:00 (Europe/Budapest time)',
      ]) {
        assert.ok(text.includes(part), `${part} in ${text}`);
      }
      assert.ok(!p.html.includes(SECRET_PHONE_DIGITS) && !p.html.includes(SECRET_EMAIL), 'no guest contact');
      assert.ok(!text.includes(PHONE), 'the phone only when the guest can no longer cancel here');
      assert.ok(buttonTexts(p.html).includes('Cancel booking'));
      link(p.html, 'Reschedule');
      assert.deepEqual(
        buttonTexts(p.html).filter((t) => /new time/.test(t)),
        [],
        'no answer to a proposal that is not there',
      );
      // Hungarian
      const hu = await page(`${path}?lang=hu`);
      assert.ok(buttonTexts(hu.html).includes('Foglalás lemondása'));
      assert.ok(textOf(hu.html).includes('Visszaigazolva'));
    });

    test('a deposit booking shows the deposit state', async () => {
      const s = await salon();
      const b = await createOk(h, s);
      // What a deposit service's booking carries (operator-deposits.test.ts makes them through the API).
      await sql(
        h,
        `UPDATE bookings SET deposit_status = 'pending', deposit_amount_minor = 200000, deposit_currency = 'HUF', deposit_due_at = start_at WHERE id = $1`,
        [b.bookingId],
      );
      const p = await page(await manageLink(b.bookingId));
      assert.ok(textOf(p.html).includes('Deposit Not paid yet'), textOf(p.html));
    });

    test('cancel inside the window: a confirm step, then cancelled with its event, webhook row and job', async () => {
      const s = await salon();
      const b = await createOk(h, s);
      const path = await manageLink(b.bookingId);
      // The window's last moment: exactly noticeMinutes (1440) before the start.
      h.clock.now = minutesBefore(1440);
      const p = await page(path);
      const open = clickButton(p.html, 'Cancel booking');
      const confirm = await page(`${open.action}?lang=en`);
      assert.equal(h1(confirm.html), 'Cancel this booking?');
      const click = clickButton(confirm.html, 'Cancel booking');
      const done = await follow(h.app, await post(h.app, click.action, click.fields));
      assert.ok(textOf(done.html).includes('Your booking is cancelled.'));
      assert.ok(textOf(done.html).includes('Cancelled'));
      assert.ok(!buttonTexts(done.html).includes('Cancel booking'));
      await checkWritten(b.bookingId, 'booking.cancelled', 'cancelled');
      // Again: a cancelled booking takes nothing, in words, not a 500.
      const again = await post(h.app, click.action, click.fields);
      assert.equal(again.status, 409);
      assert.ok(textOf(again.html).includes('cannot be changed this way'), textOf(again.html));
    });

    test('outside the window: no button, the page says until when and shows the phone; a post is refused', async () => {
      const s = await salon();
      const b = await createOk(h, s);
      const path = await manageLink(b.bookingId);
      h.clock.now = new Date(minutesBefore(1440).getTime() + 60_000);
      const p = await page(path);
      assert.ok(!buttonTexts(p.html).includes('Cancel booking'));
      assert.throws(() => link(p.html, 'Reschedule'), 'the reschedule window (same notice) has closed too');
      const text = textOf(p.html);
      assert.ok(text.includes('Online cancellation was possible until Monday, 2 June 2031, 10:00 (Europe/Budapest time).'), text);
      assert.ok(text.includes(`To cancel now, please call ${PHONE}.`), text);
      const refused = await post(h.app, `${path}/cancel`, { lang: 'en' });
      assert.equal(refused.status, 409);
      assert.ok(textOf(refused.html).includes('too late to do this online'));
      assert.equal((await sql(h, 'SELECT status FROM bookings WHERE id = $1', [b.bookingId]))[0].status, 'confirmed');
      // The business's own cancel ignores the guest's window.
      await operatorOk(h, b.bookingId, 'cancel');
    });

    test('guestCancel not allowed: no button, says so, with the phone', async () => {
      const s = await salon();
      await adminOk(h.app, 'PATCH', `/businesses/${s.business.slug}/guest-settings`, { guestCancel: { allowed: false } });
      const b = await createOk(h, s);
      const path = await manageLink(b.bookingId);
      const p = await page(path);
      assert.ok(!buttonTexts(p.html).includes('Cancel booking'));
      assert.ok(textOf(p.html).includes('does not take cancellations online'));
      assert.ok(textOf(p.html).includes(PHONE));
      assert.equal((await post(h.app, `${path}/cancel`, {})).status, 409);
      // Reschedule has its own setting.
      link(p.html, 'Reschedule');
    });

    test('reschedule an automatic-policy booking: the time step, a hold, Confirm new time', async () => {
      const s = await salon();
      const b = await createOk(h, s);
      const path = await manageLink(b.bookingId);
      const p = await page(path);
      const times = await page(link(p.html, 'Reschedule').href);
      assert.equal(h1(times.html), 'Choose a new time');
      assert.ok(textOf(times.html).includes('Europe/Budapest'));
      link(times.html, 'Any staff');
      // The fourth day's 11:00 (each day of the week is open): Wednesday 4 June.
      const eleven = clickButton(times.html, '11:00', 3);
      const held = await follow(h.app, await post(h.app, eleven.action, eleven.fields));
      assert.equal(h1(held.html), 'Move your booking to this time?');
      assert.ok(textOf(held.html).includes('Wednesday, 4 June 2031, 11:00 (Europe/Budapest time) · Anna'), textOf(held.html));
      const confirm = clickButton(held.html, 'Confirm new time');
      const done = await follow(h.app, await post(h.app, confirm.action, confirm.fields));
      assert.ok(textOf(done.html).includes('Your booking has moved to the new time.'));
      const [row] = await sql(h, 'SELECT start_at, staff_id, status FROM bookings WHERE id = $1', [b.bookingId]);
      assert.equal(new Date(row.start_at).toISOString(), `${day(3)}T09:00:00.000Z`);
      assert.equal(row.staff_id, s.staff[0]!.id);
      await checkWritten(b.bookingId, 'booking.reschedule_confirmed', 'confirmed');
      const holds = await sql(h, 'SELECT status, booking_id FROM holds WHERE business_id = $1', [s.business.id]);
      assert.deepEqual(
        holds.map((x) => ({ ...x })),
        [{ status: 'used', booking_id: b.bookingId }],
        'the hold was used by the move',
      );
      // The same hold again: used, so the guest is sent back to choose.
      const again = await post(h.app, confirm.action, confirm.fields);
      assert.equal(again.status, 303);
      assert.match(String(again.headers.location), /\/reschedule\?.*gone=1/);
    });

    test('reschedule is not offered for a manual-policy service, and a forged post is refused', async () => {
      const s = await salon();
      const b = await createOk(h, s, { service: s.manualService, startTime: '11:00' });
      await operatorOk(h, b.bookingId, 'accept');
      const path = await manageLink(b.bookingId);
      const p = await page(path);
      assert.throws(() => link(p.html, 'Reschedule'));
      const r = await get(h.app, `${path}/reschedule`);
      assert.equal(r.status, 303);
      // A hold of this salon's automatic service posted as this booking's new time.
      const other = await createOk(h, s, { startTime: '15:00' });
      const otherPath = await manageLink(other.bookingId);
      const times = await page(`${otherPath}/reschedule`);
      const held = await follow(h.app, await post(h.app, clickButton(times.html, '12:00').action, clickButton(times.html, '12:00').fields));
      const confirm = clickButton(held.html, 'Confirm new time');
      const forged = await post(h.app, `${path}/reschedule`, confirm.fields);
      assert.equal(forged.status, 409);
      assert.equal((await sql(h, 'SELECT state_version FROM bookings WHERE id = $1', [b.bookingId]))[0].state_version, 2);
    });

    test('reschedule window edge: guestReschedule.noticeMinutes', async () => {
      const s = await salon();
      await adminOk(h.app, 'PATCH', `/businesses/${s.business.slug}/guest-settings`, {
        guestReschedule: { allowed: true, noticeMinutes: 120 },
      });
      const b = await createOk(h, s);
      const path = await manageLink(b.bookingId);
      h.clock.now = minutesBefore(120);
      link((await page(path)).html, 'Reschedule');
      h.clock.now = minutesBefore(119);
      const p = await page(path);
      assert.throws(() => link(p.html, 'Reschedule'));
      assert.equal((await get(h.app, `${path}/reschedule`)).status, 303);
    });

    test('a proposed time: accept it', async () => {
      const s = await salon();
      const b = await createOk(h, s);
      await operatorOk(h, b.bookingId, 'propose', { date: day(3), startTime: '12:00' });
      const path = await manageLink(b.bookingId);
      const p = await page(path);
      const text = textOf(p.html);
      assert.ok(text.includes('Proposed new time Wednesday, 4 June 2031, 12:00 (Europe/Budapest time)'), text);
      assert.deepEqual(
        buttonTexts(p.html).filter((t) => /new time/.test(t)),
        ['Accept new time', 'Decline new time'],
      );
      const click = clickButton(p.html, 'Accept new time');
      const done = await follow(h.app, await post(h.app, click.action, click.fields));
      assert.ok(textOf(done.html).includes('You accepted the new time.'));
      await checkWritten(b.bookingId, 'booking.reschedule_confirmed', 'confirmed');
      const [row] = await sql(h, 'SELECT start_at FROM bookings WHERE id = $1', [b.bookingId]);
      assert.equal(new Date(row.start_at).toISOString(), `${day(3)}T10:00:00.000Z`);
    });

    test('a proposed time: decline it, even past the cancel window', async () => {
      const s = await salon();
      const b = await createOk(h, s);
      await operatorOk(h, b.bookingId, 'propose', { date: day(3), startTime: '12:00' });
      const path = await manageLink(b.bookingId);
      h.clock.now = minutesBefore(30);
      const p = await page(path);
      const click = clickButton(p.html, 'Decline new time');
      const done = await follow(h.app, await post(h.app, click.action, click.fields));
      assert.ok(textOf(done.html).includes('You declined the new time.'));
      await checkWritten(b.bookingId, 'booking.declined', 'declined');
      assert.equal((await post(h.app, click.action, click.fields)).status, 409);
    });

    test('links: stored and rotated; an ended, unknown or malformed token is the guest 404 page', async () => {
      const s = await salon();
      const b = await createOk(h, s);
      const first = await manageLink(b.bookingId);
      await page(first);
      const second = await manageLink(b.bookingId);
      assert.notEqual(first, second);
      for (const path of [
        first,
        `${first}/calendar.ics`,
        `${first}/cancel`,
        '/manage/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
        '/manage/forged',
      ]) {
        const r = await get(h.app, path);
        assert.equal(r.status, 404, path);
        assert.match(String(r.headers['content-type']), /^text\/html/);
      }
      assert.equal((await post(h.app, `${first}/cancel`, {})).status, 404);
      await page(second);
      // Only the hash is stored.
      const rows = await sql(h, 'SELECT token_hash, ended_at FROM manage_tokens WHERE booking_id = $1 ORDER BY created_at', [b.bookingId]);
      assert.equal(rows.length, 2);
      assert.ok(rows[0].ended_at !== null && rows[1].ended_at === null);
      assert.ok(!JSON.stringify(rows).includes(second.split('/').pop()!));
      expectError(await admin(h.app, 'POST', '/bookings/bkg_unknown/manage-link'), 404, 'booking.not_found');
    });

    test('a member rotates links of their own business only', async () => {
      const s = await salon();
      const other = await salon();
      const b = await createOk(h, s);
      const theirs = await createOk(h, other);
      const m = await memberCookie(h.app, h.db, s.business.id, 'frontDesk');
      const r = await asMember(h.app, m.cookie, 'POST', `/bookings/${b.bookingId}/manage-link`);
      assert.equal(r.status, 200, r.raw);
      assert.match(r.body.data.manageUrl, /\/manage\//);
      const refused = await asMember(h.app, m.cookie, 'POST', `/bookings/${theirs.bookingId}/manage-link`);
      assert.ok(refused.status === 404 || refused.status === 403, refused.raw);
    });

    test('the done page links the stored token; the actor of a page booking is the guest, of a member decision the member', async () => {
      const s = await salon();
      const first = await get(h.app, `/book/${s.business.slug}/${s.location.slug}`);
      const staff = await get(h.app, link(first.html, 'Haircut', true).href);
      const times = await get(h.app, link(staff.html, 'Any staff').href);
      const details = await follow(
        h.app,
        await post(h.app, clickButton(times.html, '10:00').action, clickButton(times.html, '10:00').fields),
      );
      const book = clickButton(details.html, 'Book');
      const guest = { name: 'Kiss Éva', phone: '+36 30 123 4567', email: 'eva@example.com', note: '', terms: 'yes' };
      const done = await follow(h.app, await post(h.app, book.action, { ...book.fields, ...guest }));
      const href = link(done.html, 'Manage booking').href;
      const manage = await page(new URL(href).pathname);
      const [booking] = await sql(h, 'SELECT id FROM bookings WHERE business_id = $1', [s.business.id]);
      assert.ok(textOf(manage.html).includes('Confirmed'));
      const live = await sql(h, 'SELECT 1 FROM manage_tokens WHERE booking_id = $1 AND ended_at IS NULL', [booking.id]);
      assert.equal(live.length, 1);
      // The done page again: the same link.
      assert.equal(link((await get(h.app, done.url)).html, 'Manage booking').href, href);
      const events = await adminOk(h.app, 'GET', `/bookings/${booking.id}/events`);
      assert.deepEqual(
        events.events.map((e: any) => e.actor),
        ['guest', 'guest'],
      );
      // A member's decision (the dashboard's session) is the member's.
      const m = await memberCookie(h.app, h.db, s.business.id, 'frontDesk');
      const r = await asMember(h.app, m.cookie, 'POST', `/bookings/${booking.id}/cancel`, {});
      assert.equal(r.status, 200, r.raw);
      const after = await adminOk(h.app, 'GET', `/bookings/${booking.id}/events`);
      assert.equal(after.events.at(-1).actor, 'member');
      assert.ok(links(manage.html).every((l) => !l.href.startsWith('http') || l.href.startsWith(h.app.ctx.config.publicBaseUrl)));
    });
  });

  describe(`manage page writes [${target.name}]`, () => {
    let h: Harness;
    before(async () => {
      // The limits as configured (the harness's store multiplies them otherwise).
      h = await bookingHarness(target, { rateLimitStore: undefined });
    });
    after(() => h.close());
    const reset = () => {
      h.clock.now = minutesBefore(2 * 1440);
    };

    test('writes: another site is refused; an address is limited to 20 changes an hour', async () => {
      reset();
      const s = await createSalon(h.app);
      const b = await createOk(h, s);
      const path = new URL((await adminOk(h.app, 'POST', `/bookings/${b.bookingId}/manage-link`)).manageUrl).pathname;
      const cross = await post(h.app, `${path}/cancel`, {}, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
      assert.equal(cross.status, 403);
      h.clock.now = minutesBefore(60);
      for (let i = 0; i < 20; i++) assert.equal((await post(h.app, `${path}/cancel`, {}, {}, '203.0.113.77')).status, 409);
      const limited = await post(h.app, `${path}/cancel`, {}, {}, '203.0.113.77');
      assert.equal(limited.status, 429);
      assert.ok(Number(limited.headers['retry-after']) > 0);
      assert.ok(textOf(limited.html).includes('Too many changes'), textOf(limited.html));
      // Another address is counted on its own.
      assert.equal((await post(h.app, `${path}/cancel`, {}, {}, '203.0.113.78')).status, 409);
    });
  });
}
