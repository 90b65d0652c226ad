/**
 * Reports (clients-and-reports.md "Reports"): a month built by hand, whose every figure is the
 * worked example of docs/reports.md (read from the doc, so the doc cannot drift from the code);
 * a DST month's working minutes; the query's validation; who may read a report.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { bookingHarness, createOk, operatorOk, sql } from './helpers/bookings.ts';
import { dbTargets } from './helpers/databases.ts';
import { createLocation, createService, createSalon, createStaff, type SalonFixture } from './helpers/fixtures.ts';
import { admin, adminOk, type Harness } from './helpers/harness.ts';

/** The expected report of docs/reports.md's worked example, staff and services by name. */
function workedExample(): Record<string, any> {
  const doc = readFileSync(join(import.meta.dirname, '..', 'docs', 'reports.md'), 'utf8');
  const block = /<!-- worked-example[^>]*-->\s*```json\n([\s\S]*?)\n```/.exec(doc);
  assert.ok(block, 'docs/reports.md has the worked example');
  return JSON.parse(block[1]!);
}

const EVA = { name: 'Kiss Éva', phone: '+36301000001' };
const ODON = { name: 'Nagy Ödön', phone: '+36301000002' };
const FLORA = { name: 'Szabó Flóra', phone: '+36301000003' };

/** A local Budapest summer time (UTC+2) as an instant. */
const local = (date: string, time: string) => new Date(`${date}T${time}:00+02:00`);

for (const target of dbTargets()) {
  describe(`reports [${target.name}]`, () => {
    let h: Harness;
    let salon: SalonFixture;
    let slug: string;
    before(async () => {
      h = await bookingHarness(target);
      salon = await createSalon(h.app);
      slug = salon.business.slug;
    });
    after(() => h.close());

    const manual = async (guest: Record<string, unknown>, staff: number, serviceId: string, date: string, startTime: string) =>
      (
        await adminOk(h.app, 'POST', `/businesses/${slug}/bookings`, {
          locationSlug: salon.location.slug,
          serviceId,
          staffId: salon.staff[staff]!.id,
          date,
          startTime,
          guest,
        })
      ).booking;
    const viaApi = (guest: Record<string, unknown>, staff: number, service: SalonFixture['service'], date: string, startTime: string) =>
      createOk(h, salon, { guest, service, staffId: salon.staff[staff]!.id, date, startTime });
    const at = (instant: Date) => {
      h.clock.now = instant;
    };

    test("the worked example: June 2031's every figure", async () => {
      at(local('2031-05-01', '10:00'));
      const [anna, bence] = salon.staff.map((s) => s.id) as [string, string];
      const colour = await createService(h.app, slug, salon.location.slug, {
        name: 'Colour',
        durationMinutes: 60,
        price: { amount: 20000, currency: 'HUF' },
        segments: [
          { kind: 'work', minutes: 15 },
          { kind: 'processing', minutes: 30 },
          { kind: 'work', minutes: 15 },
        ],
      });
      const consultation = await createService(h.app, slug, salon.location.slug, {
        name: 'Consultation',
        durationMinutes: 45,
        priceType: 'negotiable',
        price: null,
      });
      const haircut = salon.service;
      const colouring = salon.manualService;
      const all = [haircut.id, colouring.id, colour.id, consultation.id];
      await adminOk(h.app, 'PATCH', `/staff/${anna}`, { serviceIds: all });
      await adminOk(h.app, 'PATCH', `/staff/${bence}`, { serviceIds: all });
      await adminOk(h.app, 'POST', `/staff/${bence}/time-off`, {
        from: { date: '2031-06-10', time: '07:00' },
        to: { date: '2031-06-10', time: '13:00' },
      });

      await viaApi(EVA, 0, haircut, '2031-05-20', '10:00'); // Éva's first visit, before the period
      const b1 = await viaApi(EVA, 0, haircut, '2031-06-02', '10:00');
      const b3 = await viaApi(ODON, 1, haircut, '2031-06-03', '11:00');
      const b4 = await manual(ODON, 1, haircut.id, '2031-06-04', '09:00');
      const b5 = await viaApi(FLORA, 0, colouring, '2031-06-05', '13:00');
      assert.equal(b5.status, 'requested');
      const b6 = await viaApi(FLORA, 0, colouring, '2031-06-06', '13:00');
      await operatorOk(h, b6.bookingId, 'decline');
      const b7 = await manual(FLORA, 1, consultation.id, '2031-06-07', '10:00');
      const b8 = await manual(FLORA, 0, colour.id, '2031-06-08', '10:00');
      const b9 = await viaApi(ODON, 1, haircut, '2031-06-20', '10:00');
      const b10 = await viaApi(EVA, 0, haircut, '2031-06-25', '10:00');
      await operatorOk(h, b10.bookingId, 'cancel'); // early: weeks before the start
      const b11 = await viaApi(ODON, 0, haircut, '2031-06-12', '15:00');
      // The booking page books through the same create as the API (guest-pages.md); its own flow is
      // tested in booking-page-server.test.ts, the report only reads the source it records.
      await sql(h, "UPDATE bookings SET source = 'bookingPage' WHERE id = $1", [b11.bookingId]);

      at(local('2031-06-02', '10:20'));
      await manual(EVA, 0, haircut.id, '2031-06-16', '10:00'); // #2: rebooked at the visit
      await operatorOk(h, b1.bookingId, 'complete');
      at(local('2031-06-03', '12:00'));
      await operatorOk(h, b3.bookingId, 'complete');
      at(local('2031-06-04', '10:00'));
      await operatorOk(h, b4.bookingId, 'no-show');
      at(local('2031-06-07', '11:00'));
      await operatorOk(h, b7.bookingId, 'complete');
      at(local('2031-06-08', '11:00'));
      await operatorOk(h, b8.bookingId, 'complete');
      at(local('2031-06-09', '12:00'));
      await manual(FLORA, 1, haircut.id, '2031-06-22', '14:00'); // #12: the day after #8, so #8 is not rebooked
      at(local('2031-06-19', '20:00'));
      await operatorOk(h, b9.bookingId, 'cancel'); // late: 14 hours before the start, notice 24 hours
      at(local('2031-06-30', '20:00'));

      const expected = workedExample();
      const ids: Record<string, string> = {
        Anna: anna,
        Bence: bence,
        Haircut: haircut.id,
        Colour: colour.id,
        Colouring: colouring.id,
        Consultation: consultation.id,
      };
      for (const line of expected.revenue.byStaff) line.staffId = ids[line.name];
      for (const line of expected.revenue.byService) line.serviceId = ids[line.name];
      for (const line of expected.utilisation.byStaff) line.staffId = ids[line.name];

      const mine = await adminOk(
        h.app,
        'GET',
        `/businesses/${slug}/reports?from=2031-06-01&to=2031-06-30&locationSlug=${salon.location.slug}`,
      );
      assert.deepEqual(mine.report, expected);
      const everywhere = await adminOk(h.app, 'GET', `/businesses/${slug}/reports?from=2031-06-01&to=2031-06-30`);
      assert.deepEqual(everywhere.report, expected, 'the only location is every location');

      // One day: only #1 and #2's making day; the 0 ÷ 0 rates are null, not 0.
      const day = (await adminOk(h.app, 'GET', `/businesses/${slug}/reports?from=2031-06-02&to=2031-06-02`)).report;
      assert.equal(day.bookings.total, 1);
      assert.equal(day.noShowRate, 0);
      assert.equal(day.rebookingRate, 1);
      const empty = (await adminOk(h.app, 'GET', `/businesses/${slug}/reports?from=2031-07-01&to=2031-07-01`)).report;
      assert.equal(empty.bookings.total, 0);
      assert.deepEqual(
        [empty.noShowRate, empty.cancellationRate, empty.lateCancellationRate, empty.rebookingRate],
        [null, null, null, null],
      );
      assert.deepEqual(empty.revenue.byStaff, []);
      assert.equal(empty.utilisation.overall.workingMinutes, 2 * 480);
    });

    test('a second location: the first one reads as before, every location adds it, and its own report', async () => {
      const expected = workedExample();
      const other = await createLocation(h.app, slug, { timezone: 'Europe/Budapest' });
      const cut = await createService(h.app, slug, other.slug, { name: 'Trim', price: { amount: 3000, currency: 'HUF' } });
      const dora = await createStaff(h.app, slug, other.slug, { name: 'Dóra', serviceIds: [cut.id] });
      at(local('2031-06-14', '09:00'));
      await adminOk(h.app, 'POST', `/businesses/${slug}/bookings`, {
        locationSlug: other.slug,
        serviceId: cut.id,
        staffId: dora.id,
        date: '2031-06-15',
        startTime: '10:00',
        guest: EVA,
      });
      const june = (location?: string) =>
        adminOk(h.app, 'GET', `/businesses/${slug}/reports?from=2031-06-01&to=2031-06-30${location ? `&locationSlug=${location}` : ''}`);
      const first = (await june(salon.location.slug)).report;
      assert.equal(first.bookings.total, expected.bookings.total);
      assert.deepEqual(first.clients, expected.clients);
      assert.deepEqual(first.utilisation.overall, expected.utilisation.overall);
      const all = (await june()).report;
      assert.equal(all.bookings.total, expected.bookings.total + 1);
      assert.equal(all.revenue.booked, expected.revenue.booked + 3000);
      assert.deepEqual(all.clients, expected.clients, 'Éva was already counted as returning');
      assert.deepEqual(
        all.utilisation.byStaff.map((s: { name: string }) => s.name),
        ['Anna', 'Bence', 'Dóra'],
      );
      const second = (await june(other.slug)).report;
      assert.equal(second.bookings.total, 1);
      assert.deepEqual(second.clients, { new: 0, returning: 1 }, 'her first booking was at the other location');
      assert.deepEqual(second.utilisation.overall, { bookedMinutes: 30, workingMinutes: 30 * 480, ratio: 0.0021 });
    });

    test('a DST month: the day the clocks go forward is an hour short only when the hour skipped is worked', async () => {
      const dst = await createSalon(h.app);
      // Anna works every day 01:00-05:00 (the 02:00-03:00 of 2031-03-30 does not exist), Bence 09:00-17:00.
      await adminOk(h.app, 'PATCH', `/staff/${dst.staff[0]!.id}`, {
        workingHours: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, start: '01:00', end: '05:00' })),
      });
      const report = (await adminOk(h.app, 'GET', `/businesses/${dst.business.slug}/reports?from=2031-03-01&to=2031-03-31`)).report;
      const minutes = Object.fromEntries(
        report.utilisation.byStaff.map((s: { name: string; workingMinutes: number }) => [s.name, s.workingMinutes]),
      );
      assert.deepEqual(minutes, { Anna: 31 * 240 - 60, Bence: 31 * 480 });
      const autumn = (await adminOk(h.app, 'GET', `/businesses/${dst.business.slug}/reports?from=2031-10-26&to=2031-10-26`)).report;
      // 2031-10-26: 03:00 summer time becomes 02:00 again, so 01:00-05:00 lasts 5 hours.
      assert.deepEqual(
        autumn.utilisation.byStaff.map((s: { workingMinutes: number }) => s.workingMinutes),
        [300, 480],
      );
    });

    test('the period: real dates, to not before from, at most 366 days; an unknown location is 404', async () => {
      const bad = async (query: string, path: string) => {
        const r = await admin(h.app, 'GET', `/businesses/${slug}/reports?${query}`);
        assert.equal(r.status, 400, r.raw);
        assert.equal(r.body.ok, false);
        assert.equal(r.body.error.code, 'request.validation_failed', r.raw);
        assert.equal(r.body.error.details.issues[0].path, path, r.raw);
      };
      await bad('from=2031-06-02&to=2031-06-01', 'query.to');
      await bad('from=2031-01-01&to=2032-01-02', 'query.to');
      await bad('from=2031-02-30&to=2031-03-01', 'query.from');
      await bad('from=2031-06-01&to=2031-13-01', 'query.to');
      const missing = await admin(h.app, 'GET', `/businesses/${slug}/reports?from=2031-06-01`);
      assert.equal(missing.status, 400, missing.raw);
      assert.equal(missing.body.error.code, 'request.validation_failed');
      // 366 days, both included, is a leap year's worth
      const year = await admin(h.app, 'GET', `/businesses/${slug}/reports?from=2031-01-01&to=2032-01-01`);
      assert.equal(year.status, 200, year.raw);
      const nowhere = await admin(h.app, 'GET', `/businesses/${slug}/reports?from=2031-06-01&to=2031-06-30&locationSlug=nowhere`);
      assert.equal(nowhere.status, 404, nowhere.raw);
      assert.equal(nowhere.body.error.code, 'request.not_found');
    });
  });
}
