/**
 * The manage page of a visit (salon-scheduling.md "Visits": the manage page cancels or moves the
 * whole visit; docs/scheduling.md "The guest's visit"): every part shown from any part's link;
 * `Cancel booking` cancels every part under the notice counted from the visit's start; a move is
 * searched and held as a visit and moves every part in one transaction; a time some part cannot
 * have is refused and changes nothing. Through `inject`, on every database target.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dbTargets } from './helpers/databases.ts';
import { adminOk, type Harness } from './helpers/harness.ts';
import { BASE_NOW, bookingHarness, createBooking, createOk, day, sql } from './helpers/bookings.ts';
import { buttonTexts, clickButton, follow, get, link, post, textOf } from './helpers/guest-page.ts';
import { createVisitSalon, type VisitSalon } from './helpers/visit-salon.ts';
import { signChoice } from '../src/domain/booking-page/tokens.ts';
import { api } from './helpers/fixtures.ts';

/** day(2) 10:00 in Budapest: the visit's start. */
const START = new Date(`${day(2)}T08:00:00.000Z`);

for (const target of dbTargets()) {
  describe(`manage page visits [${target.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await bookingHarness(target);
    });
    after(() => h.close());

    /** Cut then Colour with Anna on day(2) at 10:00, booked through the API; its parts in order. */
    async function visit(s: VisitSalon): Promise<Array<{ bookingId: string }>> {
      h.clock.now = new Date(BASE_NOW);
      const anna = s.staff[0]!.id;
      const r = await createBooking(h, s, {
        serviceId: undefined,
        staffId: undefined,
        expectedPricingVersion: undefined,
        visit: [
          { serviceId: s.cut.id, staffId: anna },
          { serviceId: s.colour.id, staffId: anna },
        ],
      });
      assert.equal(r.status, 201, r.raw);
      return r.body.data.visit.bookings;
    }

    async function manageLink(bookingId: string): Promise<string> {
      const r = await adminOk(h.app, 'POST', `/bookings/${bookingId}/manage-link`);
      return new URL(r.manageUrl).pathname;
    }

    const partsOf = (s: VisitSalon) =>
      sql(
        h,
        `SELECT id, status, visit_id, staff_id, to_char(start_at AT TIME ZONE 'Europe/Budapest', 'YYYY-MM-DD HH24:MI') AS starts,
                to_char(end_at AT TIME ZONE 'Europe/Budapest', 'HH24:MI') AS ends
           FROM bookings WHERE business_id = $1 AND visit_id IS NOT NULL ORDER BY start_at`,
        [s.business.id],
      );

    test("any part's link shows every part, and Cancel booking cancels the whole visit as the guest", async () => {
      const s = await createVisitSalon(h.app);
      const parts = await visit(s);
      const path = await manageLink(parts[1]!.bookingId);
      const page = await get(h.app, path);
      assert.equal(page.status, 200);
      const text = textOf(page.html);
      assert.ok(text.includes('Service 1 Cut · Anna · 10:00–10:30'), text);
      assert.ok(text.includes('Service 2 Colour · Anna · 10:30–11:30'), text);
      assert.ok(text.includes('Cancelling cancels every service of this visit.'), text);

      const confirm = await get(h.app, `${path}/cancel`);
      const click = clickButton(confirm.html, 'Cancel booking');
      const done = await follow(h.app, await post(h.app, click.action, click.fields));
      assert.ok(textOf(done.html).includes('Your booking is cancelled.'));
      const after = await partsOf(s);
      assert.deepEqual(
        after.map((p) => p.status),
        ['cancelled', 'cancelled'],
      );
      const events = await sql(
        h,
        `SELECT booking_id, actor FROM booking_events WHERE event = 'booking.cancelled' AND booking_id = ANY($1) ORDER BY booking_id`,
        [after.map((p) => p.id)],
      );
      assert.deepEqual(
        events.map((e) => e.actor),
        ['guest', 'guest'],
        'one guest cancel per part',
      );
    });

    test("the cancel's notice counts from the visit's start: too late for the first part is too late for the visit", async () => {
      const s = await createVisitSalon(h.app);
      const parts = await visit(s);
      const path = await manageLink(parts[1]!.bookingId);
      // 23 hours before the cut: inside the default 24-hour notice of the visit, not of the colour's 10:30.
      h.clock.now = new Date(START.getTime() - 23 * 3_600_000 - 40 * 60_000);
      const page = await get(h.app, path);
      assert.ok(!buttonTexts(page.html).includes('Cancel booking'), 'not offered');
      const refused = await post(h.app, `${path}/cancel`, { lang: 'en' });
      assert.equal(refused.status, 409);
      assert.ok(textOf(refused.html).includes('It is too late to do this online.'));
      assert.deepEqual(
        (await partsOf(s)).map((p) => p.status),
        ['confirmed', 'confirmed'],
      );
    });

    test('Reschedule moves every part to a visit time, back to back, each with its own event', async () => {
      const s = await createVisitSalon(h.app);
      const parts = await visit(s);
      const path = await manageLink(parts[0]!.bookingId);
      const page = await get(h.app, path);
      const times = await get(h.app, link(page.html, 'Reschedule').href);
      assert.equal(times.status, 200, textOf(times.html).slice(0, 300));
      assert.ok(textOf(times.html).includes('Cut + Colour · Anna'), textOf(times.html).slice(0, 400));
      // Day 3 at 14:00: searched as the whole visit, so 16:00 (the colour would end after 17:00) is not there.
      const day3 = new RegExp(`<section[^>]*aria-labelledby="d-${day(3)}"[\\s\\S]*?</section>`).exec(times.html)![0];
      assert.ok(day3.includes('>14:00<'));
      assert.ok(!day3.includes('>16:00<'), 'the colour would end after the working day');
      const form = clickButton(day3, '14:00');
      const confirm = await follow(h.app, await post(h.app, `${path}/hold`, form.fields));
      assert.ok(textOf(confirm.html).includes('Cut · Anna · 14:00–14:30; Colour · Anna · 14:30–15:30'), textOf(confirm.html));
      const go = clickButton(confirm.html, 'Confirm new time');
      const done = await follow(h.app, await post(h.app, go.action, go.fields));
      assert.ok(textOf(done.html).includes('Your booking has moved to the new time.'));
      const after = await partsOf(s);
      assert.deepEqual(
        after.map((p) => [p.status, p.starts, p.ends]),
        [
          ['confirmed', `${day(3)} 14:00`, '14:30'],
          ['confirmed', `${day(3)} 14:30`, '15:30'],
        ],
      );
      assert.equal(after[0].visit_id, after[1].visit_id);
      const events = await sql(
        h,
        `SELECT actor FROM booking_events WHERE event = 'booking.reschedule_confirmed' AND booking_id = ANY($1)`,
        [after.map((p) => p.id)],
      );
      assert.deepEqual(
        events.map((e) => e.actor),
        ['guest', 'guest'],
      );
    });

    test('a new time some part cannot have is refused beside the times, and nothing moves', async () => {
      const s = await createVisitSalon(h.app);
      const parts = await visit(s);
      const path = await manageLink(parts[0]!.bookingId);
      const times = await get(h.app, `${path}/reschedule?lang=en`);
      const day3 = new RegExp(`<section[^>]*aria-labelledby="d-${day(3)}"[\\s\\S]*?</section>`).exec(times.html)![0];
      const form = clickButton(day3, '14:00');
      // Someone takes Anna's 14:30 on day 3 meanwhile: the cut would fit, the colour after it no longer.
      await createOk(h, s, { service: s.cut, staffId: s.staff[0]!.id, date: day(3), startTime: '14:30' });
      const back = await post(h.app, `${path}/hold`, form.fields);
      assert.equal(back.status, 303);
      const again = await get(h.app, String(back.headers.location));
      assert.ok(textOf(again.html).includes('That time is no longer available'), textOf(again.html).slice(0, 400));
      assert.deepEqual(
        (await partsOf(s)).map((p) => [p.status, p.starts, p.ends]),
        [
          ['confirmed', `${day(2)} 10:00`, '10:30'],
          ['confirmed', `${day(2)} 10:30`, '11:30'],
        ],
      );
      assert.equal((await sql(h, `SELECT 1 FROM holds WHERE business_id = $1 AND status = 'active'`, [s.business.id])).length, 0);
    });

    test("one part's own hold (a page from before it was a visit) never moves that part alone", async () => {
      const s = await createVisitSalon(h.app);
      const parts = await visit(s);
      const path = await manageLink(parts[0]!.bookingId);
      const held = await api(
        h.app,
        s.key.secret,
        'POST',
        '/holds',
        {
          salonSlug: s.business.slug,
          locationSlug: s.location.slug,
          serviceId: s.cut.id,
          staffId: s.staff[0]!.id,
          slot: { date: day(3), startTime: '14:00' },
        },
        { 'idempotency-key': crypto.randomUUID() },
      );
      assert.equal(held.status, 201, held.raw);
      const hold = held.body.data.hold;
      const c = signChoice(h.app.ctx.serverSecret, {
        k: 'hold',
        h: hold.holdId,
        s: s.cut.id,
        st: null,
        n: 'Anna',
        d: day(3),
        t: '14:00',
        x: Date.parse(hold.expiresAt),
      });
      const r = await post(h.app, `${path}/reschedule`, { c, lang: 'en' });
      assert.equal(r.status, 303);
      assert.match(String(r.headers.location), /gone=1/);
      assert.deepEqual(
        (await partsOf(s)).map((p) => p.starts),
        [`${day(2)} 10:00`, `${day(2)} 10:30`],
      );
    });
  });
}
