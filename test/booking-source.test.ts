/**
 * Who made a booking (guest-side.md "The booking page"): every operator read (list, one, agenda,
 * the answer of a decision) shows `source` and, for a member's manual booking, `createdBy`; the
 * public reads and the events never do.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dbTargets } from './helpers/databases.ts';
import { admin, adminOk, type Harness } from './helpers/harness.ts';
import { api, createKey, createSalon, type SalonFixture } from './helpers/fixtures.ts';
import { asMember, memberCookie } from './helpers/members.ts';
import { bookingEvents, bookingHarness, createBody, createOk, day, getBooking, operatorOk, sql } from './helpers/bookings.ts';

/** The booking as each operator read shows it: list, one, and the agenda of its day. */
async function operatorReads(h: Harness, salon: SalonFixture, bookingId: string, date: string): Promise<any[]> {
  const slug = salon.business.slug;
  const list = await adminOk(h.app, 'GET', `/businesses/${slug}/bookings?limit=100`);
  const one = await adminOk(h.app, 'GET', `/bookings/${bookingId}`);
  const agenda = await adminOk(h.app, 'GET', `/businesses/${slug}/agenda?locationSlug=${salon.location.slug}&date=${date}`);
  const inAgenda = agenda.agenda.staff.flatMap((s: any) => s.bookings).filter((b: any) => b.bookingId === bookingId);
  const inList = list.bookings.filter((b: any) => b.bookingId === bookingId);
  assert.equal(inList.length, 1);
  assert.equal(inAgenda.length, 1);
  return [inList[0], one.booking, inAgenda[0]];
}

function whoBooked(views: any[]): Array<[string, unknown]> {
  return views.map((v) => [v.source, v.createdBy]);
}

for (const target of dbTargets()) {
  describe(`booking source in operator reads [${target.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await bookingHarness(target);
    });
    after(() => h.close());

    test('POST /v1/bookings (owner and guest_partner key) reads api everywhere; public reads and events never carry it', async () => {
      const salon = await createSalon(h.app);
      const own = await createOk(h, salon, { service: salon.manualService, startTime: '10:00' });
      const partner = await createKey(h.app, salon.business.slug, {
        kind: 'guest_partner',
        capabilities: ['services.read', 'staff.read', 'availability.read', 'booking.create'],
      });
      const p = await api(h.app, partner.secret, 'POST', '/bookings', createBody(salon, { startTime: '12:00' }));
      assert.equal(p.status, 201, p.raw);
      for (const id of [own.bookingId, p.body.data.booking.bookingId]) {
        assert.deepEqual(whoBooked(await operatorReads(h, salon, id, day(2))), [
          ['api', null],
          ['api', null],
          ['api', null],
        ]);
      }
      const accepted = await operatorOk(h, own.bookingId, 'accept');
      assert.deepEqual([accepted.source, accepted.createdBy], ['api', null]);

      const pub = await getBooking(h, salon, own.bookingId);
      assert.equal(pub.status, 200, pub.raw);
      assert.ok(!('source' in pub.body.data.booking) && !('createdBy' in pub.body.data.booking), pub.raw);
      const events = await bookingEvents(h, salon, own.bookingId);
      assert.ok(!JSON.stringify(events).includes('"source"'));
    });

    test('a manual booking reads manual: createdBy names the member who wrote it, null for the platform operator', async () => {
      const salon = await createSalon(h.app);
      const body = (startTime: string, staff = 0) => ({
        locationSlug: salon.location.slug,
        serviceId: salon.service.id,
        staffId: salon.staff[staff]!.id,
        date: day(3),
        startTime,
        guest: { name: 'Walk-in', phone: '+36301112233' },
      });
      const byOperator = await admin(h.app, 'POST', `/businesses/${salon.business.slug}/bookings`, body('10:00'));
      assert.equal(byOperator.status, 200, byOperator.raw);
      assert.deepEqual([byOperator.body.data.booking.source, byOperator.body.data.booking.createdBy], ['manual', null]);

      const member = await memberCookie(h.app, h.db, salon.business.id, 'frontDesk');
      const byMember = await asMember(h.app, member.cookie, 'POST', `/businesses/${salon.business.slug}/bookings`, body('12:00'));
      assert.equal(byMember.status, 200, byMember.raw);
      const [{ name }] = await sql(h, 'SELECT name FROM users WHERE id = $1', [member.userId]);
      const author = { memberId: member.userId, name };
      assert.deepEqual([byMember.body.data.booking.source, byMember.body.data.booking.createdBy], ['manual', author]);

      assert.deepEqual(whoBooked(await operatorReads(h, salon, byOperator.body.data.booking.bookingId, day(3))), [
        ['manual', null],
        ['manual', null],
        ['manual', null],
      ]);
      assert.deepEqual(whoBooked(await operatorReads(h, salon, byMember.body.data.booking.bookingId, day(3))), [
        ['manual', author],
        ['manual', author],
        ['manual', author],
      ]);
      const rows = await sql(
        h,
        'SELECT source, source_member_id, api_source_key_id FROM bookings WHERE business_id = $1 ORDER BY slot_start_time',
        [salon.business.id],
      );
      assert.deepEqual(rows, [
        { source: 'manual', source_member_id: null, api_source_key_id: null },
        { source: 'manual', source_member_id: member.userId, api_source_key_id: null },
      ]);
      const pub = await getBooking(h, salon, byMember.body.data.booking.bookingId);
      assert.ok(!pub.raw.includes(member.userId) && !pub.raw.includes('createdBy'), pub.raw);
    });
  });
}
