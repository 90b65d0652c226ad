import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { dbTargets } from './helpers/databases.ts';
import { admin, type Harness, type JsonResponse } from './helpers/harness.ts';
import { api, createKey, createLocation, createSalon, createService, createStaff, type SalonFixture } from './helpers/fixtures.ts';
import {
  BASE_NOW,
  bookingHarness,
  cancel,
  createBooking,
  createOk,
  day,
  expectError,
  operatorOk,
  SECRET_EMAIL,
  SECRET_PHONE_DIGITS,
} from './helpers/bookings.ts';

for (const target of dbTargets()) {
  describe(`booking reads [${target.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await bookingHarness(target);
    });
    after(() => h.close());

    const list = (salon: SalonFixture, query = '') =>
      api(h.app, salon.key.secret, 'GET', `/bookings?salonSlug=${salon.business.slug}${query}`);

    /** Every page of a listing, following meta.cursor; checks each page's size. */
    async function allPages(salon: SalonFixture, query: string, limit: number): Promise<any[]> {
      const out: any[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 100; page++) {
        const r = await list(salon, `${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        assert.equal(r.status, 200, r.raw);
        assert.ok(r.body.data.bookings.length <= limit);
        out.push(...r.body.data.bookings);
        cursor = r.body.meta.cursor;
        if (!cursor) return out;
        assert.equal(r.body.data.bookings.length, limit, 'a page with a cursor is full');
      }
      throw new Error('pagination did not end');
    }

    /**
     * A salon with a second location and seven bookings created one second apart: statuses
     * confirmed/requested/cancelled/declined, days day(2)..day(4). Returns them oldest first.
     */
    async function seeded() {
      const salon = await createSalon(h.app);
      const loc2 = await createLocation(h.app, salon.business.slug, { name: 'Buda' });
      const svc2 = await createService(h.app, salon.business.slug, loc2.slug, { name: 'Buda haircut' });
      const stf2 = await createStaff(h.app, salon.business.slug, loc2.slug, { name: 'Gábor', serviceIds: [svc2.id] });
      const made: any[] = [];
      const tick = () => {
        h.clock.now = new Date(h.clock.now.getTime() + 1000);
      };
      try {
        made.push(await createOk(h, salon, { date: day(2), startTime: '10:00' })); // confirmed
        tick();
        made.push(await createOk(h, salon, { service: salon.manualService, date: day(2), startTime: '12:00' })); // requested
        tick();
        made.push(await createOk(h, salon, { date: day(3), startTime: '10:00' })); // → cancelled
        tick();
        made.push(await createOk(h, salon, { service: salon.manualService, date: day(3), startTime: '12:00' })); // → declined
        tick();
        made.push(await createOk(h, salon, { date: day(4), startTime: '10:00' })); // confirmed
        tick();
        made.push(await createOk(h, salon, { locationSlug: loc2.slug, service: svc2, staffId: stf2.id, date: day(2), startTime: '10:00' }));
        tick();
        made.push(await createOk(h, salon, { service: salon.manualService, date: day(4), startTime: '14:00' })); // requested
        await cancel(h, salon, made[2].bookingId);
        await operatorOk(h, made[3].bookingId, 'decline');
      } finally {
        h.clock.now = new Date(BASE_NOW);
      }
      return { salon, loc2, made };
    }

    const ids = (r: JsonResponse | any[]) => (Array.isArray(r) ? r : r.body.data.bookings).map((b: any) => b.bookingId);

    test('GET /bookings: newest created first, with the filters status, locationSlug and from+to', async () => {
      const { salon, loc2, made } = await seeded();
      const all = await list(salon);
      assert.equal(all.status, 200, all.raw);
      assert.equal(all.body.meta.cursor, undefined);
      assert.deepEqual(ids(all), ids([...made].reverse()));
      assert.equal(all.body.data.bookings[4].status, 'cancelled');
      assert.equal(all.body.data.bookings[3].status, 'declined');

      assert.deepEqual(ids(await list(salon, '&status=requested')), [made[6].bookingId, made[1].bookingId]);
      assert.deepEqual(ids(await list(salon, '&status=cancelled')), [made[2].bookingId]);
      assert.deepEqual(ids(await list(salon, '&status=noShow')), []);
      assert.deepEqual(ids(await list(salon, `&locationSlug=${loc2.slug}`)), [made[5].bookingId]);
      assert.deepEqual(ids(await list(salon, `&locationSlug=${salon.location.slug}&status=confirmed`)), [
        made[4].bookingId,
        made[0].bookingId,
      ]);
      assert.deepEqual(ids(await list(salon, `&from=${day(3)}&to=${day(3)}`)), [made[3].bookingId, made[2].bookingId]);
      assert.deepEqual(ids(await list(salon, `&from=${day(3)}&to=${day(9)}&status=confirmed`)), [made[4].bookingId]);
      assert.deepEqual(ids(await list(salon, `&from=${day(10)}&to=${day(12)}`)), []);

      expectError(await list(salon, '&locationSlug=no-such-location'), 403, 'auth.scope_mismatch');
      expectError(await list(salon, `&from=${day(2)}`), 400, 'request.validation_failed');
      expectError(await list(salon, `&to=${day(2)}`), 400, 'request.validation_failed');
      expectError(await list(salon, `&from=${day(3)}&to=${day(2)}`), 400, 'request.validation_failed');
      expectError(await list(salon, '&from=2031-13-01&to=2031-13-02'), 400, 'request.validation_failed');
      expectError(await list(salon, '&status=pending'), 400, 'request.validation_failed');
      expectError(await api(h.app, salon.key.secret, 'GET', '/bookings'), 400, 'request.validation_failed');
      const other = await createSalon(h.app);
      expectError(await list(other, `&salonSlug=${salon.business.slug}`), 400, 'request.validation_failed');
      expectError(await api(h.app, other.key.secret, 'GET', `/bookings?salonSlug=${salon.business.slug}`), 403, 'auth.scope_mismatch');
      // the query's checks come before the scope's (decisions.md): a bad query is a 400 for any salon
      for (const q of [`&from=${day(2)}`, '&from=2031-02-30&to=2031-03-01', `&from=${day(3)}&to=${day(2)}`]) {
        expectError(
          await api(h.app, other.key.secret, 'GET', `/bookings?salonSlug=${salon.business.slug}${q}`),
          400,
          'request.validation_failed',
        );
      }
      expectError(await admin(h.app, 'GET', `/businesses/no-such-business/bookings?from=${day(2)}`), 400, 'request.validation_failed');
      assert.deepEqual(ids(await list(other)), []);

      // the operator's list shows the same, with the same filters
      const op = await admin(h.app, 'GET', `/businesses/${salon.business.slug}/bookings?status=requested`);
      assert.equal(op.status, 200, op.raw);
      assert.deepEqual(ids(op), [made[6].bookingId, made[1].bookingId]);
    });

    test('limit 1..100, default 50; 0, 101 and non-numbers → 400', async () => {
      const salon = await createSalon(h.app);
      for (let i = 0; i < 3; i++) await createOk(h, salon, { startTime: `1${i}:00` });
      for (const bad of ['0', '101', '-1', 'abc', '1.5']) {
        expectError(await list(salon, `&limit=${bad}`), 400, 'request.validation_failed');
      }
      assert.equal((await list(salon, '&limit=100')).body.data.bookings.length, 3);
      const one = await list(salon, '&limit=1');
      assert.equal(one.body.data.bookings.length, 1);
      assert.equal(typeof one.body.meta.cursor, 'string');
      const three = await list(salon, '&limit=3');
      assert.equal(three.body.meta.cursor, undefined, 'no cursor when nothing follows');
    });

    test('cursor pagination walks every page without duplicates or gaps, also with a filter', async () => {
      const { salon, made } = await seeded();
      for (const limit of [1, 2, 3, 6, 7]) {
        const pages = await allPages(salon, '', limit);
        assert.deepEqual(ids(pages), ids([...made].reverse()), `limit ${limit}`);
      }
      const confirmed = await allPages(salon, '&status=confirmed', 1);
      assert.deepEqual(ids(confirmed), [made[5].bookingId, made[4].bookingId, made[0].bookingId]);

      // bookings created in the same millisecond still page cleanly (ties broken by id)
      const same = await createSalon(h.app);
      const made2: string[] = [];
      for (let i = 0; i < 9; i++)
        made2.push((await createOk(h, same, { startTime: `${10 + Math.floor(i / 2)}:${i % 2 ? '30' : '00'}` })).bookingId);
      const pages = await allPages(same, '', 2);
      assert.equal(pages.length, 9);
      assert.deepEqual(new Set(ids(pages)), new Set(made2));
      assert.deepEqual(ids(pages), ids((await list(same)).body.data.bookings));
    });

    test('a cursor is bound to its filters and tamper-evident → 400 request.invalid_cursor', async () => {
      const { salon } = await seeded();
      const first = await list(salon, '&limit=2');
      const cursor: string = first.body.meta.cursor;
      assert.ok(cursor);
      const next = await list(salon, `&limit=2&cursor=${encodeURIComponent(cursor)}`);
      assert.equal(next.status, 200, next.raw);

      const invalid = async (query: string) => {
        const r = await list(salon, query);
        expectError(r, 400, 'request.invalid_cursor');
        assert.equal(r.body.error.retryable, false);
      };
      await invalid(`&limit=2&status=confirmed&cursor=${encodeURIComponent(cursor)}`);
      await invalid(`&limit=2&locationSlug=${salon.location.slug}&cursor=${encodeURIComponent(cursor)}`);
      await invalid(`&limit=2&from=${day(1)}&to=${day(9)}&cursor=${encodeURIComponent(cursor)}`);
      // tampered: one character of the payload or of the signature changed
      const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
      await invalid(`&limit=2&cursor=${encodeURIComponent(flip(cursor, 3))}`);
      await invalid(`&limit=2&cursor=${encodeURIComponent(flip(cursor, cursor.length - 2))}`);
      await invalid('&limit=2&cursor=garbage');
      // a forged position with a made-up signature
      const forged = Buffer.from(JSON.stringify({ l: 'public-bookings', f: 'x', k: { createdAt: BASE_NOW, id: 'bkg_z' } })).toString(
        'base64url',
      );
      await invalid(`&limit=2&cursor=${forged}.AAAA`);

      // another business's cursor, or the operator list's cursor, is not valid here
      const other = await seeded();
      const foreign = (await list(other.salon, '&limit=2')).body.meta.cursor;
      await invalid(`&limit=2&cursor=${encodeURIComponent(foreign)}`);
      const op = await admin(h.app, 'GET', `/businesses/${salon.business.slug}/bookings?limit=2`);
      await invalid(`&limit=2&cursor=${encodeURIComponent(op.body.meta.cursor)}`);
    });

    test('GET /bookings/{id} and /events: 404 booking.not_found outside the key business', async () => {
      const salon = await createSalon(h.app);
      const other = await createSalon(h.app);
      const b = await createOk(h, salon);
      const got = await api(h.app, salon.key.secret, 'GET', `/bookings/${b.bookingId}?salonSlug=${salon.business.slug}`);
      assert.equal(got.status, 200, got.raw);
      assert.deepEqual(got.body.data.booking, b);
      expectError(await api(h.app, other.key.secret, 'GET', `/bookings/${b.bookingId}`), 404, 'booking.not_found');
      expectError(await api(h.app, other.key.secret, 'GET', `/bookings/${b.bookingId}/events`), 404, 'booking.not_found');
      expectError(await api(h.app, salon.key.secret, 'GET', '/bookings/bkg_doesnotexist0000000'), 404, 'booking.not_found');
      expectError(await api(h.app, salon.key.secret, 'GET', '/bookings/bkg_doesnotexist0000000/events'), 404, 'booking.not_found');
      expectError(
        await api(h.app, salon.key.secret, 'GET', `/bookings/${b.bookingId}?salonSlug=${other.business.slug}`),
        403,
        'auth.scope_mismatch',
      );
      const readOnly = await createKey(h.app, salon.business.slug, { capabilities: ['booking.create'] });
      expectError(await api(h.app, readOnly.secret, 'GET', `/bookings/${b.bookingId}`), 403, 'auth.insufficient_capability');
    });

    test('GET /bookings/{id}/events: oldest first, each entry a full webhook payload', async () => {
      const salon = await createSalon(h.app);
      const b = await createOk(h, salon, { startTime: '10:00' });
      await operatorOk(h, b.bookingId, 'reschedule', { date: day(2), startTime: '11:00' });
      await cancel(h, salon, b.bookingId);
      const r = await api(h.app, salon.key.secret, 'GET', `/bookings/${b.bookingId}/events?salonSlug=${salon.business.slug}`);
      assert.equal(r.status, 200, r.raw);
      const events = r.body.data.events;
      assert.deepEqual(
        events.map((e: any) => [e.event, e.transition.sequence]),
        [
          ['booking.requested', 1],
          ['booking.confirmed', 2],
          ['booking.reschedule_confirmed', 3],
          ['booking.cancelled', 4],
        ],
      );
      for (const e of events) assert.equal(e.salonSlug, salon.business.slug);
    });

    test('guest phone and email never appear in any public response body or event payload', async () => {
      const salon = await createSalon(h.app);
      const bodies: Array<[string, string]> = [];
      const keep = (what: string, r: JsonResponse) => {
        assert.ok(r.status < 500, `${what}: ${r.raw}`);
        bodies.push([what, r.raw]);
        return r;
      };
      // The operator's answers carry the contact on purpose (business-side.md); they must, and
      // nothing they do may put it into a public answer or a stored payload.
      const operatorBodies: Array<[string, string]> = [];
      const keepOperator = (what: string, r: JsonResponse) => {
        assert.equal(r.status, 200, `${what}: ${r.raw}`);
        operatorBodies.push([what, r.raw]);
        return r;
      };
      const key = { 'idempotency-key': '5b0c8f4e-2a7d-4e1b-8c3f-6d9e0a1b2c3d' };
      const live = keep('create', await createBooking(h, salon, { startTime: '10:00' }, key));
      const id = live.body.data.booking.bookingId;
      keep('replay', await createBooking(h, salon, { startTime: '10:00' }, key));
      keep('mismatch', await createBooking(h, salon, { startTime: '10:30' }, key));
      keep('clash', await createBooking(h, salon, { startTime: '10:00' }));
      keep(
        'validation',
        await createBooking(h, salon, {
          startTime: '10:00',
          guest: { name: 'x'.repeat(101), phone: SECRET_PHONE_DIGITS, email: SECRET_EMAIL },
        }),
      );
      const manual = keep('manual create', await createBooking(h, salon, { service: salon.manualService, startTime: '13:00' }));
      const mid = manual.body.data.booking.bookingId;
      keep('get', await api(h.app, salon.key.secret, 'GET', `/bookings/${id}`));
      keep('list', await list(salon));
      keepOperator('propose', await admin(h.app, 'POST', `/bookings/${mid}/propose`, { date: day(2), startTime: '15:00' }));
      keepOperator('accept-proposal', await admin(h.app, 'POST', `/bookings/${mid}/accept-proposal`));
      keepOperator('reschedule', await admin(h.app, 'POST', `/bookings/${id}/reschedule`, { date: day(2), startTime: '11:00' }));
      keep('cancel', await cancel(h, salon, id));
      keep('events', await api(h.app, salon.key.secret, 'GET', `/bookings/${id}/events`));
      keep('events 2', await api(h.app, salon.key.secret, 'GET', `/bookings/${mid}/events`));
      keepOperator('operator list', await admin(h.app, 'GET', `/businesses/${salon.business.slug}/bookings`));
      keepOperator(
        'manual booking',
        await admin(h.app, 'POST', `/businesses/${salon.business.slug}/bookings`, {
          locationSlug: salon.location.slug,
          serviceId: salon.service.id,
          staffId: salon.staff[1]!.id,
          date: day(3),
          startTime: '10:00',
          guest: { name: 'Walk-in', phone: `+3630${SECRET_PHONE_DIGITS}`, email: SECRET_EMAIL },
        }),
      );
      const stored = await h.db.query<{ payload: string }>('SELECT payload FROM booking_events WHERE business_id = $1', [
        salon.business.id,
      ]);
      assert.ok(stored.rows.length >= 8);
      for (const row of stored.rows) bodies.push(['stored payload', row.payload]);
      for (const [what, raw] of bodies) {
        assert.ok(!raw.includes(SECRET_PHONE_DIGITS), `${what} leaks the phone: ${raw}`);
        assert.ok(!raw.toLowerCase().includes(SECRET_EMAIL), `${what} leaks the email: ${raw}`);
        assert.ok(!/guestPhone|guestEmail|guest_phone|guest_email/.test(raw), `${what}: ${raw}`);
      }
      for (const [what, raw] of operatorBodies) assert.ok(raw.includes(SECRET_PHONE_DIGITS), `${what} lacks the phone: ${raw}`);
      keep('get after operator reads', await api(h.app, salon.key.secret, 'GET', `/bookings/${mid}`));
      keep('list after operator reads', await list(salon));
      for (const [what, raw] of bodies.slice(-2)) {
        assert.ok(!raw.includes(SECRET_PHONE_DIGITS), `${what} leaks the phone: ${raw}`);
        assert.ok(!raw.toLowerCase().includes(SECRET_EMAIL), `${what} leaks the email: ${raw}`);
      }
    });
  });

  describe(`guest contact data in log lines [${target.name}]`, () => {
    let h: Harness;
    const lines: string[] = [];
    before(async () => {
      const sink = new Writable({
        write(chunk, _enc, done) {
          lines.push(String(chunk));
          done();
        },
      });
      h = await bookingHarness(target, { logger: pino({ level: 'trace' }, sink) });
    });
    after(() => h.close());

    test('no log line carries the guest phone or email, even for failing requests', async () => {
      const salon = await createSalon(h.app);
      const key = { 'idempotency-key': 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d' };
      assert.equal((await createBooking(h, salon, { startTime: '10:00' }, key)).status, 201);
      await createBooking(h, salon, { startTime: '10:00' }, key);
      await createBooking(h, salon, { startTime: '10:30' }, key);
      await createBooking(h, salon, { startTime: '10:00' });
      await createBooking(h, salon, { startTime: '10:00', guest: { name: '', phone: SECRET_PHONE_DIGITS, email: SECRET_EMAIL } });
      await createBooking(h, salon, { startTime: '10:00', guest: { name: 'X', phone: `abc${SECRET_PHONE_DIGITS}`, email: SECRET_EMAIL } });
      await api(h.app, salon.key.secret, 'POST', '/bookings', `{"guest":{"phone":"${SECRET_PHONE_DIGITS}","email":"${SECRET_EMAIL}"`);
      assert.ok(lines.length > 5, `only ${lines.length} log lines`);
      for (const line of lines) {
        assert.ok(!line.includes(SECRET_PHONE_DIGITS), `log leaks the phone: ${line}`);
        assert.ok(!line.toLowerCase().includes(SECRET_EMAIL), `log leaks the email: ${line}`);
      }
    });
  });
}
