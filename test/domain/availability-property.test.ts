import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { computeSlots } from '../../src/domain/availability/engine.ts';
import { boundSlots, openSlotBound, openSlots } from '../../src/domain/availability/open-slots.ts';
import type { EngineInput, EngineStaff, Interval, WorkingInterval } from '../../src/domain/availability/types.ts';
import { Converter, overlaps, referenceBlocks, referenceSlots } from './availability-reference.ts';
import { staffServiceOverride } from './availability-fixtures.ts';

const MINUTE = 60_000;
const DAY = 86_400_000;
// FC_RUNS=5000 for a deeper soak; the default keeps the suite fast.
const RUNS = Number(process.env.FC_RUNS ?? 200);

// Zones with their 2026 offset changes (local dates), plus zones without any.
const ZONE_CHANGES: Record<string, string[]> = {
  'Europe/Budapest': ['2026-03-29', '2026-10-25'],
  'Europe/London': ['2026-03-29', '2026-10-25'],
  'America/New_York': ['2026-03-08', '2026-11-01'],
  'Australia/Lord_Howe': ['2026-04-05', '2026-10-04'], // 30-minute shifts
  'America/Santiago': ['2026-04-04', '2026-09-06'], // at midnight: Saturday 23:00 repeats; Sunday 00:00 skipped
  'America/Havana': ['2026-03-08', '2026-11-01'], // at midnight
  UTC: [],
  'Asia/Kolkata': [],
};
const ANY_CHANGE = [...new Set(Object.values(ZONE_CHANGES).flat()), '2026-07-15'];

// Mostly the zone's own change dates, sometimes another zone's or a quiet date.
const zoneAndAnchor = fc.constantFrom(...Object.keys(ZONE_CHANGES)).chain((timezone) =>
  fc.record({
    timezone: fc.constant(timezone),
    anchor:
      ZONE_CHANGES[timezone]!.length > 0
        ? fc.oneof(
            { arbitrary: fc.constantFrom(...ZONE_CHANGES[timezone]!), weight: 3 },
            { arbitrary: fc.constantFrom(...ANY_CHANGE), weight: 1 },
          )
        : fc.constantFrom(...ANY_CHANGE),
  }),
);

// Minutes at or near the zones' change times, so working hours often open or close inside a gap or a repeat.
const NOTABLE_MINUTES = [0, 30, 60, 90, 105, 120, 135, 150, 165, 180, 1380, 1410];

const workingInterval = (weekday: fc.Arbitrary<number>): fc.Arbitrary<WorkingInterval> =>
  fc
    .record({
      weekday,
      startMinute: fc.oneof(fc.integer({ min: 0, max: 1439 }), fc.constantFrom(...NOTABLE_MINUTES)),
      length: fc.oneof(fc.integer({ min: 1, max: 1440 }), fc.constantFrom(60, 180, 360, 1440)),
      notableEnd: fc.option(fc.constantFrom(...NOTABLE_MINUTES, 1440), { freq: 2 }),
    })
    .map(({ weekday, startMinute, length, notableEnd }) => ({
      weekday,
      startMinute,
      endMinute: notableEnd !== null && notableEnd > startMinute ? notableEnd : Math.min(1440, startMinute + length),
    }));

// Small-hours intervals opening and closing on notable minutes, where the changes happen.
const nightInterval: fc.Arbitrary<WorkingInterval> = fc
  .tuple(fc.constantFrom(...NOTABLE_MINUTES.filter((m) => m <= 180)), fc.constantFrom(...NOTABLE_MINUTES, 1440))
  .map(([startMinute, end]) => ({ weekday: 0, startMinute, endMinute: end > startMinute ? end : 1440 }));

const everyDay = (daily: WorkingInterval[]): WorkingInterval[] =>
  [1, 2, 3, 4, 5, 6, 7].flatMap((weekday) => daily.map((h) => ({ ...h, weekday })));

// Arbitrary weekdays, or one daily pattern so that every date in the range (and its change) has hours.
const workingHours = fc.oneof(
  fc.array(workingInterval(fc.integer({ min: 1, max: 7 })), { maxLength: 8 }),
  fc.array(workingInterval(fc.constant(0)), { minLength: 1, maxLength: 2 }).map(everyDay),
  fc.array(nightInterval, { minLength: 1, maxLength: 2 }).map(everyDay),
);

const intervalsNear = (base: number, maxCount: number): fc.Arbitrary<Interval[]> =>
  fc.array(
    fc
      .record({
        offsetMinutes: fc.integer({ min: 0, max: 6 * 1440 }),
        lengthMinutes: fc.integer({ min: 1, max: 600 }),
        // Off-by-a-millisecond edges probe the half-open comparisons.
        jitter: fc.constantFrom(0, 0, 0, 1, -1),
      })
      .map(({ offsetMinutes, lengthMinutes, jitter }) => {
        const start = base + offsetMinutes * MINUTE + jitter;
        return { start, end: start + lengthMinutes * MINUTE };
      }),
    { maxLength: maxCount },
  );

const scenario: fc.Arbitrary<EngineInput> = fc
  .record({
    place: zoneAndAnchor,
    shiftDays: fc.integer({ min: -2, max: 0 }),
    spanDays: fc.integer({ min: 0, max: 3 }),
    ids: fc.uniqueArray(fc.constantFrom('a', 'b', 'B', 'c1', 'c10', 'c2'), { minLength: 1, maxLength: 3 }),
    slotIntervalMinutes: fc.constantFrom(5, 7, 10, 15, 20, 25, 30, 45, 60),
    durationMinutes: fc.oneof(fc.integer({ min: 1, max: 240 }), fc.constantFrom(15, 30, 60, 90)),
    bufferBeforeMinutes: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 60 })),
    bufferAfterMinutes: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 60 })),
    // processing time: work, processing, work (, processing, work), each part 1..90 minutes
    processing: fc.option(
      fc.array(fc.integer({ min: 1, max: 90 }), { minLength: 3, maxLength: 5 }).filter((a) => a.length % 2 === 1),
      {
        freq: 2,
      },
    ),
    minNoticeMinutes: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 2880 })),
    horizonDays: fc.oneof(fc.constant(60), fc.integer({ min: 0, max: 10 })),
    // Mostly before the range so that notice and horizon cut only some slots.
    nowOffsetMinutes: fc.oneof(
      { arbitrary: fc.integer({ min: -3 * 1440, max: 0 }), weight: 3 },
      { arbitrary: fc.integer({ min: 0, max: 4 * 1440 }), weight: 1 },
    ),
    limit: fc.oneof(fc.integer({ min: 0, max: 40 }), fc.constant(1_000_000)),
  })
  .chain((s) => {
    const from = Temporal.PlainDate.from(s.place.anchor).add({ days: s.shiftDays });
    const base = Date.parse(`${from.toString()}T00:00:00Z`) - DAY;
    const member = (id: string): fc.Arbitrary<EngineStaff> =>
      fc
        .record({
          id: fc.constant(id),
          workingHours,
          timeOff: intervalsNear(base, 3),
          busy: intervalsNear(base, 8),
          serviceOverride: fc.option(staffServiceOverride, { freq: 3, nil: undefined }),
        })
        .map(({ serviceOverride, ...m }) => (serviceOverride ? { ...m, serviceOverride } : m));
    // 0 to 2 resources the service needs, each with 1 to 3 units and what they are taken for
    const resource = (id: string) =>
      fc.integer({ min: 1, max: 3 }).chain((quantity) =>
        fc.record({
          id: fc.constant(id),
          quantity: fc.constant(quantity),
          units: fc.tuple(...Array.from({ length: quantity }, () => intervalsNear(base, 4))),
        }),
      );
    const resources = fc.oneof(fc.constant([]), fc.tuple(resource('r1')), fc.tuple(resource('r1'), resource('r2')));
    return fc.tuple(fc.tuple(...s.ids.map(member)), resources).map(
      ([staff, resources]): EngineInput => ({
        timezone: s.place.timezone,
        slotIntervalMinutes: s.slotIntervalMinutes,
        minNoticeMinutes: s.minNoticeMinutes,
        horizonDays: s.horizonDays,
        now: base + DAY + s.nowOffsetMinutes * MINUTE,
        from: from.toString(),
        to: from.add({ days: s.spanDays }).toString(),
        service: {
          id: 'svc',
          durationMinutes: s.processing ? s.processing.reduce((a, b) => a + b, 0) : s.durationMinutes,
          bufferBeforeMinutes: s.bufferBeforeMinutes,
          bufferAfterMinutes: s.bufferAfterMinutes,
          segments:
            s.processing?.map((minutes, i) => ({ kind: i % 2 === 0 ? ('work' as const) : ('processing' as const), minutes })) ?? null,
        },
        staff,
        resources,
        limit: s.limit,
      }),
    );
  });

test('computeSlots equals the all-Temporal reference', () => {
  fc.assert(
    fc.property(scenario, (input) => {
      assert.deepStrictEqual(computeSlots(input), referenceSlots(input));
    }),
    { numRuns: RUNS },
  );
});

test('openSlots bounded by a request (the cached search) equals computeSlots', () => {
  fc.assert(
    fc.property(scenario, (input) => {
      const { now, minNoticeMinutes, horizonDays, limit, ...rest } = input;
      const open = openSlots(rest);
      assert.deepStrictEqual(boundSlots(open, { now, minNoticeMinutes, horizonDays, limit }), computeSlots(input));
      const days = (Date.parse(rest.to) - Date.parse(rest.from)) / 86_400_000 + 1;
      assert.ok(openSlotBound(rest.staff, rest.slotIntervalMinutes, days) >= open.length, 'openSlotBound is an upper bound');
    }),
    { numRuns: RUNS },
  );
});

test('every returned slot is free, on the grid, inside working hours and within notice/horizon', () => {
  fc.assert(
    fc.property(scenario, (input) => {
      const conv = new Converter(input.timezone);
      const { service } = input;
      for (const slot of computeSlots(input).slots) {
        const member = input.staff.find((m) => m.id === slot.staffId)!;
        const date = Temporal.PlainDate.from(slot.date);
        const [h, m] = slot.startTime.split(':').map(Number);
        const minute = h! * 60 + m!;
        assert.equal(slot.startAt, conv.start(date, minute), 'startAt is the first occurrence of the start time');
        assert.equal(
          slot.endAt - slot.startAt,
          (member.serviceOverride ?? service).durationMinutes * MINUTE,
          "the staff member's own length",
        );
        assert.equal(slot.endTime, conv.wall(slot.endAt));
        assert.ok(
          member.workingHours.some(
            (wh) =>
              wh.weekday === date.dayOfWeek &&
              minute >= wh.startMinute &&
              (minute - wh.startMinute) % input.slotIntervalMinutes === 0 &&
              slot.startAt >= conv.boundary(date, wh.startMinute) &&
              slot.endAt <= conv.boundary(date, wh.endMinute),
          ),
          'inside a working interval and on its grid',
        );
        const theirs = member.serviceOverride ? { ...service, ...member.serviceOverride } : service;
        for (const occupied of referenceBlocks(theirs, slot.startAt)) {
          assert.ok(![...member.busy, ...member.timeOff].some((b) => overlaps(occupied, b)), 'free of busy time and time off');
        }
        for (const r of input.resources ?? []) {
          const appointment = { start: slot.startAt, end: slot.endAt };
          assert.ok(
            r.units.some((unit) => !unit.some((b) => overlaps(appointment, b))),
            'a unit of every needed resource is free',
          );
        }
        assert.ok(slot.startAt >= input.now + input.minNoticeMinutes * MINUTE);
        assert.ok(slot.startAt <= input.now + input.horizonDays * DAY);
      }
    }),
    { numRuns: RUNS },
  );
});

test('a slot starting exactly at the earliest or the latest allowed start is kept by both', () => {
  const now = Date.parse('2026-07-15T07:00:00Z');
  const input: EngineInput = {
    timezone: 'UTC',
    slotIntervalMinutes: 30,
    minNoticeMinutes: 60,
    horizonDays: 1,
    now,
    from: '2026-07-15',
    to: '2026-07-16',
    service: { id: 'svc', durationMinutes: 30, bufferBeforeMinutes: 0, bufferAfterMinutes: 0 },
    staff: [
      {
        id: 'st',
        workingHours: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, startMinute: 420, endMinute: 600 })),
        timeOff: [],
        busy: [],
      },
    ],
    limit: 1000,
  };
  const { now: _, minNoticeMinutes, horizonDays, limit, ...rest } = input;
  const bounded = boundSlots(openSlots(rest), { now, minNoticeMinutes, horizonDays, limit });
  assert.deepStrictEqual(bounded, computeSlots(input));
  const starts = bounded.slots.map((s) => `${s.date} ${s.startTime}`);
  assert.equal(starts[0], '2026-07-15 08:00', 'the earliest start (now + notice) is offered');
  assert.equal(starts.at(-1), '2026-07-16 07:00', 'the latest start (now + horizon) is offered');
});
