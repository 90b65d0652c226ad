/**
 * Holds under real concurrency (PostgreSQL only: PGlite runs one connection), each step of the
 * interleaving driven by hand on its own connection so the order is exact: a release that waits for
 * a create using the hold, and a create using a hold beside a new hold on that time (the lock order
 * of docs/decisions.md "Holds (v1.4.0)": the staff member's lock, then the hold's row).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import type { Queryable } from '../src/store/db.ts';
import { findHold, insertHold, lockHoldForUse, releaseHoldRow, useHold } from '../src/store/holds.ts';
import { bookingHarness, createBody, day } from './helpers/bookings.ts';
import { dbTargets } from './helpers/databases.ts';
import { api, createSalon, type SalonFixture } from './helpers/fixtures.ts';
import type { Harness } from './helpers/harness.ts';

const DATABASE_URL = process.env.DATABASE_URL;
/** day(2) is in June 2031 (UTC+2 in Budapest). */
const utc = (hh: number, mm = 0) => new Date(`${day(2)}T${String(hh - 2).padStart(2, '0')}:${String(mm).padStart(2, '0')}:00.000Z`);

async function holdVia(h: Harness, salon: SalonFixture, startTime: string): Promise<any> {
  const r = await api(h.app, salon.key.secret, 'POST', '/holds', {
    salonSlug: salon.business.slug,
    locationSlug: salon.location.slug,
    serviceId: salon.service.id,
    staffId: salon.staff[0]!.id,
    slot: { date: day(2), startTime },
  });
  assert.equal(r.status, 201, r.raw);
  return r.body.data.hold;
}

/** One connection of its own, also usable as the store's Queryable (query + exec). */
type Conn = pg.Client & Queryable;

async function client(): Promise<Conn> {
  const c = new pg.Client({ connectionString: DATABASE_URL });
  await c.connect();
  return Object.assign(c, {
    exec: async (text: string) => {
      await c.query(text);
    },
  }) as Conn;
}

/** Resolves once `pid` waits on a lock (it is then blocked behind another transaction). */
async function waitsOnLock(c: pg.Client, pid: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const r = await c.query('SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1', [pid]);
    if (r.rows[0]?.wait_event_type === 'Lock') return;
    await new Promise((res) => setTimeout(res, 20));
  }
  assert.fail(`backend ${pid} never waited on a lock`);
}

const postgres = dbTargets().find((t) => t.name === 'postgres');
if (!(DATABASE_URL && postgres)) test('holds interleavings (PostgreSQL)', { skip: 'needs DATABASE_URL' }, () => {});
else
  describe('holds interleavings [postgres, driven by hand]', () => {
    let h: Harness;
    const opened: pg.Client[] = [];
    before(async () => {
      h = await bookingHarness(postgres);
    });
    after(async () => {
      for (const c of opened) await c.end().catch(() => {});
      await h.close();
    });

    test('a release that waited for a create using the hold answers `used`, not `active`', { timeout: 30_000 }, async () => {
      const salon = await createSalon(h.app);
      const held = await holdVia(h, salon, '10:00');
      const a = await client();
      const r = await client();
      opened.push(a, r);
      await a.query('BEGIN');
      assert.ok(await lockHoldForUse(a, salon.business.id, (await findHold(a, salon.business.id, held.holdId))!));
      await useHold(a, held.holdId, 'bkg_interleave00000001');
      const rPid = (await r.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      const released = releaseHoldRow(r, salon.business.id, held.holdId);
      await waitsOnLock(a, rPid);
      await a.query('COMMIT');
      const answer = await released;
      const [row] = (await a.query('SELECT status FROM holds WHERE id = $1', [held.holdId])).rows;
      assert.equal(row.status, 'used');
      assert.equal(answer?.status, 'used', 'DELETE /v1/holds answers the hold as it now is');
    });

    test('no deadlock between a create using a hold and a concurrent hold insert on that time', { timeout: 30_000 }, async () => {
      const salon = await createSalon(h.app);
      const anna = salon.staff[0]!.id;
      // A booking of Bence's to copy from: the create's own insert, made by hand on connection a.
      const model = await api(
        h.app,
        salon.key.secret,
        'POST',
        '/bookings',
        createBody(salon, { startTime: '15:00', staffId: salon.staff[1]!.id }),
      );
      assert.equal(model.status, 201, model.raw);
      const held = await holdVia(h, salon, '10:00');
      const a = await client();
      const b = await client();
      opened.push(a, b);
      await a.query("SET deadlock_timeout = '200ms'");
      await b.query("SET deadlock_timeout = '200ms'");
      // A: POST /v1/bookings with holdId (bookings/create.ts): the staff lock and the hold's row,
      // the hold marked used ...
      await a.query('BEGIN');
      assert.ok(await lockHoldForUse(a, salon.business.id, (await findHold(a, salon.business.id, held.holdId))!));
      await useHold(a, held.holdId, 'bkg_interleave00000002');
      // B: POST /v1/holds on the same time, whose freeStaffAt ran before that hold was committed
      // (a 20-way race as in holds-race.test.ts): it waits for the staff lock A holds. Taken after
      // the hold row instead (as the trigger alone would), B would hold it and wait on A's row while
      // A waits on B's lock: a deadlock.
      await b.query('BEGIN');
      const bPid = (await b.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      const bInsert = insertHold(b, {
        id: 'hld_interleave000000002',
        businessId: salon.business.id,
        locationId: salon.location.id,
        serviceId: salon.service.id,
        staffId: anna,
        staffName: 'Anna',
        slot: { date: day(2), startTime: '10:00', endTime: '10:30' },
        timezone: 'Europe/Budapest',
        startAt: utc(10),
        endAt: utc(10, 30),
        occupiedFrom: utc(10),
        occupiedTo: utc(10, 30),
        processing: [],
        resourceIds: [],
        minutes: 10,
      }).then(
        () => 'inserted',
        (err) => err,
      );
      await waitsOnLock(a, bPid);
      // ... then A writes the booking; its trigger takes the same staff lock (migration 003/017).
      const aInsert = a
        .query(
          `INSERT INTO bookings SELECT (jsonb_populate_record(b, jsonb_build_object(
             'id', 'bkg_interleave00000002', 'public_reference', 'BK-INTRLV02', 'staff_id', $2::text,
             'occupied_staff_id', $2::text, 'occupied', tstzrange($3, $4, '[)'), 'start_at', $3, 'end_at', $4))).*
             FROM bookings b WHERE b.id = $1`,
          [model.body.data.booking.bookingId, anna, utc(10), utc(10, 30)],
        )
        .then(
          () => 'inserted',
          (err) => err,
        );
      // A's insert goes through (its lock is its own); B waits for A's transaction to end.
      const aResult = await aInsert;
      await a.query('ROLLBACK').catch(() => {});
      const bResult = await bInsert;
      await b.query('ROLLBACK').catch(() => {});
      const codes = [aResult, bResult].map((x) => (x === 'inserted' ? x : (x.code ?? x.message)));
      assert.ok(!codes.includes('40P01'), `a deadlock (40P01): A ${codes[0]}, B ${codes[1]}`);
    });
  });
