/**
 * Concurrency: the database, not the application, has the last word. On PostgreSQL the requests
 * really run in parallel over the pool; on PGlite (one connection) they prove that serialisation
 * gives the same answers.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Db } from '../src/store/db.ts';
import { transactionWithRetry } from '../src/store/tx-retry.ts';
import { dbTargets } from './helpers/databases.ts';
import { adminOk, type Harness, type JsonResponse } from './helpers/harness.ts';
import { api, createSalon, createService, createStaff } from './helpers/fixtures.ts';
import {
  bookingCount,
  bookingEvents,
  bookingHarness,
  cancel,
  checkEventLog,
  createBody,
  createBooking,
  createOk,
  day,
  getBooking,
  operatorAction,
  sql,
} from './helpers/bookings.ts';
import { overlapCountSql } from './helpers/overlaps.ts';

function tally(responses: JsonResponse[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of responses) {
    const k = r.status < 300 ? String(r.status) + (r.body.meta.idempotent ? ' replay' : '') : `${r.status} ${r.body?.error?.code}`;
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}

for (const target of dbTargets()) {
  describe(`booking races [${target.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await bookingHarness(target);
    });
    after(() => h.close());

    test('50 concurrent creates for one slot and one staff member → exactly one 201', async () => {
      const salon = await createSalon(h.app);
      for (const [service, code, startTime] of [
        [salon.service, 'booking.slot_no_longer_available', '10:00'],
        [salon.manualService, 'booking.slot_unavailable', '14:00'],
      ] as const) {
        const rs = await Promise.all(
          Array.from({ length: 50 }, (_, i) =>
            createBooking(h, salon, { service, startTime, guest: { name: `Guest ${i}`, phone: `+3630${String(1000000 + i)}` } }),
          ),
        );
        assert.deepEqual(tally(rs), { '201': 1, [`409 ${code}`]: 49 });
      }
      assert.equal(await bookingCount(h, salon.business.id), 2);
      const sub = await api(h.app, salon.key.secret, 'GET', '/subscription');
      assert.equal(sub.body.data.subscription.bookingsThisMonth, 2, 'refused creates do not count');
    });

    test('overlapping (not identical) slots of one staff member race: exactly one wins', async () => {
      const salon = await createSalon(h.app);
      const times = ['10:00', '10:15', '10:30', '10:45', '11:00', '11:15', '11:30'];
      // 60-minute service: 10:00 and 11:00 could both fit, but any winner blocks its neighbours
      const rs = await Promise.all(
        times.flatMap((t) => [0, 1, 2].map(() => createBooking(h, salon, { service: salon.manualService, startTime: t }))),
      );
      const won = rs.filter((r) => r.status === 201).map((r) => r.body.data.booking);
      assert.ok(won.length >= 1 && won.length <= 2, JSON.stringify(tally(rs)));
      const rows = await sql(h, overlapCountSql({ business: true, everyStatus: true }), [salon.business.id]);
      assert.equal(rows[0].n, 0);
      for (const r of rs) if (r.status !== 201) assert.equal(r.body.error.code, 'booking.slot_unavailable');
    });

    test('20 concurrent creates without staffId for one slot with two staff → exactly two, one each', async () => {
      const salon = await createSalon(h.app);
      const rs = await Promise.all(Array.from({ length: 20 }, () => createBooking(h, salon, { staffId: undefined, startTime: '12:00' })));
      assert.deepEqual(tally(rs), { '201': 2, '409 booking.slot_no_longer_available': 18 });
      const staff = rs
        .filter((r) => r.status === 201)
        .map((r) => r.body.data.booking.staffId)
        .sort();
      assert.deepEqual(staff, salon.staff.map((s) => s.id).sort());
    });

    test('50 concurrent requests with one Idempotency-Key → one booking; the rest replays or 503', async () => {
      const salon = await createSalon(h.app);
      const key = randomUUID();
      const body = createBody(salon, { startTime: '15:00' });
      const rs = await Promise.all(
        Array.from({ length: 50 }, () => api(h.app, salon.key.secret, 'POST', '/bookings', body, { 'idempotency-key': key })),
      );
      const t = tally(rs);
      assert.equal(t['201'], 1, JSON.stringify(t));
      for (const [k, n] of Object.entries(t)) {
        assert.ok(['201', '201 replay', '503 idempotency.request_in_progress'].includes(k), `${k} × ${n}`);
      }
      for (const r of rs) if (r.status === 503) assert.equal(r.body.error.retryable, true);
      const ids = new Set(rs.filter((r) => r.status === 201).map((r) => r.body.data.booking.bookingId));
      assert.equal(ids.size, 1);
      assert.equal(await bookingCount(h, salon.business.id), 1);
      // afterwards every retry is a replay of that booking
      const later = await api(h.app, salon.key.secret, 'POST', '/bookings', body, { 'idempotency-key': key });
      assert.equal(later.status, 201);
      assert.equal(later.body.meta.idempotent, true);
      assert.deepEqual(ids, new Set([later.body.data.booking.bookingId]));
    });

    test('two concurrent creates at quota − 1 → exactly one wins; ten at quota − 3 → exactly three', async () => {
      const a = await createSalon(h.app, { subscription: { plan: 'pro', status: 'active', maxBookingsPerMonth: 2 } });
      await createOk(h, a, { startTime: '09:00' });
      const two = await Promise.all([createBooking(h, a, { startTime: '10:00' }), createBooking(h, a, { startTime: '11:00' })]);
      assert.deepEqual(tally(two), { '201': 1, '403 subscription.quota_exceeded': 1 });
      assert.equal(await bookingCount(h, a.business.id), 2);

      const b = await createSalon(h.app, { subscription: { plan: 'pro', status: 'active', maxBookingsPerMonth: 4 } });
      await createOk(h, b, { startTime: '09:00' });
      const ten = await Promise.all(
        Array.from({ length: 10 }, (_, i) => createBooking(h, b, { startTime: `${10 + Math.floor(i / 2)}:${i % 2 ? '30' : '00'}` })),
      );
      assert.deepEqual(tally(ten), { '201': 3, '403 subscription.quota_exceeded': 7 });
      const sub = await api(h.app, b.key.secret, 'GET', '/subscription');
      assert.equal(sub.body.data.subscription.bookingsThisMonth, 4);
    });

    test('unlimited plan: 30 concurrent creates all count; a limit set later sums every shard', async () => {
      const salon = await createSalon(h.app, { subscription: { plan: 'business', status: 'active' } });
      const times = Array.from({ length: 15 }, (_, i) => `${String(9 + Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`);
      const rs = await Promise.all(
        times.flatMap((startTime) => salon.staff.map((s) => createBooking(h, salon, { startTime, staffId: s.id }))),
      );
      assert.deepEqual(tally(rs), { '201': 30 });
      const sub = await api(h.app, salon.key.secret, 'GET', '/subscription');
      assert.equal(sub.body.data.subscription.bookingsThisMonth, 30);
      if (target.name === 'postgres') {
        // Over a pool the count really is spread: several connections, several shards.
        const [shards] = await sql(h, 'SELECT count(*)::int AS n FROM booking_quota_counts WHERE business_id = $1', [salon.business.id]);
        assert.ok(shards.n > 1, `${shards.n} shard(s)`);
      }
      await adminOk(h.app, 'PATCH', `/businesses/${salon.business.slug}/subscription`, { maxBookingsPerMonth: 31 });
      const more = await Promise.all(salon.staff.map((s) => createBooking(h, salon, { startTime: '16:30', staffId: s.id })));
      assert.deepEqual(tally(more), { '201': 1, '403 subscription.quota_exceeded': 1 });
      assert.equal(await bookingCount(h, salon.business.id), 31);
    });

    test('20 concurrent bookings for a five-seat group session → exactly five seats taken', async () => {
      const salon = await createSalon(h.app);
      const service = await createService(h.app, salon.business.slug, salon.location.slug, {
        name: 'Jóga',
        durationMinutes: 60,
        bookingMode: 'groupSession',
      });
      const staff = await createStaff(h.app, salon.business.slug, salon.location.slug, { name: 'Cili', serviceIds: [service.id] });
      const { session } = await adminOk(h.app, 'POST', `/services/${service.id}/sessions`, {
        staffId: staff.id,
        startAtUtc: `${day(2)}T08:00:00.000Z`,
        endAtUtc: `${day(2)}T09:00:00.000Z`,
        capacityMax: 5,
      });
      const search = await api(h.app, salon.key.secret, 'POST', '/availability/search', {
        salonSlug: salon.business.slug,
        locationSlug: salon.location.slug,
        serviceId: service.id,
        dateRange: { from: day(2), to: day(2) },
      });
      const token = search.body.data.slots[0].slotToken;
      const rs = await Promise.all(
        Array.from({ length: 20 }, () =>
          createBooking(h, salon, { service, staffId: undefined, slot: undefined, sessionId: session.id, slotToken: token }),
        ),
      );
      assert.deepEqual(tally(rs), { '201': 5, '409 booking.session_full': 15 });
      const [row] = await sql(h, 'SELECT seats_taken FROM group_sessions WHERE id = $1', [session.id]);
      assert.equal(row.seats_taken, 5);
      // five concurrent cancellations give all five seats back
      const cs = await Promise.all(rs.filter((r) => r.status === 201).map((r) => cancel(h, salon, r.body.data.booking.bookingId)));
      assert.deepEqual(tally(cs), { '200': 5 });
      const [after] = await sql(h, 'SELECT seats_taken FROM group_sessions WHERE id = $1', [session.id]);
      assert.equal(after.seats_taken, 0);
    });

    test('concurrent changes of one booking serialise: one cancel wins, sequences have no gaps', async () => {
      const salon = await createSalon(h.app);
      const b = await createOk(h, salon, { startTime: '10:00' });
      const rs = await Promise.all([
        ...Array.from({ length: 10 }, () => cancel(h, salon, b.bookingId)),
        ...['11:00', '12:00', '13:00', '14:00', '15:00'].map((t) =>
          operatorAction(h, b.bookingId, 'reschedule', { date: day(2), startTime: t }),
        ),
      ]);
      const cancels = rs.slice(0, 10);
      assert.deepEqual(tally(cancels), { '200': 1, '409 booking.invalid_transition': 9 });
      for (const r of rs.slice(10)) assert.ok(r.status === 200 || r.body.error.code === 'booking.invalid_transition', r.raw);
      const got = await getBooking(h, salon, b.bookingId);
      assert.equal(got.body.data.booking.status, 'cancelled');
      const events = await bookingEvents(h, salon, b.bookingId);
      checkEventLog(events, got.body.data.booking);
      assert.equal(events.filter((e) => e.event === 'booking.cancelled').length, 1);
    });

    test('crosswise moves between two staff members neither deadlock nor double-book', async () => {
      const salon = await createSalon(h.app);
      const [anna, bence] = salon.staff as [any, any];
      for (let round = 0; round < 3; round++) {
        const date = day(3 + round);
        const a = await createOk(h, salon, { date, startTime: '10:00', staffId: anna.id });
        const b = await createOk(h, salon, { date, startTime: '11:00', staffId: bence.id });
        const started = Date.now();
        const rs = await Promise.all([
          operatorAction(h, a.bookingId, 'reschedule', { date, startTime: '11:00', staffId: bence.id }),
          operatorAction(h, b.bookingId, 'reschedule', { date, startTime: '10:00', staffId: anna.id }),
          operatorAction(h, a.bookingId, 'propose', { date, startTime: '11:15', staffId: bence.id }),
          createBooking(h, salon, { date, startTime: '10:15', staffId: anna.id }),
        ]);
        for (const r of rs) assert.ok(r.status === 200 || r.status === 201 || r.status === 409, r.raw);
        // no deadlock had to be broken (PostgreSQL needs deadlock_timeout, 1 s, to find one)
        assert.ok(Date.now() - started < 900 || target.name === 'pglite', `took ${Date.now() - started} ms`);
      }
      const held = await sql(h, overlapCountSql({ business: true }), [salon.business.id]);
      assert.equal(held[0].n, 0);
    });

    test('two bookings moved concurrently onto one free time: exactly one move succeeds', async () => {
      const salon = await createSalon(h.app);
      const a = await createOk(h, salon, { startTime: '10:00' });
      const b = await createOk(h, salon, { startTime: '11:00' });
      const c = await createOk(h, salon, { service: salon.manualService, startTime: '13:00' });
      const rs = await Promise.all([
        operatorAction(h, a.bookingId, 'reschedule', { date: day(2), startTime: '15:00' }),
        operatorAction(h, b.bookingId, 'reschedule', { date: day(2), startTime: '15:15' }),
        operatorAction(h, c.bookingId, 'propose', { date: day(2), startTime: '14:45' }),
        createBooking(h, salon, { startTime: '15:00' }),
      ]);
      assert.equal(rs.filter((r) => r.status < 300).length, 1, JSON.stringify(tally(rs)));
      const held = await sql(h, overlapCountSql({ business: true }), [salon.business.id]);
      assert.equal(held[0].n, 0);
    });
  });
}

describe('transactionWithRetry', () => {
  const fakeDb = (failures: unknown[]) => {
    let calls = 0;
    const db = {
      async transaction<T>(fn: (tx: any) => Promise<T>): Promise<T> {
        calls++;
        const f = failures.shift();
        if (f) throw f;
        return fn({});
      },
    };
    return { db: db as unknown as Db, calls: () => calls };
  };

  test('runs a deadlock victim or serialization failure again, at most four times', async () => {
    const deadlock = Object.assign(new Error('deadlock detected'), { code: '40P01' });
    const serialization = Object.assign(new Error('could not serialize'), { code: '40001' });
    const ok = fakeDb([deadlock, serialization]);
    assert.equal(await transactionWithRetry(ok.db, async () => 'done'), 'done');
    assert.equal(ok.calls(), 3);
    const never = fakeDb([deadlock, deadlock, deadlock, deadlock, deadlock]);
    await assert.rejects(
      transactionWithRetry(never.db, async () => 'done'),
      /deadlock/,
    );
    assert.equal(never.calls(), 4);
    const other = fakeDb([Object.assign(new Error('exclusion'), { code: '23P01' })]);
    await assert.rejects(
      transactionWithRetry(other.db, async () => 'done'),
      /exclusion/,
    );
    assert.equal(other.calls(), 1);
  });
});
