/**
 * Holds in the public API (guest-side.md "Holds", v1.4.0): a held time is offered by no search and
 * taken by no create, hold or manual booking; a create with the hold takes it; release, expiry,
 * mismatch and the three catalog codes. The database decides when a hold ends: expiry is simulated
 * by moving a row's expires_at into the past, which is what the passing of holdMinutes does.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dbTargets } from './helpers/databases.ts';
import { admin, type Harness } from './helpers/harness.ts';
import { api, createKey, createSalon, createService, type SalonFixture } from './helpers/fixtures.ts';
import { bookingHarness, createBody, day, sql } from './helpers/bookings.ts';
import { purgeEndedHolds } from '../src/store/holds.ts';

function holdBody(salon: SalonFixture, opts: { startTime?: string; staffId?: string | undefined; serviceId?: string } = {}) {
  const body: Record<string, unknown> = {
    salonSlug: salon.business.slug,
    locationSlug: salon.location.slug,
    serviceId: opts.serviceId ?? salon.service.id,
    slot: { date: day(2), startTime: opts.startTime ?? '10:00' },
  };
  const staffId = 'staffId' in opts ? opts.staffId : salon.staff[0]!.id;
  if (staffId !== undefined) body.staffId = staffId;
  return body;
}

function hold(h: Harness, salon: SalonFixture, opts: Parameters<typeof holdBody>[1] = {}, key = salon.key.secret) {
  return api(h.app, key, 'POST', '/holds', holdBody(salon, opts));
}

async function holdOk(h: Harness, salon: SalonFixture, opts: Parameters<typeof holdBody>[1] = {}): Promise<any> {
  const r = await hold(h, salon, opts);
  assert.equal(r.status, 201, r.raw);
  return r.body.data.hold;
}

/** The staff ids offered at day(2) `startTime` by a search. */
async function offered(h: Harness, salon: SalonFixture, startTime: string): Promise<string[]> {
  const r = await api(h.app, salon.key.secret, 'POST', '/availability/search', {
    salonSlug: salon.business.slug,
    locationSlug: salon.location.slug,
    serviceId: salon.service.id,
    dateRange: { from: day(2), to: day(2) },
  });
  assert.equal(r.status, 200, r.raw);
  return r.body.data.slots
    .filter((s: any) => s.startTime === startTime)
    .map((s: any) => s.staffId)
    .sort();
}

function expire(h: Harness, holdId: string) {
  return sql(h, `UPDATE holds SET expires_at = now() - interval '1 second' WHERE id = $1`, [holdId]);
}

for (const target of dbTargets()) {
  describe(`holds [${target.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await bookingHarness(target);
    });
    after(() => h.close());

    test('a held time is in no search and no create, hold or manual booking can take it', async () => {
      const salon = await createSalon(h.app);
      const [anna, bence] = salon.staff.map((s) => s.id) as [string, string];
      // Warm the cached answer first: the hold must move the occupancy version past it.
      assert.deepEqual(await offered(h, salon, '10:00'), [anna, bence].sort());
      const held = await holdOk(h, salon);
      assert.equal(held.staffId, anna);
      assert.equal(held.status, 'active');
      assert.deepEqual(held.slot, { date: day(2), startTime: '10:00', endTime: '10:30', timezone: 'Europe/Budapest' });
      const minutes = (Date.parse(held.expiresAt) - Date.now()) / 60_000;
      assert.ok(minutes > 9 && minutes <= 10.1, `expires in about holdMinutes (10): ${minutes}`);
      assert.deepEqual(await offered(h, salon, '10:00'), [bence]);
      // 10:15 overlaps the held 10:00-10:30 for Anna.
      assert.ok(!(await offered(h, salon, '10:15')).includes(anna));

      const create = await api(h.app, salon.key.secret, 'POST', '/bookings', createBody(salon, { startTime: '10:15' }));
      assert.equal(create.status, 409, create.raw);
      // An automatic service's lost time (createRules' slotGone).
      assert.equal(create.body.error.code, 'booking.slot_no_longer_available');
      const again = await hold(h, salon);
      assert.equal(again.status, 409, again.raw);
      assert.equal(again.body.error.code, 'booking.slot_unavailable');
      const anyone = await holdOk(h, salon, { staffId: undefined });
      assert.equal(anyone.staffId, bence, 'without staffId the free one is taken');
      const none = await hold(h, salon, { staffId: undefined });
      assert.equal(none.body.error?.code, 'booking.slot_unavailable', none.raw);
      const manual = await admin(h.app, 'POST', `/businesses/${salon.business.slug}/bookings`, {
        locationSlug: salon.location.slug,
        serviceId: salon.service.id,
        staffId: anna,
        date: day(2),
        startTime: '10:00',
        guest: { name: 'Walk-in', phone: '+36301112233' },
      });
      assert.equal(manual.status, 409, manual.raw);
      // The database refuses it too, whatever the application checked (migration 017's trigger).
      const bookingId = (await api(h.app, salon.key.secret, 'POST', '/bookings', createBody(salon, { startTime: '12:00' }))).body.data
        .booking.bookingId;
      await assert.rejects(
        sql(h, `UPDATE bookings SET occupied = tstzrange($2, $3, '[)') WHERE id = $1`, [
          bookingId,
          `${day(2)}T08:00:00Z`,
          `${day(2)}T08:30:00Z`,
        ]),
        (err: any) => err.code === '23P01',
      );
    });

    test('a create with the hold takes its time; the hold is then used', async () => {
      const salon = await createSalon(h.app);
      const held = await holdOk(h, salon, { startTime: '11:00' });
      const r = await api(h.app, salon.key.secret, 'POST', '/bookings', createBody(salon, { startTime: '11:00', holdId: held.holdId }));
      assert.equal(r.status, 201, r.raw);
      assert.equal(r.body.data.booking.staffId, salon.staff[0]!.id);
      const [row] = await sql(h, `SELECT status, booking_id FROM holds WHERE id = $1`, [held.holdId]);
      assert.deepEqual(row, { status: 'used', booking_id: r.body.data.booking.bookingId });
      const twice = await api(h.app, salon.key.secret, 'POST', '/bookings', createBody(salon, { startTime: '11:00', holdId: held.holdId }));
      assert.equal(twice.status, 409, twice.raw);
      assert.equal(twice.body.error.code, 'booking.hold_expired');
      const release = await api(h.app, salon.key.secret, 'DELETE', `/holds/${held.holdId}`);
      assert.equal(release.status, 200, release.raw);
      assert.equal(release.body.data.hold.status, 'used', 'a used hold is answered as it is');
      // Without staffId the booking takes the hold's staff member.
      const anyone = await holdOk(h, salon, { startTime: '13:00', staffId: undefined });
      const r2 = await api(
        h.app,
        salon.key.secret,
        'POST',
        '/bookings',
        createBody(salon, { startTime: '13:00', staffId: undefined, holdId: anyone.holdId }),
      );
      assert.equal(r2.status, 201, r2.raw);
      assert.equal(r2.body.data.booking.staffId, anyone.staffId);
    });

    test('mismatch, not found, another business: the three codes; nothing is created', async () => {
      const salon = await createSalon(h.app);
      const other = await createSalon(h.app);
      const held = await holdOk(h, salon, { startTime: '14:00' });
      const count = async () => (await sql(h, `SELECT count(*)::int AS n FROM bookings WHERE business_id = $1`, [salon.business.id]))[0].n;
      const before = await count();
      const cases: Array<[Record<string, unknown>, number, string]> = [
        [{ startTime: '14:30', holdId: held.holdId }, 409, 'booking.hold_mismatch'],
        [{ startTime: '14:00', staffId: salon.staff[1]!.id, holdId: held.holdId }, 409, 'booking.hold_mismatch'],
        [{ startTime: '14:00', service: salon.manualService, holdId: held.holdId }, 409, 'booking.hold_mismatch'],
        [{ startTime: '14:00', holdId: 'hld_doesnotexist000000000' }, 404, 'booking.hold_not_found'],
      ];
      for (const [opts, status, code] of cases) {
        const r = await api(h.app, salon.key.secret, 'POST', '/bookings', createBody(salon, opts as any));
        assert.equal(r.status, status, r.raw);
        assert.equal(r.body.error.code, code);
      }
      const foreign = await api(h.app, other.key.secret, 'DELETE', `/holds/${held.holdId}`);
      assert.equal(foreign.status, 404, foreign.raw);
      assert.equal(foreign.body.error.code, 'booking.hold_not_found');
      const foreignCreate = await api(h.app, other.key.secret, 'POST', '/bookings', {
        ...createBody(other, { startTime: '14:00' }),
        holdId: held.holdId,
      });
      assert.equal(foreignCreate.body.error?.code, 'booking.hold_not_found', foreignCreate.raw);
      assert.equal(await count(), before);
      const [row] = await sql(h, `SELECT status FROM holds WHERE id = $1`, [held.holdId]);
      assert.equal(row.status, 'active', 'a refused create leaves the hold as it was');
    });

    test('release and expiry free the time at once; an ended hold refuses its create', async () => {
      const salon = await createSalon(h.app);
      const anna = salon.staff[0]!.id;
      const released = await holdOk(h, salon, { startTime: '15:00' });
      assert.ok(!(await offered(h, salon, '15:00')).includes(anna));
      const r = await api(h.app, salon.key.secret, 'DELETE', `/holds/${released.holdId}`);
      assert.equal(r.status, 200, r.raw);
      assert.equal(r.body.data.hold.status, 'released');
      assert.ok((await offered(h, salon, '15:00')).includes(anna));
      const again = await api(h.app, salon.key.secret, 'DELETE', `/holds/${released.holdId}`);
      assert.equal(again.status, 200, 'a repeated release is not an error');
      const late = await api(
        h.app,
        salon.key.secret,
        'POST',
        '/bookings',
        createBody(salon, { startTime: '15:00', holdId: released.holdId }),
      );
      assert.equal(late.body.error?.code, 'booking.hold_expired', late.raw);

      const expiring = await holdOk(h, salon, { startTime: '16:00' });
      assert.ok(!(await offered(h, salon, '16:00')).includes(anna));
      await expire(h, expiring.holdId);
      assert.ok((await offered(h, salon, '16:00')).includes(anna), 'free again once the hold has ended');
      const expired = await api(
        h.app,
        salon.key.secret,
        'POST',
        '/bookings',
        createBody(salon, { startTime: '16:00', holdId: expiring.holdId }),
      );
      assert.equal(expired.status, 409, expired.raw);
      assert.equal(expired.body.error.code, 'booking.hold_expired');
      // The ended hold no longer blocks: a new hold and a plain create may take that time.
      const next = await holdOk(h, salon, { startTime: '16:00' });
      const [old] = await sql(h, `SELECT status FROM holds WHERE id = $1`, [expiring.holdId]);
      assert.equal(old.status, 'expired', 'the new hold marked the ended one');
      await api(h.app, salon.key.secret, 'DELETE', `/holds/${next.holdId}`);
      const plain = await api(h.app, salon.key.secret, 'POST', '/bookings', createBody(salon, { startTime: '16:00' }));
      assert.equal(plain.status, 201, plain.raw);
    });

    test('housekeeping removes holds that ended more than a day ago, and only those', async () => {
      const salon = await createSalon(h.app);
      const old = await holdOk(h, salon, { startTime: '09:00' });
      const recent = await holdOk(h, salon, { startTime: '09:30' });
      await sql(h, `UPDATE holds SET expires_at = now() - interval '25 hours' WHERE id = $1`, [old.holdId]);
      await sql(h, `UPDATE holds SET expires_at = now() - interval '23 hours' WHERE id = $1`, [recent.holdId]);
      assert.ok((await purgeEndedHolds(h.db)) >= 1);
      const left = await sql(h, `SELECT id FROM holds WHERE id = ANY($1)`, [[old.holdId, recent.holdId]]);
      assert.deepEqual(
        left.map((r) => r.id),
        [recent.holdId],
      );
      const r = await api(h.app, salon.key.secret, 'POST', '/bookings', createBody(salon, { startTime: '09:00', holdId: old.holdId }));
      assert.equal(r.body.error?.code, 'booking.hold_not_found', r.raw);
    });

    test('guest_partner keys may hold and release; group sessions are not held; replays return the same hold', async () => {
      const salon = await createSalon(h.app);
      const partner = await createKey(h.app, salon.business.slug, {
        kind: 'guest_partner',
        capabilities: ['services.read', 'staff.read', 'availability.read', 'booking.create'],
      });
      const r = await hold(h, salon, { startTime: '09:00' }, partner.secret);
      assert.equal(r.status, 201, r.raw);
      const d = await api(h.app, partner.secret, 'DELETE', `/holds/${r.body.data.hold.holdId}`);
      assert.equal(d.status, 200, d.raw);

      const group = await createService(h.app, salon.business.slug, salon.location.slug, {
        name: 'Yoga',
        bookingMode: 'groupSession',
        durationMinutes: 60,
      });
      const g = await hold(h, salon, { serviceId: group.id });
      assert.equal(g.status, 400, g.raw);
      assert.equal(g.body.error.code, 'request.validation_failed');

      const headers = { 'idempotency-key': '7b0f6c2e-3c1d-4c55-9f4a-2f1f0b8e9a11' };
      const first = await api(h.app, salon.key.secret, 'POST', '/holds', holdBody(salon, { startTime: '09:30' }), headers);
      const replay = await api(h.app, salon.key.secret, 'POST', '/holds', holdBody(salon, { startTime: '09:30' }), headers);
      assert.equal(first.status, 201, first.raw);
      assert.equal(replay.status, 201, replay.raw);
      assert.equal(replay.body.data.hold.holdId, first.body.data.hold.holdId);
      assert.equal(replay.body.meta.idempotent, true);
    });
  });
}
