import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { computeSlots } from '../../src/domain/availability/engine.ts';
import type { EngineInput } from '../../src/domain/availability/types.ts';
import { at, describeSlot, engineInput, hours, MINUTE, span, staff, startTimes } from './availability-fixtures.ts';

// 2026-06-01 is a Monday (ISO weekday 1); every DST date below is a Sunday (7).

describe('computeSlots: grid and working hours', () => {
  test('grid steps from the opening minute and the appointment must end by closing time', () => {
    const result = computeSlots(engineInput());
    assert.deepEqual(startTimes(result.slots), ['09:00', '09:30', '10:00', '10:30', '11:00']);
    assert.equal(result.total, 5);
    assert.equal(result.truncated, false);
    assert.deepEqual(result.slots[0], {
      date: '2026-06-01',
      startTime: '09:00',
      endTime: '10:00',
      serviceId: 'svc',
      staffId: 's1',
      startAt: at('2026-06-01T09:00:00Z'),
      endAt: at('2026-06-01T10:00:00Z'),
    });
  });

  test('grid is anchored at an off-grid opening minute', () => {
    const result = computeSlots(engineInput({ staff: [staff('s1', [hours(1, '09:10', '11:00')])] }));
    assert.deepEqual(startTimes(result.slots), ['09:10', '09:40']);
  });

  test('a break between two intervals is never straddled', () => {
    const result = computeSlots(
      engineInput({
        service: { id: 'svc', durationMinutes: 90, bufferBeforeMinutes: 0, bufferAfterMinutes: 0 },
        staff: [staff('s1', [hours(1, '13:00', '17:00'), hours(1, '09:00', '12:00')])],
      }),
    );
    assert.deepEqual(startTimes(result.slots), ['09:00', '09:30', '10:00', '10:30', '13:00', '13:30', '14:00', '14:30', '15:00', '15:30']);
  });

  test("only intervals of the date's ISO weekday apply (Sunday = 7)", () => {
    const result = computeSlots(
      engineInput({ from: '2026-05-30', to: '2026-06-02', staff: [staff('s1', [hours(7, '10:00', '11:00'), hours(2, '08:00', '09:00')])] }),
    );
    assert.deepEqual(
      result.slots.map((s) => `${s.date} ${s.startTime}`),
      ['2026-05-31 10:00', '2026-06-02 08:00'],
    );
  });

  test('an interval ending at 24:00 allows an appointment ending at next midnight', () => {
    const result = computeSlots(
      engineInput({ timezone: 'Europe/Budapest', slotIntervalMinutes: 60, staff: [staff('s1', [hours(1, '22:00', '24:00')])] }),
    );
    assert.deepEqual(result.slots.map(describeSlot), ['22:00-23:00 @2026-06-01T20:00Z', '23:00-00:00 @2026-06-01T21:00Z']);
    assert.equal(result.slots[1]!.date, '2026-06-01');
    assert.equal(result.slots[1]!.endAt, at('2026-06-01T22:00:00Z'));
  });

  test('overlapping intervals of one weekday offer each slot once', () => {
    const result = computeSlots(engineInput({ staff: [staff('s1', [hours(1, '09:00', '11:00'), hours(1, '10:00', '12:00')])] }));
    assert.deepEqual(startTimes(result.slots), ['09:00', '09:30', '10:00', '10:30', '11:00']);
    assert.equal(result.total, 5);
  });

  test('a fixed-offset zone shifts instants but not wall-clock times', () => {
    const result = computeSlots(engineInput({ timezone: 'Asia/Kolkata', staff: [staff('s1', [hours(1, '09:00', '10:00')])] }));
    assert.deepEqual(result.slots.map(describeSlot), ['09:00-10:00 @2026-06-01T03:30Z']);
  });

  test('rejects a non-positive or fractional slot interval', () => {
    assert.throws(() => computeSlots(engineInput({ slotIntervalMinutes: 0 })), RangeError);
    assert.throws(() => computeSlots(engineInput({ slotIntervalMinutes: 7.5 })), RangeError);
  });
});

describe('computeSlots: unavailability', () => {
  test('time off removes every overlapping candidate, touching is fine', () => {
    const result = computeSlots(
      engineInput({ staff: [staff('s1', [hours(1, '09:00', '12:00')], { timeOff: [span('2026-06-01T10:00Z', '2026-06-01T10:30Z')] })] }),
    );
    assert.deepEqual(startTimes(result.slots), ['09:00', '10:30', '11:00']);
  });

  test('busy time blocks the buffered range, buffers may leave working hours', () => {
    const input = engineInput({
      slotIntervalMinutes: 15,
      service: { id: 'svc', durationMinutes: 30, bufferBeforeMinutes: 10, bufferAfterMinutes: 15 },
      staff: [staff('s1', [hours(1, '09:00', '12:00')], { busy: [span('2026-06-01T10:00Z', '2026-06-01T11:00Z')] })],
    });
    // Occupied [S-10, S+45) must not overlap [10:00, 11:00): 09:15 ends exactly at 10:00, 11:15 starts its buffer at 11:05.
    assert.deepEqual(startTimes(computeSlots(input).slots), ['09:00', '09:15', '11:15', '11:30']);
  });

  test('busy time just outside the buffered range does not block', () => {
    const input = engineInput({
      service: { id: 'svc', durationMinutes: 60, bufferBeforeMinutes: 30, bufferAfterMinutes: 30 },
      staff: [
        staff('s1', [hours(1, '09:00', '10:00')], {
          busy: [span('2026-06-01T08:00Z', '2026-06-01T08:30Z'), span('2026-06-01T10:30Z', '2026-06-01T11:00Z')],
        }),
      ],
    });
    assert.deepEqual(startTimes(computeSlots(input).slots), ['09:00']);
    const closer = {
      ...input,
      staff: [staff('s1', [hours(1, '09:00', '10:00')], { busy: [span('2026-06-01T10:29:59Z', '2026-06-01T11:00Z')] })],
    };
    assert.deepEqual(startTimes(computeSlots(closer).slots), []);
  });

  test('many unsorted busy intervals are honoured', () => {
    const busy = [];
    for (let i = 47; i >= 0; i--) {
      if (i % 4 !== 0)
        busy.push({ start: at('2026-06-01T00:00Z') + i * 30 * MINUTE, end: at('2026-06-01T00:00Z') + (i + 1) * 30 * MINUTE });
    }
    const result = computeSlots(
      engineInput({
        service: { id: 'svc', durationMinutes: 30, bufferBeforeMinutes: 0, bufferAfterMinutes: 0 },
        staff: [staff('s1', [hours(1, '00:00', '24:00')], { busy })],
      }),
    );
    assert.deepEqual(startTimes(result.slots), [
      '00:00',
      '02:00',
      '04:00',
      '06:00',
      '08:00',
      '10:00',
      '12:00',
      '14:00',
      '16:00',
      '18:00',
      '20:00',
      '22:00',
    ]);
  });
});

describe('computeSlots: notice, horizon, order, limit', () => {
  test('minimum notice is inclusive', () => {
    const base = engineInput({ minNoticeMinutes: 60 });
    assert.deepEqual(startTimes(computeSlots({ ...base, now: at('2026-06-01T08:10Z') }).slots), ['09:30', '10:00', '10:30', '11:00']);
    assert.deepEqual(startTimes(computeSlots({ ...base, now: at('2026-06-01T08:30Z') }).slots), ['09:30', '10:00', '10:30', '11:00']);
    assert.deepEqual(startTimes(computeSlots({ ...base, now: at('2026-06-01T08:00Z') }).slots), [
      '09:00',
      '09:30',
      '10:00',
      '10:30',
      '11:00',
    ]);
  });

  test('horizon is inclusive and counted from now', () => {
    const result = computeSlots(
      engineInput({
        now: at('2026-06-01T09:00Z'),
        horizonDays: 1,
        from: '2026-06-01',
        to: '2026-06-03',
        staff: [staff('s1', [hours(1, '09:00', '12:00'), hours(2, '09:00', '12:00'), hours(3, '09:00', '12:00')])],
      }),
    );
    assert.deepEqual(
      result.slots.map((s) => `${s.date} ${s.startTime}`),
      ['2026-06-01 09:00', '2026-06-01 09:30', '2026-06-01 10:00', '2026-06-01 10:30', '2026-06-01 11:00', '2026-06-02 09:00'],
    );
  });

  test('ordered by date, then start time, then staff id as a plain string', () => {
    const result = computeSlots(
      engineInput({
        from: '2026-06-01',
        to: '2026-06-02',
        slotIntervalMinutes: 60,
        staff: [
          staff('b', [hours(1, '10:00', '12:00'), hours(2, '08:00', '09:00')]),
          staff('a', [hours(1, '11:00', '12:00')]),
          staff('B', [hours(1, '10:00', '11:00')]),
        ],
      }),
    );
    assert.deepEqual(
      result.slots.map((s) => `${s.date} ${s.startTime} ${s.staffId}`),
      ['2026-06-01 10:00 B', '2026-06-01 10:00 b', '2026-06-01 11:00 a', '2026-06-01 11:00 b', '2026-06-02 08:00 b'],
    );
  });

  test('limit keeps the first slots but counts them all', () => {
    const run = (limit: number) => computeSlots(engineInput({ limit }));
    assert.deepEqual(
      [run(2), run(5), run(0)].map((r) => [startTimes(r.slots), r.total, r.truncated]),
      [
        [['09:00', '09:30'], 5, true],
        [['09:00', '09:30', '10:00', '10:30', '11:00'], 5, false],
        [[], 5, true],
      ],
    );
  });
});

describe('computeSlots: daylight-saving changes', () => {
  const sunday = (timezone: string, date: string, from: string, to: string, step: number, duration: number): EngineInput =>
    engineInput({
      timezone,
      from: date,
      to: date,
      slotIntervalMinutes: step,
      service: { id: 'svc', durationMinutes: duration, bufferBeforeMinutes: 0, bufferAfterMinutes: 0 },
      staff: [staff('s1', [hours(7, from, to)])],
    });

  test('Budapest spring forward: 02:00-02:59 never offered, 01:30 + 60 min ends 03:30', () => {
    const result = computeSlots(sunday('Europe/Budapest', '2026-03-29', '00:00', '06:00', 15, 60));
    assert.deepEqual(result.slots.map(describeSlot), [
      '00:00-01:00 @2026-03-28T23:00Z',
      '00:15-01:15 @2026-03-28T23:15Z',
      '00:30-01:30 @2026-03-28T23:30Z',
      '00:45-01:45 @2026-03-28T23:45Z',
      '01:00-03:00 @2026-03-29T00:00Z',
      '01:15-03:15 @2026-03-29T00:15Z',
      '01:30-03:30 @2026-03-29T00:30Z',
      '01:45-03:45 @2026-03-29T00:45Z',
      '03:00-04:00 @2026-03-29T01:00Z',
      '03:15-04:15 @2026-03-29T01:15Z',
      '03:30-04:30 @2026-03-29T01:30Z',
      '03:45-04:45 @2026-03-29T01:45Z',
      '04:00-05:00 @2026-03-29T02:00Z',
      '04:15-05:15 @2026-03-29T02:15Z',
      '04:30-05:30 @2026-03-29T02:30Z',
      '04:45-05:45 @2026-03-29T02:45Z',
      '05:00-06:00 @2026-03-29T03:00Z',
    ]);
    const s0130 = result.slots.find((s) => s.startTime === '01:30')!;
    assert.equal(s0130.endAt - s0130.startAt, 60 * MINUTE);
  });

  test('Budapest fall back: 02:00-02:59 offered once, at the first (summer-time) occurrence', () => {
    const result = computeSlots(sunday('Europe/Budapest', '2026-10-25', '00:00', '06:00', 15, 60));
    assert.deepEqual(result.slots.map(describeSlot), [
      '00:00-01:00 @2026-10-24T22:00Z',
      '00:15-01:15 @2026-10-24T22:15Z',
      '00:30-01:30 @2026-10-24T22:30Z',
      '00:45-01:45 @2026-10-24T22:45Z',
      '01:00-02:00 @2026-10-24T23:00Z',
      '01:15-02:15 @2026-10-24T23:15Z',
      '01:30-02:30 @2026-10-24T23:30Z',
      '01:45-02:45 @2026-10-24T23:45Z',
      '02:00-02:00 @2026-10-25T00:00Z',
      '02:15-02:15 @2026-10-25T00:15Z',
      '02:30-02:30 @2026-10-25T00:30Z',
      '02:45-02:45 @2026-10-25T00:45Z',
      '03:00-04:00 @2026-10-25T02:00Z',
      '03:15-04:15 @2026-10-25T02:15Z',
      '03:30-04:30 @2026-10-25T02:30Z',
      '03:45-04:45 @2026-10-25T02:45Z',
      '04:00-05:00 @2026-10-25T03:00Z',
      '04:15-05:15 @2026-10-25T03:15Z',
      '04:30-05:30 @2026-10-25T03:30Z',
      '04:45-05:45 @2026-10-25T03:45Z',
      '05:00-06:00 @2026-10-25T04:00Z',
    ]);
  });

  test('Budapest fall back: hours opening inside the repeated hour open at its first occurrence', () => {
    const result = computeSlots(sunday('Europe/Budapest', '2026-10-25', '02:00', '04:00', 30, 60));
    // 02:00 CEST to 04:00 CET is three real hours.
    assert.deepEqual(result.slots.map(describeSlot), [
      '02:00-02:00 @2026-10-25T00:00Z',
      '02:30-02:30 @2026-10-25T00:30Z',
      '03:00-04:00 @2026-10-25T02:00Z',
    ]);
  });

  test('hours closing inside the gap close at the jump, hours opening inside it open there', () => {
    // 02:30 never shows on Budapest clocks that night; they first read 02:30 or later at 03:00 CEST (01:00Z).
    const closing = computeSlots(sunday('Europe/Budapest', '2026-03-29', '00:00', '02:30', 30, 30));
    assert.deepEqual(closing.slots.map(describeSlot), [
      '00:00-00:30 @2026-03-28T23:00Z',
      '00:30-01:00 @2026-03-28T23:30Z',
      '01:00-01:30 @2026-03-29T00:00Z',
      '01:30-03:00 @2026-03-29T00:30Z',
    ]);
    const opening = computeSlots(sunday('Europe/Budapest', '2026-03-29', '02:30', '05:00', 30, 60));
    assert.deepEqual(opening.slots.map(describeSlot), [
      '03:00-04:00 @2026-03-29T01:00Z',
      '03:30-04:30 @2026-03-29T01:30Z',
      '04:00-05:00 @2026-03-29T02:00Z',
    ]);
  });

  test('New York spring forward', () => {
    const result = computeSlots(sunday('America/New_York', '2026-03-08', '00:00', '04:00', 30, 30));
    assert.deepEqual(result.slots.map(describeSlot), [
      '00:00-00:30 @2026-03-08T05:00Z',
      '00:30-01:00 @2026-03-08T05:30Z',
      '01:00-01:30 @2026-03-08T06:00Z',
      '01:30-03:00 @2026-03-08T06:30Z',
      '03:00-03:30 @2026-03-08T07:00Z',
      '03:30-04:00 @2026-03-08T07:30Z',
    ]);
  });

  test('New York fall back', () => {
    const result = computeSlots(sunday('America/New_York', '2026-11-01', '00:00', '04:00', 30, 30));
    assert.deepEqual(result.slots.map(describeSlot), [
      '00:00-00:30 @2026-11-01T04:00Z',
      '00:30-01:00 @2026-11-01T04:30Z',
      '01:00-01:30 @2026-11-01T05:00Z',
      '01:30-01:00 @2026-11-01T05:30Z',
      '02:00-02:30 @2026-11-01T07:00Z',
      '02:30-03:00 @2026-11-01T07:30Z',
      '03:00-03:30 @2026-11-01T08:00Z',
      '03:30-04:00 @2026-11-01T08:30Z',
    ]);
  });

  test('Lord Howe half-hour fall back: 01:30-01:59 offered once, at +11:00', () => {
    const result = computeSlots(sunday('Australia/Lord_Howe', '2026-04-05', '00:00', '04:00', 15, 15));
    assert.deepEqual(result.slots.map(describeSlot), [
      '00:00-00:15 @2026-04-04T13:00Z',
      '00:15-00:30 @2026-04-04T13:15Z',
      '00:30-00:45 @2026-04-04T13:30Z',
      '00:45-01:00 @2026-04-04T13:45Z',
      '01:00-01:15 @2026-04-04T14:00Z',
      '01:15-01:30 @2026-04-04T14:15Z',
      '01:30-01:45 @2026-04-04T14:30Z',
      '01:45-01:30 @2026-04-04T14:45Z',
      '02:00-02:15 @2026-04-04T15:30Z',
      '02:15-02:30 @2026-04-04T15:45Z',
      '02:30-02:45 @2026-04-04T16:00Z',
      '02:45-03:00 @2026-04-04T16:15Z',
      '03:00-03:15 @2026-04-04T16:30Z',
      '03:15-03:30 @2026-04-04T16:45Z',
      '03:30-03:45 @2026-04-04T17:00Z',
      '03:45-04:00 @2026-04-04T17:15Z',
    ]);
  });

  test('Lord Howe half-hour spring forward: 02:00-02:29 never offered, an hour spans 90 wall minutes', () => {
    const result = computeSlots(sunday('Australia/Lord_Howe', '2026-10-04', '00:00', '04:00', 15, 60));
    assert.deepEqual(result.slots.map(describeSlot), [
      '00:00-01:00 @2026-10-03T13:30Z',
      '00:15-01:15 @2026-10-03T13:45Z',
      '00:30-01:30 @2026-10-03T14:00Z',
      '00:45-01:45 @2026-10-03T14:15Z',
      '01:00-02:30 @2026-10-03T14:30Z',
      '01:15-02:45 @2026-10-03T14:45Z',
      '01:30-03:00 @2026-10-03T15:00Z',
      '01:45-03:15 @2026-10-03T15:15Z',
      '02:30-03:30 @2026-10-03T15:30Z',
      '02:45-03:45 @2026-10-03T15:45Z',
      '03:00-04:00 @2026-10-03T16:00Z',
    ]);
  });

  test('Havana springs forward at midnight: hours ending 24:00 the day before end at the jump', () => {
    const input = engineInput({
      timezone: 'America/Havana',
      from: '2026-03-07',
      to: '2026-03-08',
      slotIntervalMinutes: 30,
      service: { id: 'svc', durationMinutes: 60, bufferBeforeMinutes: 0, bufferAfterMinutes: 0 },
      staff: [staff('s1', [hours(6, '22:00', '24:00'), hours(7, '00:00', '02:00')])],
    });
    // Saturday 24:00 is Sunday 00:00, which does not exist: the day ends at 05:00Z, when clocks show 01:00.
    assert.deepEqual(result(input), [
      '2026-03-07 22:00-23:00 @2026-03-08T03:00Z',
      '2026-03-07 22:30-23:30 @2026-03-08T03:30Z',
      '2026-03-07 23:00-01:00 @2026-03-08T04:00Z',
      '2026-03-08 01:00-02:00 @2026-03-08T05:00Z',
    ]);
  });

  test('Santiago falls back at midnight: Saturday 23:00 offered once, the day lasts an hour longer', () => {
    const input = engineInput({
      timezone: 'America/Santiago',
      from: '2026-04-04',
      to: '2026-04-04',
      slotIntervalMinutes: 60,
      service: { id: 'svc', durationMinutes: 60, bufferBeforeMinutes: 0, bufferAfterMinutes: 0 },
      staff: [staff('s1', [hours(6, '22:00', '24:00')])],
    });
    assert.deepEqual(result(input), ['2026-04-04 22:00-23:00 @2026-04-05T01:00Z', '2026-04-04 23:00-23:00 @2026-04-05T02:00Z']);
  });

  test('a shift spanning the change still respects busy time by instant', () => {
    const input = sunday('Europe/Budapest', '2026-03-29', '00:00', '06:00', 60, 60);
    input.staff[0]!.busy.push(span('2026-03-29T00:30Z', '2026-03-29T01:30Z'));
    // Busy 01:30 CET - 03:30 CEST: the 01:00 and 03:00 starts overlap it, 04:00 (02:00Z) does not.
    assert.deepEqual(startTimes(computeSlots(input).slots), ['00:00', '04:00', '05:00']);
  });
});

function result(input: EngineInput): string[] {
  return computeSlots(input).slots.map((s) => `${s.date} ${describeSlot(s)}`);
}
