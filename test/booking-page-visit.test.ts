/**
 * The booking page's visits without a browser (salon-scheduling.md "Visits"; docs/booking-page.md
 * "Several services in one visit"): `Add another service` in the query, the visit search, a hold of
 * every part, the details and done pages listing every part, one create of the whole visit. The
 * Chromium checks are booking-page-visit.e2e.test.ts's.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import ical from 'node-ical';
import { dbTargets } from './helpers/databases.ts';
import type { Harness } from './helpers/harness.ts';
import { bookingHarness, createOk, sql } from './helpers/bookings.ts';
import { clickButton, follow, get, GUEST, h1, link, links, post, textOf, type Page } from './helpers/guest-page.ts';
import { createVisitSalon, type VisitSalon } from './helpers/visit-salon.ts';

const pagePath = (s: VisitSalon) => `/book/${s.business.slug}/${s.location.slug}`;

/** Cut with `staff`, then Colour added: the visit's time step. */
async function visitTimes(h: Harness, s: VisitSalon, staff = 'Anna'): Promise<Page> {
  const services = await get(h.app, pagePath(s));
  const staffStep = await get(h.app, link(services.html, 'Cut', true).href);
  const times = await get(h.app, link(staffStep.html, staff).href);
  const add = await get(h.app, link(times.html, 'Add another service').href);
  assert.equal(h1(add.html), 'Choose another service');
  return get(h.app, link(add.html, 'Colour', true).href);
}

for (const target of dbTargets()) {
  describe(`booking page visits [${target.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await bookingHarness(target);
    });
    after(() => h.close());

    test('Add another service offers the other joinable services, at most four, and each can be removed', async () => {
      const s = await createVisitSalon(h.app);
      const services = await get(h.app, pagePath(s));
      const staffStep = await get(h.app, link(services.html, 'Cut', true).href);
      // Bence does not wash: with him asked for, the wash is not offered.
      const bence = await get(h.app, link(staffStep.html, 'Bence').href);
      const bencesAdd = await get(h.app, link(bence.html, 'Add another service').href);
      assert.deepEqual(
        links(bencesAdd.html)
          .map((l) => l.text)
          .filter((t) => /min/.test(t)),
        ['Colour 60 min · HUF 12,000'],
      );

      const times = await visitTimes(h, s, 'Any staff');
      const text = textOf(times.html);
      assert.ok(text.includes('Your visit'), text);
      assert.ok(text.includes('Total: 90 min'), text);
      assert.ok(text.includes('Cut + Colour · Any staff'), text);
      link(times.html, 'Remove Cut');
      link(times.html, 'Remove Colour');
      // The page's state is in its address: a reload or a shared link shows the same visit.
      assert.match(link(times.html, 'Next week').href, /more=/);

      const add = await get(h.app, link(times.html, 'Add another service').href);
      assert.deepEqual(
        links(add.html)
          .map((l) => l.text.split(' ')[0])
          .filter((n) => ['Cut', 'Colour', 'Wash'].includes(n!)),
        ['Wash'],
        'neither chosen service is offered twice',
      );
      const three = await get(h.app, link(add.html, 'Wash', true).href);
      assert.ok(textOf(three.html).includes('Total: 105 min'));
      assert.throws(() => link(three.html, 'Add another service'), 'nothing left to add');

      // Back to the staff step from a visit with the wash: Bence does not wash, so he is not offered.
      const who = await get(h.app, link(three.html, 'Change staff').href);
      assert.deepEqual(
        links(who.html)
          .map((l) => l.text)
          .filter((t) => ['Anna', 'Bence'].includes(t)),
        ['Anna'],
      );
      const withoutCut = await get(h.app, link(three.html, 'Remove Cut').href);
      assert.ok(textOf(withoutCut.html).includes('Colour + Wash'), textOf(withoutCut.html));

      // A made-up `more` (a service twice, an unknown one) is mended, not searched.
      const twice = await get(h.app, `${pagePath(s)}?service=${s.cut.id}&staff=any&more=${s.cut.id}`);
      assert.equal(twice.status, 303);
      assert.doesNotMatch(String(twice.headers.location), /more=/);
      const five = await get(h.app, `${pagePath(s)}?service=${s.cut.id}&staff=any&more=${s.colour.id},${s.wash.id},x,y`);
      assert.equal(five.status, 303);
    });

    test('the visit is held, shown part by part, and booked as one visit with source bookingPage', async () => {
      const s = await createVisitSalon(h.app);
      const times = await visitTimes(h, s);
      const hold = clickButton(times.html, '10:00');
      const details = await follow(h.app, await post(h.app, hold.action, hold.fields));
      assert.equal(h1(details.html), 'Your details');
      const shown = textOf(details.html);
      assert.ok(shown.includes('Service 1 Cut · Anna · 10:00–10:30'), shown);
      assert.ok(shown.includes('Service 2 Colour · Anna · 10:30–11:30'), shown);
      assert.ok(shown.includes('Total 90 min · HUF 17,000'), shown);
      const held = await sql(h, 'SELECT service_id, status FROM holds WHERE business_id = $1 ORDER BY start_at', [s.business.id]);
      assert.deepEqual(
        held.map((r) => [r.service_id, r.status]),
        [
          [s.cut.id, 'active'],
          [s.colour.id, 'active'],
        ],
      );

      const book = clickButton(details.html, 'Book');
      const done = await follow(h.app, await post(h.app, book.action, { ...book.fields, ...GUEST }));
      assert.equal(h1(done.html), 'Booking confirmed');
      const doneText = textOf(done.html);
      assert.ok(doneText.includes('Cut · Anna · 10:00–10:30'), doneText);
      assert.ok(doneText.includes('Colour · Anna · 10:30–11:30'), doneText);
      const rows = await sql(
        h,
        'SELECT service_id, visit_id, source, status, public_reference FROM bookings WHERE business_id = $1 ORDER BY start_at',
        [s.business.id],
      );
      assert.equal(rows.length, 2);
      assert.ok(rows[0].visit_id && rows[0].visit_id === rows[1].visit_id, 'one visit');
      assert.deepEqual(
        rows.map((r) => [r.service_id, r.source, r.status]),
        [
          [s.cut.id, 'bookingPage', 'confirmed'],
          [s.colour.id, 'bookingPage', 'confirmed'],
        ],
      );
      for (const r of rows) assert.ok(doneText.includes(r.public_reference), 'each part with its reference');

      const ics = await get(h.app, link(done.html, 'Add to calendar').href);
      const events = Object.values(ical.sync.parseICS(ics.html)).filter((e) => e?.type === 'VEVENT');
      assert.equal(events.length, 2, 'one event per part');

      // The same form again is the same visit, not a second one.
      const again = await post(h.app, book.action, { ...book.fields, ...GUEST });
      assert.equal(again.status, 303);
      assert.equal((await sql(h, 'SELECT 1 FROM bookings WHERE business_id = $1', [s.business.id])).length, 2);
    });

    test('in Hungarian: Add another service and the visit summary have their own words', async () => {
      const s = await createVisitSalon(h.app);
      const base = `${pagePath(s)}?service=${s.cut.id}&staff=any&lang=hu`;
      const one = await get(h.app, base);
      const add = await get(h.app, link(one.html, 'Újabb szolgáltatás hozzáadása').href);
      assert.equal(h1(add.html), 'Válasszon még egy szolgáltatást');
      const visit = await get(h.app, link(add.html, 'Colour', true).href);
      const text = textOf(visit.html);
      assert.ok(text.includes('Az Ön látogatása'), text);
      assert.ok(text.includes('Összesen: 90 perc'), text);
      link(visit.html, 'Cut eltávolítása');
    });

    test('a visit whose later part was taken after the time step is not held, and the guest is told', async () => {
      const s = await createVisitSalon(h.app);
      const times = await visitTimes(h, s);
      const hold = clickButton(times.html, '10:00');
      // Anna's 10:30 goes to someone else before the click: the colour no longer fits after the cut.
      await createOk(h, s, { service: s.cut, staffId: s.staff[0]!.id, date: hold.fields.date, startTime: '10:30' });
      const back = await post(h.app, hold.action, hold.fields);
      assert.equal(back.status, 303);
      assert.match(String(back.headers.location), /gone=1/);
      assert.match(String(back.headers.location), /more=/);
      const page = await get(h.app, String(back.headers.location));
      assert.ok(textOf(page.html).includes('That time is no longer available'));
      assert.equal((await sql(h, `SELECT 1 FROM holds WHERE business_id = $1 AND status = 'active'`, [s.business.id])).length, 0);
    });
  });
}
