/**
 * The visit engine (src/domain/availability/visit.ts) under random salons: it equals a brute-force
 * reference built on the all-Temporal reference of the slot engine (test/domain/availability-reference.ts,
 * which shares nothing with the engine), and every visit it offers can be booked part by part in
 * a model of what the database enforces (no staff time used twice, buffers included; a free unit
 * of every needed resource, processing included), the visit's own earlier parts counted.
 * FC_RUNS=2000 for a deeper soak; the default keeps the file under a few seconds.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import type { EngineResource, EngineService, EngineStaff, Interval, WorkingInterval } from '../src/domain/availability/types.ts';
import { computeVisitSlots, type VisitEngineInput, type VisitResult, type VisitSlot } from '../src/domain/availability/visit.ts';
import { Converter, overlaps, referenceBlocks, referenceSlots } from './domain/availability-reference.ts';

const MINUTE = 60_000;
const DAY = 86_400_000;
const RUNS = Number(process.env.FC_RUNS ?? 150);

// A quiet date, and change dates of two zones (a spring gap and an autumn repeat).
const PLACES: Array<[string, string]> = [
  ['Europe/Budapest', '2026-07-15'],
  ['Europe/Budapest', '2026-03-29'],
  ['America/New_York', '2026-11-01'],
  ['UTC', '2026-07-15'],
];

const hours: fc.Arbitrary<WorkingInterval[]> = fc
  .array(
    fc.record({ start: fc.integer({ min: 0, max: 20 * 60 }), length: fc.integer({ min: 30, max: 12 * 60 }) }).map(({ start, length }) => ({
      weekday: 0,
      startMinute: start,
      endMinute: Math.min(1440, start + length),
    })),
    { minLength: 1, maxLength: 2 },
  )
  .map((daily) => [1, 2, 3, 4, 5, 6, 7].flatMap((weekday) => daily.map((h) => ({ ...h, weekday }))));

const intervalsNear = (base: number, maxCount: number): fc.Arbitrary<Interval[]> =>
  fc.array(
    fc
      .record({
        offset: fc.integer({ min: 0, max: 3 * 1440 }),
        length: fc.integer({ min: 1, max: 240 }),
        jitter: fc.constantFrom(0, 0, 1, -1),
      })
      .map(({ offset, length, jitter }) => ({ start: base + offset * MINUTE + jitter, end: base + (offset + length) * MINUTE + jitter })),
    { maxLength: maxCount },
  );

const serviceShape = (id: string): fc.Arbitrary<EngineService> =>
  fc
    .record({
      duration: fc.integer({ min: 5, max: 120 }),
      processing: fc.option(fc.tuple(fc.integer({ min: 5, max: 40 }), fc.integer({ min: 5, max: 60 }), fc.integer({ min: 5, max: 40 })), {
        freq: 2,
      }),
      before: fc.constantFrom(0, 0, 5, 10, 15),
      after: fc.constantFrom(0, 0, 5, 10, 15),
    })
    .map(({ duration, processing, before, after }) => ({
      id,
      durationMinutes: processing ? processing[0] + processing[1] + processing[2] : duration,
      bufferBeforeMinutes: before,
      bufferAfterMinutes: after,
      segments: processing
        ? [
            { kind: 'work' as const, minutes: processing[0] },
            { kind: 'processing' as const, minutes: processing[1] },
            { kind: 'work' as const, minutes: processing[2] },
          ]
        : null,
    }));

interface Scenario {
  input: VisitEngineInput;
  /** every staff member with their commitments, and the shared resources (a part lists a subset) */
  staff: EngineStaff[];
  resources: EngineResource[];
}

const STAFF_IDS = ['a', 'b', 'B', 'c1', 'c10'];

const scenario: fc.Arbitrary<Scenario> = fc
  .record({
    place: fc.constantFrom(...PLACES),
    spanDays: fc.integer({ min: 0, max: 1 }),
    ids: fc.uniqueArray(fc.constantFrom(...STAFF_IDS), { minLength: 1, maxLength: 3 }),
    partCount: fc.integer({ min: 2, max: 3 }),
    slotIntervalMinutes: fc.constantFrom(5, 15, 30),
    minNoticeMinutes: fc.constantFrom(0, 0, 120),
    limit: fc.oneof(fc.integer({ min: 0, max: 30 }), fc.constant(1_000_000)),
  })
  .chain((s) => {
    const from = Temporal.PlainDate.from(s.place[1]);
    const base = Date.parse(`${from.toString()}T00:00:00Z`) - DAY;
    const member = (id: string): fc.Arbitrary<EngineStaff> =>
      fc.record({ id: fc.constant(id), workingHours: hours, timeOff: intervalsNear(base, 2), busy: intervalsNear(base, 8) });
    const resource = (id: string): fc.Arbitrary<EngineResource> =>
      fc.integer({ min: 1, max: 2 }).chain((quantity) =>
        fc.record({
          id: fc.constant(id),
          quantity: fc.constant(quantity),
          units: fc.tuple(...Array.from({ length: quantity }, () => intervalsNear(base, 4))),
        }),
      );
    // each part: its service, who performs it (a non-empty subset), which of the two resources it needs
    const part = (i: number) =>
      fc.record({
        service: serviceShape(`svc${i}`),
        staff: fc.subarray(s.ids, { minLength: 1 }),
        resources: fc.subarray(['r1', 'r2']),
      });
    return fc
      .tuple(
        fc.tuple(...s.ids.map(member)),
        fc.tuple(resource('r1'), resource('r2')),
        fc.tuple(...Array.from({ length: s.partCount }, (_, i) => part(i))),
      )
      .map(([staff, resources, parts]) => ({
        staff,
        resources,
        input: {
          timezone: s.place[0],
          slotIntervalMinutes: s.slotIntervalMinutes,
          minNoticeMinutes: s.minNoticeMinutes,
          horizonDays: 60,
          now: base,
          from: from.toString(),
          to: from.add({ days: s.spanDays }).toString(),
          parts: parts.map((p) => ({
            service: p.service,
            staff: staff.filter((m) => p.staff.includes(m.id)),
            resources: resources.filter((r) => p.resources.includes(r.id)),
          })),
          limit: s.limit,
        },
      }));
  });

/** Brute force: the reference's first-part slots, each later part tried with every staff member through Temporal. */
function referenceVisitSlots(input: VisitEngineInput): VisitResult {
  const conv = new Converter(input.timezone);
  const [first, ...rest] = input.parts;
  const firstSlots = referenceSlots({
    ...input,
    service: first!.service,
    staff: first!.staff,
    resources: first!.resources,
    limit: Number.MAX_SAFE_INTEGER,
  }).slots;
  const all: VisitSlot[] = [];
  for (const slot of firstSlots) {
    const visit = [
      {
        serviceId: slot.serviceId,
        staffId: slot.staffId,
        startTime: slot.startTime,
        endTime: slot.endTime,
        startAt: slot.startAt,
        endAt: slot.endAt,
      },
    ];
    let previous = first!.service;
    let at = slot.endAt;
    let ok = true;
    for (const part of rest) {
      const start = at + (previous.bufferAfterMinutes + part.service.bufferBeforeMinutes) * MINUTE;
      const end = start + part.service.durationMinutes * MINUTE;
      const fits = (m: EngineStaff) => partFitsByReference(conv, slot.date, m, part.service, part.resources ?? [], start);
      const byId = [...part.staff].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      const chosen = byId.find((m) => m.id === slot.staffId && fits(m)) ?? byId.find(fits);
      if (!chosen) {
        ok = false;
        break;
      }
      visit.push({
        serviceId: part.service.id,
        staffId: chosen.id,
        startTime: conv.wall(start),
        endTime: conv.wall(end),
        startAt: start,
        endAt: end,
      });
      previous = part.service;
      at = end;
    }
    if (ok) all.push({ ...slot, endTime: visit.at(-1)!.endTime, endAt: visit.at(-1)!.endAt, visit });
  }
  return { slots: all.slice(0, input.limit), total: all.length, truncated: all.length > input.limit };
}

function partFitsByReference(
  conv: Converter,
  dateText: string,
  member: EngineStaff,
  service: EngineService,
  resources: readonly EngineResource[],
  start: number,
): boolean {
  const date = Temporal.PlainDate.from(dateText);
  const end = start + service.durationMinutes * MINUTE;
  const inHours = member.workingHours.some(
    (wh) => wh.weekday === date.dayOfWeek && start >= conv.boundary(date, wh.startMinute) && end <= conv.boundary(date, wh.endMinute),
  );
  if (!inHours) return false;
  if (referenceBlocks(service, start).some((o) => [...member.timeOff, ...member.busy].some((b) => overlaps(o, b)))) return false;
  return resources.every((r) => r.units.some((unit) => !unit.some((b) => overlaps({ start, end }, b))));
}

/**
 * Books the visit's parts one after another in a model of the database: a part's staff time
 * (buffers included, processing excluded) may meet nothing of that staff member's, the visit's own
 * earlier parts included; each needed resource gives the lowest unit free for the appointment.
 */
function bookable(s: Scenario, slot: VisitSlot): boolean {
  const staffTime = new Map(s.staff.map((m) => [m.id, [...m.timeOff, ...m.busy]]));
  const units = new Map(s.resources.map((r) => [r.id, r.units.map((u) => [...u])]));
  return slot.visit.every((part, i) => {
    const p = s.input.parts[i]!;
    if (part.serviceId !== p.service.id || !p.staff.some((m) => m.id === part.staffId)) return false;
    const taken = staffTime.get(part.staffId)!;
    const blocks = referenceBlocks(p.service, part.startAt);
    if (blocks.some((b) => taken.some((t) => overlaps(b, t)))) return false;
    taken.push(...blocks);
    const appointment = { start: part.startAt, end: part.endAt };
    for (const r of p.resources ?? []) {
      const free = units.get(r.id)!.find((u) => !u.some((t) => overlaps(appointment, t)));
      if (!free) return false;
      free.push(appointment);
    }
    return true;
  });
}

test('computeVisitSlots equals the brute-force reference', () => {
  let offered = 0;
  let handedOver = 0;
  fc.assert(
    fc.property(scenario, (s) => {
      const got = computeVisitSlots(s.input);
      assert.deepStrictEqual(got, referenceVisitSlots(s.input));
      if (got.total > 0) offered++;
      if (got.slots.some((v) => v.visit.some((p) => p.staffId !== v.staffId))) handedOver++;
    }),
    { numRuns: RUNS },
  );
  // not vacuous: most salons offer some visit, and some visits change hands between parts
  assert.ok(offered > RUNS / 3, `only ${offered} of ${RUNS} runs offered a visit`);
  assert.ok(handedOver > 0, 'no visit changed staff between parts');
});

test('every offered visit can be booked part by part, back to back, each part with one who performs it', () => {
  fc.assert(
    fc.property(scenario, (s) => {
      for (const slot of computeVisitSlots({ ...s.input, limit: Number.MAX_SAFE_INTEGER }).slots) {
        assert.ok(bookable(s, slot), `${slot.date} ${slot.startTime} ${JSON.stringify(slot.visit)}`);
        for (let i = 1; i < slot.visit.length; i++) {
          const gap = (s.input.parts[i - 1]!.service.bufferAfterMinutes + s.input.parts[i]!.service.bufferBeforeMinutes) * MINUTE;
          assert.equal(slot.visit[i]!.startAt, slot.visit[i - 1]!.endAt + gap, 'back to back, both buffers between');
        }
        assert.equal(slot.startAt, slot.visit[0]!.startAt);
        assert.equal(slot.endAt, slot.visit.at(-1)!.endAt);
      }
    }),
    { numRuns: RUNS },
  );
});
