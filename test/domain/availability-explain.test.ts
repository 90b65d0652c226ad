/**
 * Explain agrees with search (salon-scheduling.md, "Explain"): for random schedules — working
 * hours, time off, bookings, holds, buffers, grids, notice and horizon, on DST days in several
 * zones — explain's `bookable` is true for a (staff, time) exactly when the engine's search of that
 * day offers it, and a time that is not bookable always has a reason. Plus worked examples of
 * each reason.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { computeSlots } from '../../src/domain/availability/engine.ts';
import { explainTime, type ExplainInput, type ExplainStaff } from '../../src/domain/availability/explain.ts';
import type { Interval, WorkingInterval } from '../../src/domain/availability/types.ts';
import { formatHhMm } from '../../src/domain/time/hh-mm.ts';
import { staffServiceOverride } from './availability-fixtures.ts';

const MINUTE = 60_000;
const RUNS = Number(process.env.FC_RUNS ?? 300);

// A date on or beside a zone's 2026 offset change, and a quiet one.
const DAYS: Record<string, string[]> = {
  'Europe/Budapest': ['2026-03-29', '2026-10-25', '2026-07-15'],
  'America/New_York': ['2026-03-08', '2026-11-01', '2026-07-15'],
  'Australia/Lord_Howe': ['2026-04-05', '2026-10-04'],
  'America/Santiago': ['2026-04-04', '2026-09-06'],
  UTC: ['2026-07-15'],
};

const interval = (base: number): fc.Arbitrary<Interval> =>
  fc
    .record({
      offset: fc.integer({ min: -120, max: 26 * 60 }),
      length: fc.integer({ min: 1, max: 240 }),
      edge: fc.constantFrom(0, 0, 1, -1),
    })
    .map(({ offset, length, edge }) => ({ start: base + offset * MINUTE + edge, end: base + (offset + length) * MINUTE }));

const hours = (weekdays: number[]): fc.Arbitrary<WorkingInterval[]> =>
  fc.array(
    fc
      .record({
        weekday: fc.constantFrom(...weekdays),
        startMinute: fc.oneof(fc.integer({ min: 0, max: 1380 }), fc.constantFrom(0, 60, 90, 120, 150, 180)),
        length: fc.integer({ min: 15, max: 900 }),
      })
      .map(({ weekday, startMinute, length }) => ({ weekday, startMinute, endMinute: Math.min(1440, startMinute + length) })),
    { minLength: 0, maxLength: 3 },
  );

const world = fc
  .constantFrom(...Object.keys(DAYS))
  .chain((timezone) => fc.record({ timezone: fc.constant(timezone), date: fc.constantFrom(...DAYS[timezone]!) }))
  .chain(({ timezone, date }) => {
    const base = Date.parse(`${date}T00:00:00Z`) - 14 * 3_600_000;
    const weekday = ((new Date(`${date}T12:00:00Z`).getUTCDay() + 6) % 7) + 1;
    const staff: fc.Arbitrary<ExplainStaff> = fc
      .record({
        id: fc.constantFrom('stf_a', 'stf_b', 'stf_c'),
        workingHours: hours([weekday, weekday, (weekday % 7) + 1]),
        timeOff: fc.array(interval(base), { maxLength: 2 }),
        booked: fc.array(interval(base), { maxLength: 3 }),
        held: fc.array(interval(base), { maxLength: 2 }),
        // a stylist variant of the service: this staff member's own duration and segments
        serviceOverride: fc.option(staffServiceOverride, { freq: 3, nil: undefined }),
      })
      .map(({ serviceOverride, ...s }) => (serviceOverride ? { ...s, serviceOverride } : s));
    return fc.record({
      timezone: fc.constant(timezone),
      date: fc.constant(date),
      slotIntervalMinutes: fc.constantFrom(5, 10, 15, 30, 45, 60),
      minNoticeMinutes: fc.constantFrom(0, 60, 600),
      horizonDays: fc.constantFrom(0, 1, 30),
      now: fc.integer({ min: -2 * 1440, max: 2 * 1440 }).map((m) => base + 14 * 3_600_000 + m * MINUTE),
      service: fc
        .record({
          id: fc.constant('svc_1'),
          durationMinutes: fc.constantFrom(5, 15, 30, 45, 60, 90),
          bufferBeforeMinutes: fc.constantFrom(0, 0, 5, 15),
          bufferAfterMinutes: fc.constantFrom(0, 0, 10),
          // work, processing, work: the staff member is free in the middle
          processing: fc.option(fc.tuple(fc.constantFrom(5, 15, 30), fc.constantFrom(10, 30, 45), fc.constantFrom(5, 15)), { freq: 2 }),
        })
        .map(({ processing, ...s }) =>
          processing
            ? {
                ...s,
                durationMinutes: processing[0] + processing[1] + processing[2],
                segments: [
                  { kind: 'work' as const, minutes: processing[0] },
                  { kind: 'processing' as const, minutes: processing[1] },
                  { kind: 'work' as const, minutes: processing[2] },
                ],
              }
            : { ...s, segments: null },
        ),
      staff: fc.uniqueArray(staff, { selector: (s) => s.id, minLength: 1, maxLength: 3 }),
      // a needed resource with 1 to 3 units, sometimes
      resources: fc.oneof(
        fc.constant([]),
        fc.integer({ min: 1, max: 3 }).chain((quantity) =>
          fc.tuple(
            fc.record({
              id: fc.constant('res_basin'),
              quantity: fc.constant(quantity),
              units: fc.tuple(...Array.from({ length: quantity }, () => fc.array(interval(base), { maxLength: 3 }))),
            }),
          ),
        ),
      ),
    });
  });

test('explain says bookable exactly when search offers the (staff, time); never unbookable without a reason', () => {
  fc.assert(
    fc.property(world, (w) => {
      const search = computeSlots({
        timezone: w.timezone,
        slotIntervalMinutes: w.slotIntervalMinutes,
        minNoticeMinutes: w.minNoticeMinutes,
        horizonDays: w.horizonDays,
        now: w.now,
        from: w.date,
        to: w.date,
        service: w.service,
        staff: w.staff.map((s) => ({
          id: s.id,
          workingHours: [...s.workingHours],
          timeOff: [...s.timeOff],
          busy: [...s.booked, ...s.held],
          serviceOverride: s.serviceOverride,
        })),
        resources: w.resources,
        limit: Number.MAX_SAFE_INTEGER,
      });
      const offered = new Set(search.slots.map((s) => `${s.staffId} ${s.startTime}`));
      // every minute of the day on a 5-minute step (all the grids above are multiples of 5)
      for (let minute = 0; minute < 1440; minute += 5) {
        const startTime = formatHhMm(minute);
        const input: ExplainInput = { ...w, startTime };
        for (const e of explainTime(input)) {
          const key = `${e.staffId} ${startTime}`;
          assert.equal(e.bookable, offered.has(key), `${key} on ${w.date} in ${w.timezone}: explain ${JSON.stringify(e.reasons)}`);
          assert.equal(e.bookable, e.reasons.length === 0);
        }
      }
    }),
    { numRuns: RUNS },
  );
});

const BASE: ExplainInput = {
  timezone: 'Europe/Budapest',
  slotIntervalMinutes: 15,
  minNoticeMinutes: 60,
  horizonDays: 30,
  now: Date.parse('2026-07-14T08:00:00Z'),
  date: '2026-07-15',
  startTime: '10:00',
  service: { id: 'svc_1', durationMinutes: 30, bufferBeforeMinutes: 0, bufferAfterMinutes: 10 },
  // Wednesday 09:00-17:00 local (UTC+2)
  staff: [{ id: 'stf_a', workingHours: [{ weekday: 3, startMinute: 540, endMinute: 1020 }], timeOff: [], booked: [], held: [] }],
};
const reasonsOf = (over: Partial<ExplainInput>, staff: Partial<ExplainStaff> = {}) =>
  explainTime({ ...BASE, ...over, staff: [{ ...BASE.staff[0]!, ...staff }] })[0]!.reasons;
const at = (hhmm: string) => Date.parse(`2026-07-15T${hhmm}:00+02:00`);

test('each engine reason, worked', () => {
  assert.deepEqual(reasonsOf({}), []);
  assert.deepEqual(reasonsOf({ now: at('11:00') }), ['in_the_past']);
  assert.deepEqual(reasonsOf({ now: at('09:30') }), ['min_notice']);
  assert.deepEqual(reasonsOf({ horizonDays: 0 }), ['beyond_horizon']);
  assert.deepEqual(reasonsOf({ startTime: '10:05' }), ['not_on_interval']);
  assert.deepEqual(reasonsOf({ startTime: '08:00' }), ['outside_working_hours']);
  assert.deepEqual(reasonsOf({ startTime: '16:45' }), ['outside_working_hours'], 'the service does not fit before 17:00');
  assert.deepEqual(reasonsOf({}, { timeOff: [{ start: at('09:00'), end: at('12:00') }] }), ['time_off']);
  assert.deepEqual(reasonsOf({}, { booked: [{ start: at('10:35'), end: at('11:00') }] }), ['booked'], 'the buffer after reaches it');
  assert.deepEqual(reasonsOf({}, { held: [{ start: at('09:45'), end: at('10:15') }] }), ['held']);
  assert.deepEqual(
    reasonsOf(
      { date: '2026-03-29', startTime: '02:30', now: Date.parse('2026-03-20T00:00:00Z') },
      { workingHours: [{ weekday: 7, startMinute: 0, endMinute: 1440 }] },
    ),
    ['nonexistent_local_time'],
  );
  // several at once, in the listed order
  assert.deepEqual(reasonsOf({ now: at('11:00') }, { booked: [{ start: at('10:00'), end: at('10:30') }] }), ['in_the_past', 'booked']);
});
