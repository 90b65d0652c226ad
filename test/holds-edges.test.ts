/**
 * Holds at their edges (v1.4.0): what the business changes while a guest holds a time (buffers,
 * the staff member, the start passing), every operator write path meeting a live hold, bad input,
 * a kept search answer judged by the database's clock when the instance's runs behind, and the
 * idempotency of POST /v1/holds. Each was a finding of a review of the first version.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { dbTargets } from './helpers/databases.ts';
import { admin, adminOk, type Harness } from './helpers/harness.ts';
import { api, createSalon, createService, type SalonFixture } from './helpers/fixtures.ts';
import { bookingHarness, createBody, day, operatorAction, sql } from './helpers/bookings.ts';

function holdBody(salon: SalonFixture, startTime: string, extra: Record<string, unknown> = {}) {
  return {
    salonSlug: salon.business.slug,
    locationSlug: salon.location.slug,
    serviceId: salon.service.id,
    staffId: salon.staff[0]!.id,
    slot: { date: day(2), startTime },
    ...extra,
  };
}

async function holdOk(h: Harness, salon: SalonFixture, startTime: string, extra: Record<string, unknown> = {}): Promise<any> {
  const r = await api(h.app, salon.key.secret, 'POST', '/holds', holdBody(salon, startTime, extra));
  assert.equal(r.status, 201, r.raw);
  return r.body.data.hold;
}

/** How far this instance's wall clock runs behind the database's in the cache test. */
const SKEW_MS = 60_000;

/** day(2) is in June 2031: Budapest is UTC+2, so local 10:00 is 08:00Z. */
const utc = (hhmm: string) => `${day(2)}T${String(Number(hhmm.slice(0, 2)) - 2).padStart(2, '0')}:${hhmm.slice(3)}:00.000Z`;

for (const target of dbTargets()) {
  describe(`holds at their edges [${target.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await bookingHarness(target);
    });
    after(() => h.close());

    test('buffers grown since the hold: the create with the hold fails only on the hold (guest-side.md)', async () => {
      const salon = await createSalon(h.app);
      const held = await holdOk(h, salon, '10:00');
      // Another guest books Anna's next half hour; legal while the service has no buffers.
      const next = await api(h.app, salon.key.secret, 'POST', '/bookings', createBody(salon, { startTime: '10:30' }));
      assert.equal(next.status, 201, next.raw);
      // The salon adds a cleaning buffer; duration (and pricingVersion) unchanged.
      await adminOk(h.app, 'PATCH', `/services/${salon.service.id}`, { bufferAfterMinutes: 15 });
      const r = await api(h.app, salon.key.secret, 'POST', '/bookings', createBody(salon, { startTime: '10:00', holdId: held.holdId }));
      assert.ok(
        r.status === 201 || String(r.body.error?.code).startsWith('booking.hold_'),
        `a booking made with a hold can only fail on the hold, never on the slot: ${r.raw}`,
      );
      assert.equal(r.body.error?.code, 'booking.hold_mismatch', 'the time the service now takes is not the time held');
    });

    test('a create with a hold after the slot has started is refused like a plain create', async () => {
      const salon = await createSalon(h.app);
      await adminOk(h.app, 'PATCH', `/businesses/${salon.business.slug}/locations/${salon.location.slug}`, { minNoticeMinutes: 0 });
      const held = await holdOk(h, salon, '10:00');
      const saved = h.clock.now;
      try {
        // Ten minutes after the start (the hold is still live by the database's clock).
        h.clock.now = new Date(Date.parse(utc('10:10')));
        const plain = await api(
          h.app,
          salon.key.secret,
          'POST',
          '/bookings',
          createBody(salon, { startTime: '10:00', staffId: salon.staff[1]!.id }),
        );
        assert.equal(plain.status, 409, `a plain create refuses a started slot: ${plain.raw}`);
        const r = await api(h.app, salon.key.secret, 'POST', '/bookings', createBody(salon, { startTime: '10:00', holdId: held.holdId }));
        assert.notEqual(r.status, 201, `a booking whose start has passed was made with the hold: ${r.raw}`);
        assert.equal(r.body.error.code, 'booking.hold_expired');
      } finally {
        h.clock.now = saved;
      }
    });

    test('a staff member deactivated (or given time off) after the hold is not booked through it', async () => {
      const salon = await createSalon(h.app);
      const anna = salon.staff[0]!.id;
      const held = await holdOk(h, salon, '12:00');
      await adminOk(h.app, 'PATCH', `/staff/${anna}`, { active: false });
      const plain = await api(h.app, salon.key.secret, 'POST', '/bookings', createBody(salon, { startTime: '14:00' }));
      assert.notEqual(plain.status, 201, `a plain create refuses an inactive staff member: ${plain.raw}`);
      const r = await api(h.app, salon.key.secret, 'POST', '/bookings', createBody(salon, { startTime: '12:00', holdId: held.holdId }));
      assert.notEqual(r.status, 201, `booked an inactive staff member through the hold: ${r.raw}`);
      assert.equal(r.body.error.code, 'booking.hold_expired');

      const bence = salon.staff[1]!.id;
      const second = await holdOk(h, salon, '12:00', { staffId: bence });
      await adminOk(h.app, 'POST', `/staff/${bence}/time-off`, {
        from: { date: day(2), time: '11:45' },
        to: { date: day(2), time: '12:15' },
      });
      const off = await api(
        h.app,
        salon.key.secret,
        'POST',
        '/bookings',
        createBody(salon, { startTime: '12:00', staffId: bence, holdId: second.holdId }),
      );
      assert.equal(off.status, 409, `booked over time off through the hold: ${off.raw}`);
      assert.equal(off.body.error.code, 'booking.hold_expired');
    });

    test('every operator write path meets a live hold with a 409, never a 500, and the database keeps the hold', async () => {
      const salon = await createSalon(h.app);
      const anna = salon.staff[0]!.id;
      await holdOk(h, salon, '11:00');
      const booking = (await api(h.app, salon.key.secret, 'POST', '/bookings', createBody(salon, { startTime: '13:00' }))).body.data
        .booking;
      const resched = await operatorAction(h, booking.bookingId, 'reschedule', { date: day(2), startTime: '11:00', staffId: anna });
      assert.equal(resched.status, 409, resched.raw);
      const propose = await operatorAction(h, booking.bookingId, 'propose', { date: day(2), startTime: '11:15', staffId: anna });
      assert.equal(propose.status, 409, propose.raw);
      const manual = await admin(h.app, 'POST', `/businesses/${salon.business.slug}/bookings`, {
        locationSlug: salon.location.slug,
        serviceId: salon.manualService.id,
        staffId: anna,
        date: day(2),
        startTime: '10:30',
        guest: { name: 'Walk-in', phone: '+36301112233' },
      });
      assert.equal(manual.status, 409, manual.raw);
      const group = await createService(h.app, salon.business.slug, salon.location.slug, {
        name: 'Yoga',
        bookingMode: 'groupSession',
        durationMinutes: 60,
      });
      await adminOk(h.app, 'PATCH', `/staff/${anna}`, { serviceIds: [salon.service.id, salon.manualService.id, group.id] });
      const session = await admin(h.app, 'POST', `/services/${group.id}/sessions`, {
        staffId: anna,
        startAtUtc: utc('11:20'),
        endAtUtc: utc('12:20'),
        capacityMax: 5,
      });
      assert.equal(session.status, 409, session.raw);
      const [n] = await sql(h, `SELECT count(*)::int AS n FROM bookings WHERE occupied_staff_id = $1 AND occupied && tstzrange($2, $3)`, [
        anna,
        utc('11:00'),
        utc('11:30'),
      ]);
      assert.equal(n.n, 0);
    });

    test('bad input never gives a 500: odd hold ids, impossible dates and times, far dates, a DST gap', async () => {
      const salon = await createSalon(h.app);
      for (const id of ['%00', 'a%00b', '%E2%82%AC', '..%2F..%2Fx', "'%3B--", 'x'.repeat(101), '%20']) {
        const r = await api(h.app, salon.key.secret, 'DELETE', `/holds/${id}`);
        assert.ok(r.status === 404 || r.status === 400, `DELETE /holds/${id}: ${r.status} ${r.raw}`);
      }
      for (const holdId of ['a\u0000b', '€', "' OR 1=1 --", 'hld_'.padEnd(100, 'z')]) {
        const r = await api(h.app, salon.key.secret, 'POST', '/bookings', createBody(salon, { startTime: '10:00', holdId }));
        assert.ok(r.status === 404 || r.status === 400, `holdId ${JSON.stringify(holdId)}: ${r.status} ${r.raw}`);
      }
      const slots: Array<[string, string]> = [
        ['2031-02-30', '10:00'],
        ['9999-12-31', '10:00'],
        ['0001-01-01', '10:00'],
        ['2032-03-28', '02:30'], // Budapest's spring-forward gap
        [day(2), '24:00'],
        [day(2), '23:59'],
        [day(2), '10:07'],
      ];
      for (const [date, startTime] of slots) {
        const r = await api(h.app, salon.key.secret, 'POST', '/holds', { ...holdBody(salon, startTime), slot: { date, startTime } });
        assert.ok(r.status === 400 || r.status === 409 || r.status === 422, `${date} ${startTime}: ${r.status} ${r.raw}`);
      }
    });

    test("a kept search answer is dropped when the hold ends by the database's clock, whatever the app's clock says", async () => {
      const salon = await createSalon(h.app);
      const anna = salon.staff[0]!.id;
      const saved = h.clock.now;
      try {
        // This instance's clock runs (it is not frozen) SKEW_MS behind the database's: NTP drift.
        Object.defineProperty(h.clock, 'now', { get: () => new Date(Date.now() - SKEW_MS), set: () => {}, configurable: true });
        const date = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
        const offered = async () => {
          const r = await api(h.app, salon.key.secret, 'POST', '/availability/search', {
            salonSlug: salon.business.slug,
            locationSlug: salon.location.slug,
            serviceId: salon.service.id,
            dateRange: { from: date, to: date },
          });
          assert.equal(r.status, 200, r.raw);
          return r.body.data.slots.filter((s: any) => s.startTime === '10:00').map((s: any) => s.staffId);
        };
        const held = await holdOk(h, salon, '10:00', { slot: { date, startTime: '10:00' } });
        await sql(h, `UPDATE holds SET expires_at = now() + interval '2 seconds' WHERE id = $1`, [held.holdId]);
        assert.ok(!(await offered()).includes(anna));
        assert.ok(!(await offered()).includes(anna), 'kept while the hold lives');
        await new Promise((res) => setTimeout(res, 2500));
        const [row] = await sql(h, 'SELECT expires_at <= now() AS ended FROM holds WHERE id = $1', [held.holdId]);
        assert.equal(row.ended, true, "the database's clock says the hold has ended");
        assert.ok((await offered()).includes(anna), 'the time the database freed is offered again');
      } finally {
        Object.defineProperty(h.clock, 'now', { value: saved, writable: true, configurable: true });
      }
    });

    test('POST /v1/holds: a key reused with another body is a mismatch; no key is refused; a replay answers the hold as it was made', async () => {
      const salon = await createSalon(h.app);
      const noKey = await h.app.inject({
        method: 'POST',
        url: '/v1/holds',
        headers: { authorization: `Bearer ${salon.key.secret}` },
        payload: holdBody(salon, '09:00'),
      });
      assert.equal(noKey.statusCode, 400, noKey.body);
      assert.equal(JSON.parse(noKey.body).error.code, 'idempotency.key_required');
      const headers = { 'idempotency-key': randomUUID() };
      const first = await api(h.app, salon.key.secret, 'POST', '/holds', holdBody(salon, '09:00'), headers);
      assert.equal(first.status, 201, first.raw);
      const other = await api(h.app, salon.key.secret, 'POST', '/holds', holdBody(salon, '09:30'), headers);
      assert.equal(other.status, 409, other.raw);
      assert.equal(other.body.error.code, 'idempotency.payload_mismatch');
      await api(h.app, salon.key.secret, 'DELETE', `/holds/${first.body.data.hold.holdId}`);
      const replay = await api(h.app, salon.key.secret, 'POST', '/holds', holdBody(salon, '09:00'), headers);
      assert.equal(replay.status, 201, replay.raw);
      assert.equal(replay.body.meta.idempotent, true);
      // Documented idempotency: the stored answer, so `status` still says active though it was released.
      assert.equal(replay.body.data.hold.status, 'active');
      const [row] = await sql(h, 'SELECT count(*)::int AS n FROM holds WHERE business_id = $1', [salon.business.id]);
      assert.equal(row.n, 1, 'the replay made no second hold');
    });
  });
}
