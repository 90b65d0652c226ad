/**
 * Property: whatever mix of creates, cancels and business actions runs, in whatever interleaving,
 * no staff member is ever double-booked, and every booking's event log is exactly 1..stateVersion.
 * Commands run in small concurrent batches, so on PostgreSQL they really interleave.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { dbTargets } from './helpers/databases.ts';
import type { Harness, JsonResponse } from './helpers/harness.ts';
import { adminOk } from './helpers/harness.ts';
import { createSalon, createService, createStaff, type SalonFixture, type ServiceFixture } from './helpers/fixtures.ts';
import { bookingHarness, cancel, createBooking, day, operatorAction, sql } from './helpers/bookings.ts';
import { overlappingBookingsSql } from './helpers/overlaps.ts';

const SLOTS = ['10:00', '10:15', '10:30', '10:45', '11:00', '11:15', '11:30', '11:45'];

type Command =
  | { kind: 'create'; service: number; staff: number | null; slot: number; date: number }
  | { kind: 'cancel' | 'accept' | 'decline' | 'accept-proposal'; booking: number }
  | { kind: 'propose' | 'reschedule'; booking: number; staff: number | null; slot: number; date: number };

const staffArb = fc.option(fc.integer({ min: 0, max: 2 }), { nil: null });
const slotArb = fc.integer({ min: 0, max: SLOTS.length - 1 });
const dateArb = fc.integer({ min: 2, max: 3 });
const commandArb: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('create' as const),
      service: fc.integer({ min: 0, max: 3 }),
      staff: staffArb,
      slot: slotArb,
      date: dateArb,
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancel' as const), booking: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constantFrom('accept' as const, 'decline' as const, 'accept-proposal' as const), booking: fc.nat() }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constantFrom('propose' as const, 'reschedule' as const),
      booking: fc.nat(),
      staff: staffArb,
      slot: slotArb,
      date: dateArb,
    }),
  },
);
/** Commands in batches; a batch runs concurrently, batches run one after another. */
const scenarioArb = fc.array(fc.array(commandArb, { minLength: 1, maxLength: 4 }), { minLength: 2, maxLength: 8 });

interface World {
  salon: SalonFixture;
  services: ServiceFixture[];
  staff: string[];
}

for (const target of dbTargets()) {
  describe(`booking invariants under random interleavings [${target.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await bookingHarness(target);
    });
    after(() => h.close());

    /** Two staff perform the two standard services; a third also performs a buffered one and a colour with processing time that needs the one basin. */
    async function world(): Promise<World> {
      const salon = await createSalon(h.app);
      const buffered = await createService(h.app, salon.business.slug, salon.location.slug, {
        name: 'Perm',
        durationMinutes: 45,
        bufferBeforeMinutes: 15,
        bufferAfterMinutes: 15,
        requestAcceptancePolicy: 'manual',
      });
      // colour: the staff member is free for the 30 minutes it develops
      // one basin: two colours at one time are one too many, whoever does them
      const basin = (
        await adminOk(h.app, 'POST', `/businesses/${salon.business.slug}/resources`, {
          locationSlug: salon.location.slug,
          name: 'Basin',
          quantity: 1,
        })
      ).resource.id;
      const colour = await createService(h.app, salon.business.slug, salon.location.slug, {
        name: 'Colour',
        durationMinutes: 60,
        resourceIds: [basin],
        segments: [
          { kind: 'work', minutes: 15 },
          { kind: 'processing', minutes: 30 },
          { kind: 'work', minutes: 15 },
        ],
      });
      const services = [salon.service, salon.manualService, buffered, colour];
      const cili = await createStaff(h.app, salon.business.slug, salon.location.slug, {
        name: 'Cili',
        serviceIds: services.map((s) => s.id),
      });
      await adminOk(h.app, 'PATCH', `/staff/${salon.staff[0]!.id}`, { serviceIds: services.map((s) => s.id) });
      return { salon, services, staff: [...salon.staff.map((s) => s.id), cili.id] };
    }

    async function run(w: World, c: Command, bookings: string[]): Promise<JsonResponse | undefined> {
      if (c.kind === 'create') {
        const r = await createBooking(h, w.salon, {
          service: w.services[c.service]!,
          staffId: c.staff === null ? undefined : w.staff[c.staff]!,
          date: day(c.date),
          startTime: SLOTS[c.slot]!,
        });
        if (r.status === 201) bookings.push(r.body.data.booking.bookingId);
        return r;
      }
      if (bookings.length === 0) return undefined;
      const id = bookings[c.booking % bookings.length]!;
      if (c.kind === 'cancel') return cancel(h, w.salon, id);
      if (c.kind === 'propose' || c.kind === 'reschedule') {
        return operatorAction(h, id, c.kind, {
          date: day(c.date),
          startTime: SLOTS[c.slot]!,
          ...(c.staff === null ? {} : { staffId: w.staff[c.staff]! }),
        });
      }
      return operatorAction(h, id, c.kind);
    }

    async function checkInvariants(w: World): Promise<void> {
      const businessId = w.salon.business.id;
      const overlaps = await sql(h, overlappingBookingsSql({ business: true }), [businessId]);
      assert.deepEqual(overlaps, [], 'two occupying bookings of one staff member overlap');

      // what a booking holds is what it shows: its own time (or the open proposal), buffers included
      const held = await sql(
        h,
        `SELECT b.id, b.status FROM bookings b JOIN services s ON s.id = b.service_id
          WHERE b.business_id = $1 AND b.status IN ('requested', 'confirmed', 'rescheduleProposed')
            AND NOT (
              CASE WHEN b.status = 'rescheduleProposed'
                   THEN b.occupied_staff_id = b.proposed_staff_id
                        AND b.occupied = tstzrange(b.proposed_start_at - make_interval(mins => s.buffer_before_minutes),
                                                   b.proposed_end_at + make_interval(mins => s.buffer_after_minutes), '[)')
                   ELSE b.occupied_staff_id = b.staff_id AND b.proposed_start_at IS NULL
                        AND b.occupied = tstzrange(b.start_at - make_interval(mins => s.buffer_before_minutes),
                                                   b.end_at + make_interval(mins => s.buffer_after_minutes), '[)')
              END)`,
        [businessId],
      );
      assert.deepEqual(held, [], 'occupied range does not match the booking');

      // the occupancy rows are exactly each occupying booking's held range minus its processing
      const rows = await sql(
        h,
        `SELECT b.id FROM bookings b
          WHERE b.business_id = $1
            AND (CASE WHEN b.status IN ('requested', 'confirmed', 'rescheduleProposed') AND b.session_id IS NULL
                      THEN tstzmultirange(b.occupied) - b.processing ELSE '{}'::tstzmultirange END)
                IS DISTINCT FROM (SELECT coalesce(range_agg(o.during), '{}') FROM occupancy o
                                   WHERE o.booking_id = b.id AND o.staff_id = b.occupied_staff_id)`,
        [businessId],
      );
      assert.deepEqual(rows, [], 'occupancy rows do not match the booking');

      // no unit of a resource is used twice at once, and every occupying colour has its basin
      const units = await sql(
        h,
        `SELECT a.booking_id AS a, b.booking_id AS b FROM occupancy a JOIN occupancy b
            ON a.id < b.id AND a.resource_id = b.resource_id AND a.unit = b.unit AND a.during && b.during
          WHERE a.business_id = $1`,
        [businessId],
      );
      assert.deepEqual(units, [], 'a resource unit is used twice');
      const unitless = await sql(
        h,
        `SELECT b.id FROM bookings b WHERE b.business_id = $1 AND cardinality(b.resource_ids) > 0
            AND b.status IN ('requested', 'confirmed', 'rescheduleProposed') AND b.session_id IS NULL
            AND NOT EXISTS (SELECT 1 FROM occupancy o WHERE o.booking_id = b.id AND o.resource_id IS NOT NULL)`,
        [businessId],
      );
      assert.deepEqual(unitless, [], 'an occupying booking without its unit');

      const logs = await sql(
        h,
        `SELECT b.id, b.status, b.state_version, count(e.sequence)::int AS n, min(e.sequence) AS lo, max(e.sequence) AS hi,
                (SELECT to_status FROM booking_events x WHERE x.booking_id = b.id ORDER BY x.sequence DESC LIMIT 1) AS last_to
           FROM bookings b LEFT JOIN booking_events e ON e.booking_id = b.id
          WHERE b.business_id = $1
          GROUP BY b.id, b.status, b.state_version`,
        [businessId],
      );
      for (const l of logs) {
        assert.deepEqual(
          { n: l.n, lo: l.lo, hi: l.hi, last: l.last_to },
          { n: l.state_version, lo: 1, hi: l.state_version, last: l.status },
          `event log of ${l.id}`,
        );
      }
      const payloads = await sql(h, 'SELECT sequence, to_status, payload FROM booking_events WHERE business_id = $1', [businessId]);
      for (const p of payloads) {
        const e = JSON.parse(p.payload);
        assert.equal(e.transition.sequence, p.sequence);
        assert.equal(e.booking.stateVersion, p.sequence);
        assert.equal(e.booking.status, p.to_status);
        assert.equal(e.booking.confirmedSlot === null, !['confirmed', 'completed', 'noShow'].includes(p.to_status));
      }
    }

    test('no double booking and gap-free event logs, ~50 random scenarios', async (t) => {
      const started = Date.now();
      let runs = 0;
      let successes = 0;
      const outcomes: Record<string, number> = {};
      await fc.assert(
        fc.asyncProperty(scenarioArb, async (batches) => {
          runs++;
          const w = await world();
          const bookings: string[] = [];
          for (const batch of batches) {
            const rs = await Promise.all(batch.map((c) => run(w, c, bookings)));
            for (const r of rs) {
              if (!r) continue;
              assert.ok(r.status < 500, `server error: ${r.raw}`);
              const k = r.status < 300 ? String(r.status) : `${r.status} ${r.body?.error?.code}`;
              outcomes[k] = (outcomes[k] ?? 0) + 1;
              if (r.status < 300) successes++;
              else assert.ok([400, 404, 409].includes(r.status), r.raw);
            }
          }
          await checkInvariants(w);
        }),
        { numRuns: 50, interruptAfterTimeLimit: 55_000, markInterruptAsFailure: false },
      );
      t.diagnostic(`${runs} runs in ${Date.now() - started} ms; outcomes ${JSON.stringify(outcomes)}`);
      assert.ok(runs >= 10, `only ${runs} runs in ${Date.now() - started} ms`);
      assert.ok(successes > runs, 'the scenarios hardly did anything');
    });
  });
}
