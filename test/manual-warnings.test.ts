/**
 * Warnings before odd manual bookings (issue 27, docs/dashboard.md "Book anyway?"): the operator's
 * manual create books a time in the past, on a day the staff member does not work, outside their
 * hours or in their time off, and says so in `warnings`; `POST …/bookings/check` gives the same
 * warnings without writing anything; an ordinary time gets none. A warning never refuses.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { manualBookingWarnings } from '../src/domain/bookings/manual-warnings.ts';
import { bookingHarness, day } from './helpers/bookings.ts';
import { dbTargets } from './helpers/databases.ts';
import { createSalon, type SalonFixture } from './helpers/fixtures.ts';
import { admin, adminOk, type Harness } from './helpers/harness.ts';

// day(0) is Sunday 2031-06-01, the harness's "now" is that day at 14:00 Budapest time.
const MONDAY = day(1);
const SUNDAY = day(7);

for (const target of dbTargets()) {
  describe(`manual booking warnings [${target.name}]`, () => {
    let h: Harness;
    let salon: SalonFixture;
    before(async () => {
      h = await bookingHarness(target);
      salon = await createSalon(h.app);
      const anna = salon.staff[0]!;
      // Monday to Saturday 09:00-17:00; off on Monday 12:00-13:00
      await adminOk(h.app, 'PATCH', `/staff/${anna.id}`, {
        workingHours: [1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start: '09:00', end: '17:00' })),
      });
      await adminOk(h.app, 'POST', `/staff/${anna.id}/time-off`, {
        from: { date: MONDAY, time: '12:00' },
        to: { date: MONDAY, time: '13:00' },
      });
    });
    after(() => h.close());

    const time = (date: string, startTime: string) => ({
      locationSlug: salon.location.slug,
      serviceId: salon.service.id,
      staffId: salon.staff[0]!.id,
      date,
      startTime,
    });
    const check = async (date: string, startTime: string) =>
      (await adminOk(h.app, 'POST', `/businesses/${salon.business.slug}/bookings/check`, time(date, startTime))).warnings.map(
        (w: { code: string }) => w.code,
      );

    test('the check names each odd time and nothing for an ordinary one', async () => {
      assert.deepEqual(await check(MONDAY, '10:00'), []);
      assert.deepEqual(await check(SUNDAY, '10:00'), ['closed_day']);
      // a 30-minute service from 16:45 runs past 17:00
      assert.deepEqual(await check(MONDAY, '16:45'), ['outside_working_hours']);
      assert.deepEqual(await check(MONDAY, '07:30'), ['outside_working_hours']);
      // off the booking page's grid but inside the hours: not odd for a receptionist
      assert.deepEqual(await check(MONDAY, '10:05'), []);
      assert.deepEqual(await check(MONDAY, '12:15'), ['time_off']);
      assert.deepEqual(await check(MONDAY, '11:45'), ['time_off']);
      assert.deepEqual(await check(day(0), '09:00'), ['in_the_past', 'closed_day']);
      // ends exactly at closing time: fine
      assert.deepEqual(await check(MONDAY, '16:30'), []);
    });

    test('each warning comes with words, and the check writes nothing', async () => {
      const r = await adminOk(h.app, 'POST', `/businesses/${salon.business.slug}/bookings/check`, time(SUNDAY, '11:00'));
      assert.deepEqual(r.warnings, [{ code: 'closed_day', message: 'The staff member does not work on this day.' }]);
      const list = await adminOk(h.app, 'GET', `/businesses/${salon.business.slug}/bookings?limit=100`);
      assert.equal(list.bookings.filter((b: { slot: { date: string } }) => b.slot.date === SUNDAY).length, 0, 'the check booked nothing');
    });

    test('the create books an odd time all the same and answers its warnings; an ordinary one gets none', async () => {
      const guest = { name: 'Walk In', phone: '+36301234567' };
      const odd = await adminOk(h.app, 'POST', `/businesses/${salon.business.slug}/bookings`, { ...time(SUNDAY, '13:00'), guest });
      assert.equal(odd.booking.status, 'confirmed');
      assert.deepEqual(
        odd.warnings.map((w: { code: string }) => w.code),
        ['closed_day'],
      );
      const plain = await adminOk(h.app, 'POST', `/businesses/${salon.business.slug}/bookings`, { ...time(MONDAY, '14:00'), guest });
      assert.deepEqual(plain.warnings, []);
    });

    test('bad input: a date that does not exist, an unknown service or location, in the envelope', async () => {
      const bad = await admin(h.app, 'POST', `/businesses/${salon.business.slug}/bookings/check`, time('2031-02-30', '10:00'));
      assert.equal(bad.status, 400, bad.raw);
      assert.equal(bad.body.error.code, 'request.validation_failed');
      const svc = await admin(h.app, 'POST', `/businesses/${salon.business.slug}/bookings/check`, {
        ...time(MONDAY, '10:00'),
        serviceId: 'svc_nope',
      });
      assert.equal(svc.status, 404, svc.raw);
      assert.equal(svc.body.error.code, 'catalog.service_not_found');
      const loc = await admin(h.app, 'POST', `/businesses/${salon.business.slug}/bookings/check`, {
        ...time(MONDAY, '10:00'),
        locationSlug: 'nowhere',
      });
      assert.equal(loc.status, 404, loc.raw);
      assert.equal(loc.body.error.code, 'request.not_found');
    });
  });
}

describe('manual booking warnings, the pure rule', () => {
  const service = { durationMinutes: 60, bufferBeforeMinutes: 10, bufferAfterMinutes: 15, segments: null };
  const staff = { id: 'stf', workingHours: [{ weekday: 7, startMinute: 9 * 60, endMinute: 17 * 60 }], timeOff: [] };
  const base = { timezone: 'Europe/Budapest', service, staff, now: Date.UTC(2020, 0, 1) };

  test('the buffers do not count: a service ending at closing time with its clean-up after is ordinary', () => {
    assert.deepEqual(manualBookingWarnings({ ...base, date: '2031-03-30', startTime: '16:00' }), []);
    assert.deepEqual(manualBookingWarnings({ ...base, date: '2031-03-30', startTime: '16:01' }), ['outside_working_hours']);
  });

  test('on the spring-forward Sunday an hour is missing: 01:30-03:30 local is one hour of work', () => {
    const night = { ...staff, workingHours: [{ weekday: 7, startMinute: 60, endMinute: 4 * 60 }] };
    // 01:30 CET + 60 minutes = 03:30 CEST, before 04:00
    assert.deepEqual(manualBookingWarnings({ ...base, staff: night, date: '2031-03-30', startTime: '01:30' }), []);
    // a time in the gap is the create's to refuse
    assert.deepEqual(manualBookingWarnings({ ...base, staff: night, date: '2031-03-30', startTime: '02:30' }), []);
  });

  test('processing time: time off during the processing is no warning, during the work it is', () => {
    const colour = {
      ...service,
      bufferBeforeMinutes: 0,
      bufferAfterMinutes: 0,
      segments: [
        { kind: 'work' as const, minutes: 20 },
        { kind: 'processing' as const, minutes: 30 },
        { kind: 'work' as const, minutes: 10 },
      ],
    };
    // 2031-03-30 is a Sunday in CEST after 03:00 (UTC+2): 10:20-10:50 local is 08:20-08:50 UTC
    const off = { ...staff, timeOff: [{ start: Date.UTC(2031, 2, 30, 8, 25), end: Date.UTC(2031, 2, 30, 8, 45) }] };
    assert.deepEqual(manualBookingWarnings({ ...base, service: colour, staff: off, date: '2031-03-30', startTime: '10:00' }), []);
    assert.deepEqual(manualBookingWarnings({ ...base, service: colour, staff: off, date: '2031-03-30', startTime: '10:20' }), ['time_off']);
  });
});
