/**
 * New booking's proposal (dashboard/src/features/calendar/week.ts, docs/dashboard.md "Week view,
 * click to book, drag to move"): the staff member's first start that fits the working hours, the
 * grid, the buffers, time off and the bookings, not in the past, looking on to the next days.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nextFreeTime, weekDates } from '../dashboard/src/features/calendar/week.ts';

type Day = Parameters<typeof nextFreeTime>[0]['days'][number];

function day(
  date: string,
  o: { hours?: Array<[string, string]>; off?: Array<[string, string]>; booked?: Array<[string, string]> } = {},
): Day {
  return {
    date,
    staff: [
      {
        id: 'stf_a',
        workingHours: (o.hours ?? [['09:00', '17:00']]).map(([start, end]) => ({ start, end })),
        timeOff: (o.off ?? []).map(([from, to]) => ({ from, to })),
        bookings: (o.booked ?? []).map(([startTime, endTime]) => ({
          confirmedSlot: { date, startTime, endTime, timezone: 'Europe/Budapest' },
          requestedSlot: { date: null, startTime: null, timezone: 'Europe/Budapest' },
        })),
      },
    ],
  } as unknown as Day;
}

const base = { staffId: 'stf_a', durationMinutes: 30, bufferBeforeMinutes: 0, bufferAfterMinutes: 0, stepMinutes: 15 };
const past = { date: '2026-01-01', time: '00:00' };

test('the first start after a booked morning, on the grid, with the buffers', () => {
  const days = [day('2026-12-01', { booked: [['09:00', '12:00']] })];
  assert.deepEqual(nextFreeTime({ ...base, days, now: past }), { date: '2026-12-01', time: '12:00' });
  // a 15-minute buffer before: 12:00 would touch the booking's end
  assert.deepEqual(nextFreeTime({ ...base, bufferBeforeMinutes: 15, days, now: past }), { date: '2026-12-01', time: '12:15' });
});

test('time off and a gap too short are skipped; the next interval of the day is used', () => {
  const days = [
    day('2026-12-01', {
      hours: [
        ['09:00', '12:00'],
        ['13:00', '17:00'],
      ],
      off: [['09:00', '11:45']],
      booked: [['12:00', '13:30']],
    }),
  ];
  assert.deepEqual(nextFreeTime({ ...base, days, now: past }), { date: '2026-12-01', time: '13:30' });
});

test('nothing in the past; a full or closed day moves on to the next', () => {
  const days = [day('2026-12-01', { booked: [['09:00', '17:00']] }), day('2026-12-02', { hours: [] }), day('2026-12-03')];
  assert.deepEqual(nextFreeTime({ ...base, days, now: past }), { date: '2026-12-03', time: '09:00' });
  const today = [day('2026-12-03')];
  assert.deepEqual(nextFreeTime({ ...base, days: today, now: { date: '2026-12-03', time: '10:07' } }), {
    date: '2026-12-03',
    time: '10:15',
  });
  assert.equal(nextFreeTime({ ...base, days: today, now: { date: '2026-12-03', time: '16:31' } }), undefined);
});

test('the week is Monday to Sunday around any of its days', () => {
  assert.deepEqual(weekDates('2026-12-03'), [
    '2026-11-30',
    '2026-12-01',
    '2026-12-02',
    '2026-12-03',
    '2026-12-04',
    '2026-12-05',
    '2026-12-06',
  ]);
  assert.deepEqual(weekDates('2026-12-06')[0], '2026-11-30');
});
