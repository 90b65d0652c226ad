/**
 * The waitlist (guest-side.md "Waitlist"; docs/waitlist.md): joining from the booking page's time
 * step, a freed time offered to the oldest matching entry and held for offerMinutes, claimed
 * through the link into a booking, passed on to the next entry when not claimed, withdrawal,
 * expiry after the last date, removed time off, and the operator read. Through `inject`, with the
 * real job worker running the booking follow-up and the waitlist's own jobs, on both databases.
 *
 * Time at the offer's end is driven in the database: the offer's and its hold's expires_at are set
 * a second into the past and the expiry job's run_at to now(), as if offerMinutes had gone by.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { linkToken } from '../src/domain/guest-links.ts';
import { startJobWorker } from '../src/jobs/start.ts';
import type { JobWorker } from '../src/jobs/worker.ts';
import { expirePastEntries } from '../src/store/waitlist.ts';
import { isolatedDbTargets } from './helpers/isolated-databases.ts';
import { admin, adminOk, type Harness } from './helpers/harness.ts';
import { createSalon, type SalonFixture } from './helpers/fixtures.ts';
import { BASE_NOW, cancel, createBooking, createOk, day, operatorOk, sql } from './helpers/bookings.ts';
import { startHarness } from './helpers/harness.ts';
import { parseMail, startMailSink, waitUntil, type MailSink } from './helpers/message-sinks.ts';
import { clickButton, follow, get, h1, link, post, textOf } from './helpers/guest-page.ts';

const pagePath = (s: SalonFixture) => `/book/${s.business.slug}/${s.location.slug}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor<T>(what: string, read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > until) throw new Error(`${what}: not reached within ${timeoutMs} ms; last ${JSON.stringify(v)}`);
    await sleep(50);
  }
}

interface JoinFields {
  name?: string;
  phone?: string;
  email?: string;
  from?: string;
  to?: string;
  earliest?: string;
  latest?: string;
  staff?: string;
}

/** The join form of the Haircut's time step, sent with `fields` over the valid defaults. */
async function join(h: Harness, s: SalonFixture, fields: JoinFields, extra: Record<string, string> = {}) {
  const form = await get(h.app, `${pagePath(s)}/waitlist?service=${s.service.id}&staff=${s.staff[0]!.id}&week=${day(3)}`);
  assert.equal(form.status, 200, form.html);
  const click = clickButton(form.html, 'Join the waitlist');
  const values = {
    name: 'Váró Vera',
    phone: '+36 30 111 2222',
    email: 'vera@example.com',
    from: day(3),
    to: day(3),
    earliest: '10:00',
    latest: '10:00',
    staff: s.staff[0]!.id,
    ...fields,
  };
  return post(h.app, click.action, { ...click.fields, ...values, ...extra });
}

async function joinOk(h: Harness, s: SalonFixture, fields: JoinFields): Promise<string> {
  const r = await join(h, s, fields);
  assert.equal(r.status, 303, textOf(r.html).slice(0, 400));
  const done = await follow(h.app, r);
  assert.equal(h1(done.html), 'You are on the waitlist');
  const [row] = await sql(h, 'SELECT id FROM waitlist_entries WHERE email = $1 ORDER BY created_at DESC LIMIT 1', [
    fields.email ?? 'vera@example.com',
  ]);
  return row.id;
}

const offersOf = (h: Harness, businessId: string) =>
  sql(
    h,
    `SELECT o.id, o.entry_id, o.hold_id, o.status, o.claim_nonce, to_char(o.slot_date, 'YYYY-MM-DD') AS date, o.slot_start_time,
            o.booking_id FROM waitlist_offers o WHERE o.business_id = $1 ORDER BY o.created_at`,
    [businessId],
  );
const statusOf = async (h: Harness, entryId: string) =>
  (await sql(h, 'SELECT status FROM waitlist_entries WHERE id = $1', [entryId]))[0]?.status;

for (const target of isolatedDbTargets()) {
  describe(`waitlist [${target.name}]`, () => {
    let h: Harness;
    let worker: JobWorker;
    let sink: MailSink;
    before(async () => {
      sink = await startMailSink();
      h = await startHarness(target, { smtpUrl: sink.url });
      h.clock.now = new Date(BASE_NOW);
      worker = await startJobWorker({
        db: h.db,
        config: h.app.ctx.config,
        webhooks: false,
        housekeeping: false,
        pollIntervalMs: 100,
        clock: () => h.clock.now,
      });
    });
    after(async () => {
      await worker.stop();
      await h.close();
      await sink.close();
    });

    /** The claim link of the waitlist.offer mail a guest received, as a path. */
    async function offerMailClaimPath(to: string): Promise<string> {
      let path: string | undefined;
      await waitUntil(`the offer mail to ${to}`, () => {
        const mail = sink.mails.filter((m) => m.to.includes(to)).map((m) => parseMail(m.raw))[0];
        path = mail ? /https?:\/\/[^/\s]+(\/claim\/[A-Za-z0-9_-]{43})/.exec(mail.text)?.[1] : undefined;
        return path !== undefined;
      });
      return path!;
    }

    test('the time step offers Join the waitlist; the form refuses bad input beside each field, in words', async () => {
      const s = await createSalon(h.app);
      const times = await get(h.app, `${pagePath(s)}?service=${s.service.id}&staff=${s.staff[0]!.id}`);
      assert.equal(h1(times.html), 'Choose a time');
      assert.match(textOf(times.html), /No time that suits you\? Join the waitlist/);
      const form = await get(h.app, link(times.html, 'Join the waitlist').href);
      assert.equal(form.status, 200);
      assert.equal(h1(form.html), 'Join the waitlist');
      for (const label of ['Name', 'Phone', 'Email', 'From', 'To', 'Earliest time', 'Latest time', 'Staff']) {
        assert.match(form.html, new RegExp(`<label for="w-[a-z]+">${label}</label>`), label);
      }
      assert.match(form.html, /<option value="any">Any staff<\/option>/);

      const bad = await join(h, s, { name: ' ', phone: '12', email: 'no-at', from: day(-2), earliest: '10:00', latest: '09:00' });
      assert.equal(bad.status, 400);
      const text = textOf(bad.html);
      for (const words of [
        'Please enter your name.',
        'This does not look like a phone number.',
        'This does not look like an email address.',
        'This day has already passed.',
        'The latest time cannot be before the earliest time.',
      ]) {
        assert.ok(text.includes(words), words);
      }
      assert.match(bad.html, /id="w-name"[^>]*aria-describedby="w-name-error"|aria-describedby="w-name-error"[^>]*id="w-name"/);
      assert.match(bad.html, /value="no-at"/, 'what the guest typed is kept');
      const toBefore = await join(h, s, { from: day(5), to: day(4) });
      assert.ok(textOf(toBefore.html).includes('The last day cannot be before the first day.'));
      assert.equal((await sql(h, 'SELECT count(*)::int AS n FROM waitlist_entries WHERE business_id = $1', [s.business.id]))[0].n, 0);

      // The honeypot: nothing is written.
      const robot = await join(h, s, {}, { website: 'http://spam.example' });
      assert.equal(robot.status, 200);
      assert.equal((await sql(h, 'SELECT count(*)::int AS n FROM waitlist_entries WHERE business_id = $1', [s.business.id]))[0].n, 0);

      // Another site's post is refused before anything is read.
      const click = clickButton(form.html, 'Join the waitlist');
      const cross = await post(h.app, click.action, { ...click.fields, name: 'X' }, { 'sec-fetch-site': 'cross-site' });
      assert.equal(cross.status, 403);

      const hu = await get(h.app, `${pagePath(s)}/waitlist?service=${s.service.id}&lang=hu`);
      assert.equal(h1(hu.html), 'Feliratkozás a várólistára');

      await joinOk(h, s, { email: 'ok@example.com' });
      const [entry] = await sql(h, 'SELECT status, phone, lang, earliest_time, latest_time FROM waitlist_entries WHERE business_id = $1', [
        s.business.id,
      ]);
      assert.deepEqual(entry, { status: 'waiting', phone: '+36301112222', lang: 'en', earliest_time: '10:00', latest_time: '10:00' });

      // A business without a waitlist shows no link and no form.
      await adminOk(h.app, 'PATCH', `/businesses/${s.business.slug}/guest-settings`, { waitlist: { enabled: false } });
      const off = await get(h.app, `${pagePath(s)}?service=${s.service.id}&staff=${s.staff[0]!.id}`);
      assert.ok(!textOf(off.html).includes('Join the waitlist'));
      assert.equal((await get(h.app, `${pagePath(s)}/waitlist?service=${s.service.id}`)).status, 404);
    });

    test('a freed time goes to the oldest matching entry, held for offerMinutes, passed on unclaimed, claimed into a booking', async () => {
      const s = await createSalon(h.app);
      const anna = s.staff[0]!;
      const taken = await createOk(h, s, { staffId: anna.id, date: day(3), startTime: '10:00' });
      // The oldest entry wants 14:00, free all along: the freed 10:00 is not for it.
      const a = await joinOk(h, s, { email: 'a@example.com', earliest: '14:00', latest: '14:00' });
      const b = await joinOk(h, s, { email: 'b@example.com' });
      const c = await joinOk(h, s, { email: 'c@example.com' });

      const r = await cancel(h, s, taken.bookingId);
      assert.equal(r.status, 200, r.raw);
      const [first] = await waitFor(
        'an offer',
        () => offersOf(h, s.business.id),
        (o) => o.length === 1,
      );
      assert.equal(first.entry_id, b, 'the oldest matching entry');
      assert.deepEqual([first.date, first.slot_start_time, first.status], [day(3), '10:00', 'open']);
      assert.deepEqual([await statusOf(h, a), await statusOf(h, b), await statusOf(h, c)], ['waiting', 'offered', 'waiting']);

      // Held for offerMinutes (30 by default): nobody else gets the time meanwhile.
      const [hold] = await sql(
        h,
        `SELECT status, staff_id, extract(epoch FROM expires_at - created_at)::int AS seconds FROM holds WHERE id = $1`,
        [first.hold_id],
      );
      assert.deepEqual(hold, { status: 'active', staff_id: anna.id, seconds: 1800 });
      const other = await createBooking(h, s, { staffId: anna.id, date: day(3), startTime: '10:00' });
      assert.equal(other.status, 409, other.raw);

      // Its message, planned with it: the fields the messages' worker writes the mail from.
      const msgs = await sql(
        h,
        `SELECT channel, audience, recipient, lang, unique_key, data, booking_id, scheduled_at <= now() AS due FROM messages WHERE waitlist_entry_id = $1`,
        [b],
      );
      assert.equal(msgs.length, 1);
      const m = msgs[0];
      assert.equal(m.due, true, 'due at once by the database clock, whatever the app clock says');
      assert.deepEqual([m.channel, m.audience, m.recipient, m.lang, m.booking_id], ['email', 'guest', 'b@example.com', 'en', null]);
      assert.equal(m.unique_key, `waitlist.offer:${first.id}:email`);
      const data = typeof m.data === 'string' ? JSON.parse(m.data) : m.data;
      assert.deepEqual(Object.keys(data).sort(), [
        'claimNonce',
        'date',
        'expiresAt',
        'locationName',
        'offerId',
        'salonName',
        'serviceName',
        'staffName',
        'startTime',
        'timezone',
        'withdrawNonce',
      ]);
      assert.deepEqual(
        [data.offerId, data.claimNonce, data.date, data.startTime, data.staffName, data.timezone, data.serviceName],
        [first.id, first.claim_nonce, day(3), '10:00', 'Anna', 'Europe/Budapest', 'Haircut'],
      );

      // ... and sent: the mail's claim link is the offer's
      assert.equal(await offerMailClaimPath('b@example.com'), `/claim/${linkToken(h.app.ctx.serverSecret, 'claim', first.claim_nonce)}`);

      // offerMinutes go by unclaimed: the offer passes, B waits again, C (next in join order) gets the time.
      await sql(h, `UPDATE holds SET expires_at = now() - interval '1 second' WHERE id = $1`, [first.hold_id]);
      await sql(h, `UPDATE waitlist_offers SET expires_at = now() - interval '1 second' WHERE id = $1`, [first.id]);
      const moved = await sql(
        h,
        `UPDATE jobs SET run_at = now() WHERE kind = 'waitlist.offer_expiry' AND payload->>'offerId' = $1 RETURNING id`,
        [first.id],
      );
      assert.equal(moved.length, 1, 'the expiry job was planned with the offer');
      const offers = await waitFor(
        'the offer passed on',
        () => offersOf(h, s.business.id),
        (o) => o.length === 2,
      );
      assert.equal(offers[0].status, 'passed');
      assert.equal(offers[1].entry_id, c);
      assert.deepEqual([await statusOf(h, a), await statusOf(h, b), await statusOf(h, c)], ['waiting', 'waiting', 'offered']);

      const secret = h.app.ctx.serverSecret;
      // The passed offer's link says so.
      const ended = await get(h.app, `/claim/${linkToken(secret, 'claim', first.claim_nonce)}`);
      assert.equal(ended.status, 410);
      assert.equal(h1(ended.html), 'This offer has ended');

      // C claims through the link: the details confirmation, then the booking page's done page.
      const claimUrl = await offerMailClaimPath('c@example.com');
      assert.equal(claimUrl, `/claim/${linkToken(secret, 'claim', offers[1].claim_nonce)}`);
      const page = await get(h.app, claimUrl);
      assert.equal(page.status, 200, page.html);
      assert.equal(h1(page.html), 'A time has freed up for you');
      assert.equal(page.headers['referrer-policy'], 'no-referrer');
      assert.equal(page.headers['cache-control'], 'no-store');
      assert.match(page.html, /<meta name="robots" content="noindex/);
      const unticked = await post(h.app, claimUrl, { lang: 'en' });
      assert.equal(unticked.status, 400);
      assert.ok(textOf(unticked.html).includes('Please accept the terms to book.'));
      const claimed = await post(h.app, claimUrl, { lang: 'en', terms: 'yes' });
      assert.equal(claimed.status, 303, textOf(claimed.html).slice(0, 300));
      const done = await follow(h.app, claimed);
      assert.equal(h1(done.html), 'Booking confirmed');
      const [offer] = (await offersOf(h, s.business.id)).slice(1);
      assert.equal(offer.status, 'claimed');
      const [booking] = await sql(h, 'SELECT source, staff_id FROM bookings WHERE id = $1', [offer.booking_id]);
      assert.equal(booking.source, 'bookingPage');
      assert.equal(booking.staff_id, anna.id);
      assert.equal(await statusOf(h, c), 'booked');
      // A second send of the form is the same booking.
      const again = await post(h.app, claimUrl, { lang: 'en', terms: 'yes' });
      assert.equal(again.status, 303);
      assert.equal(
        (await sql(h, 'SELECT count(*)::int AS n FROM bookings WHERE business_id = $1 AND status <> $2', [s.business.id, 'cancelled']))[0]
          .n,
        1,
      );

      // B leaves the list through the withdraw link: a confirm form, then withdrawn.
      const [bRow] = await sql(h, 'SELECT withdraw_nonce FROM waitlist_entries WHERE id = $1', [b]);
      const withdrawUrl = `/waitlist/withdraw/${linkToken(secret, 'withdraw', bRow.withdraw_nonce)}`;
      const confirm = await get(h.app, withdrawUrl);
      assert.equal(confirm.status, 200);
      assert.equal(h1(confirm.html), 'Leave the waitlist');
      assert.equal(await statusOf(h, b), 'waiting', 'opening the link changes nothing');
      const left = await post(h.app, withdrawUrl, {});
      assert.equal(h1(left.html), 'You have left the waitlist');
      assert.equal(await statusOf(h, b), 'withdrawn');
      assert.equal(h1((await post(h.app, withdrawUrl, {})).html), 'This waitlist entry has ended');
      assert.equal((await get(h.app, '/claim/not-a-token')).status, 404);

      // A's last date goes by: it reads as expired at once, and housekeeping writes it so.
      await sql(h, `UPDATE waitlist_entries SET from_date = '2020-01-01', to_date = '2020-01-02' WHERE id = $1`, [a]);
      const list = await adminOk(h.app, 'GET', `/businesses/${s.business.slug}/waitlist`);
      const byId = new Map(list.waitlist.map((e: any) => [e.entryId, e]));
      assert.deepEqual(
        [a, b, c].map((id) => (byId.get(id) as any).status),
        ['expired', 'withdrawn', 'booked'],
      );
      const cView = byId.get(c) as any;
      assert.deepEqual(
        [cView.serviceName, cView.staffName, cView.email, cView.phone, cView.dateRange, cView.timeWindow, cView.bookingId],
        [
          'Haircut',
          'Anna',
          'c@example.com',
          '+36301112222',
          { from: day(3), to: day(3) },
          { earliest: '10:00', latest: '10:00' },
          offer.booking_id,
        ],
      );
      assert.ok((await expirePastEntries(h.db)) >= 1);
      assert.equal(await statusOf(h, a), 'expired');

      const booked = await adminOk(h.app, 'GET', `/businesses/${s.business.slug}/waitlist?status=booked`);
      assert.deepEqual(
        booked.waitlist.map((e: any) => e.entryId),
        [c],
      );
      const firstPage = await admin(h.app, 'GET', `/businesses/${s.business.slug}/waitlist?limit=2`);
      assert.equal(firstPage.body.data.waitlist.length, 2);
      const second = await adminOk(
        h.app,
        'GET',
        `/businesses/${s.business.slug}/waitlist?limit=2&cursor=${encodeURIComponent(firstPage.body.meta.cursor)}`,
      );
      assert.deepEqual(
        [...firstPage.body.data.waitlist, ...second.waitlist].map((e: any) => e.entryId),
        [c, b, a],
      );
    });

    test('a proposal frees the old time, a declined proposal the proposed one, a move the old one: each is offered', async () => {
      const s = await createSalon(h.app);
      const anna = s.staff[0]!;
      const want = (email: string, date: string, time: string) =>
        joinOk(h, s, { email, from: date, to: date, earliest: time, latest: time });
      const proposed = await createOk(h, s, { staffId: anna.id, date: day(5), startTime: '10:00' });
      const moved = await createOk(h, s, { staffId: anna.id, date: day(6), startTime: '10:00' });
      const e1 = await want('p1@example.com', day(5), '10:00');
      const e2 = await want('p2@example.com', day(5), '15:00');
      const e3 = await want('p3@example.com', day(6), '10:00');
      const offered = async (n: number) =>
        waitFor(
          `${n} offers`,
          () => offersOf(h, s.business.id),
          (o) => o.length === n,
        );

      // The salon proposes 15:00: the booking now holds 15:00, and 10:00 goes to the entry for it.
      await operatorOk(h, proposed.bookingId, 'propose', { date: day(5), startTime: '15:00' });
      let offers = await offered(1);
      assert.deepEqual([offers[0].entry_id, offers[0].date, offers[0].slot_start_time], [e1, day(5), '10:00']);

      // The proposal is declined: 15:00 is free again and goes to the entry for it.
      await operatorOk(h, proposed.bookingId, 'decline');
      offers = await offered(2);
      assert.deepEqual([offers[1].entry_id, offers[1].date, offers[1].slot_start_time], [e2, day(5), '15:00']);

      // A confirmed booking moved from 10:00 to 16:00: the old time goes to the entry for it.
      await operatorOk(h, moved.bookingId, 'reschedule', { date: day(6), startTime: '16:00' });
      offers = await offered(3);
      assert.deepEqual([offers[2].entry_id, offers[2].date, offers[2].slot_start_time], [e3, day(6), '10:00']);
      assert.deepEqual([await statusOf(h, e1), await statusOf(h, e2), await statusOf(h, e3)], ['offered', 'offered', 'offered']);
    });

    test('removing time off offers the freed time to a matching entry', async () => {
      const s = await createSalon(h.app);
      const bence = s.staff[1]!;
      const off = await adminOk(h.app, 'POST', `/staff/${bence.id}/time-off`, {
        from: { date: day(4), time: '09:00' },
        to: { date: day(4), time: '17:00' },
      });
      const d = await joinOk(h, s, {
        email: 'd@example.com',
        from: day(4),
        to: day(4),
        earliest: '11:00',
        latest: '11:00',
        staff: bence.id,
      });
      const r = await admin(h.app, 'DELETE', `/time-off/${off.timeOff.id}`);
      assert.equal(r.status, 200, r.raw);
      const [offer] = await waitFor(
        'an offer',
        () => offersOf(h, s.business.id),
        (o) => o.length === 1,
      );
      assert.deepEqual([offer.entry_id, offer.date, offer.slot_start_time], [d, day(4), '11:00']);
      assert.equal(await statusOf(h, d), 'offered');
    });
  });
}
