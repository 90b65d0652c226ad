/**
 * The pure parts of reports (docs/reports.md): rates to 4 decimals with null for 0 ÷ 0, the period's
 * checks, and working minutes per local day less time off (overlapping blocks counted once, a block
 * across midnight, the two DST days of Europe/Budapest).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { reportPeriod } from '../src/domain/reports/period.ts';
import { rate, round4 } from '../src/domain/reports/rates.ts';
import { workingMinutes } from '../src/domain/reports/working-minutes.ts';
import { parseIsoDate } from '../src/domain/time/calendar.ts';

const ZONE = 'Europe/Budapest';
const NINE_TO_FIVE = [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, startMinute: 540, endMinute: 1020 }));
const at = (iso: string) => Date.parse(iso);

test('rates: 4 decimals, null when nothing to divide by', () => {
  assert.equal(rate(1, 3), 0.3333);
  assert.equal(rate(2, 3), 0.6667);
  assert.equal(rate(0, 5), 0);
  assert.equal(rate(0, 0), null);
  assert.equal(rate(3, 0), null);
  assert.equal(round4(0.00005), 0.0001);
});

test('the period: both days count, 366 at most', () => {
  assert.deepEqual(reportPeriod('2032-01-01', '2032-12-31'), {
    from: '2032-01-01',
    to: '2032-12-31',
    fromDay: parseIsoDate('2032-01-01'),
    toDay: parseIsoDate('2032-12-31'),
  });
  assert.throws(() => reportPeriod('2031-01-01', '2032-01-02'), /at most 366 days/);
  assert.throws(() => reportPeriod('2031-06-02', '2031-06-01'), /must not be before from/);
  assert.throws(() => reportPeriod('2031-02-29', '2031-03-01'), /not a real date/);
});

test('working minutes: time off inside, across and outside the hours; overlapping blocks once', () => {
  const d = parseIsoDate('2031-06-10');
  assert.equal(workingMinutes(ZONE, NINE_TO_FIVE, [], d, d), 480);
  const timeOff = [
    { start: at('2031-06-10T05:00:00Z'), end: at('2031-06-10T11:00:00Z') }, // 07:00-13:00 local
    { start: at('2031-06-10T09:00:00Z'), end: at('2031-06-10T12:00:00Z') }, // 11:00-14:00, overlapping
    { start: at('2031-06-10T20:00:00Z'), end: at('2031-06-11T08:00:00Z') }, // 22:00 to 10:00 next day
  ];
  // the 10th: 09:00-14:00 off = 300 of 480; the 11th: 09:00-10:00 off = 60 of 480
  assert.equal(workingMinutes(ZONE, NINE_TO_FIVE, timeOff, d, d + 1), 180 + 420);
  assert.equal(workingMinutes(ZONE, [], timeOff, d, d + 1), 0);
  const mondays = [{ weekday: 1, startMinute: 540, endMinute: 1020 }];
  // 2031-06-09 is a Monday: one working day in the week
  assert.equal(workingMinutes(ZONE, mondays, [], parseIsoDate('2031-06-09'), parseIsoDate('2031-06-15')), 480);
});

test('working minutes across DST: only the hours the clock skips or repeats change', () => {
  const nightShift = [{ weekday: 7, startMinute: 60, endMinute: 300 }]; // Sundays 01:00-05:00
  assert.equal(workingMinutes(ZONE, nightShift, [], parseIsoDate('2031-03-30'), parseIsoDate('2031-03-30')), 180);
  assert.equal(workingMinutes(ZONE, nightShift, [], parseIsoDate('2031-10-26'), parseIsoDate('2031-10-26')), 300);
  assert.equal(workingMinutes(ZONE, NINE_TO_FIVE, [], parseIsoDate('2031-03-30'), parseIsoDate('2031-03-30')), 480);
});
