/**
 * The dashboard's two layouts of a location's day (dashboard/src/lib/time.ts): the day view's real
 * instants (`zonedDay`: a clock-change day is 23 or 25 hours, each hour line an instant) and the
 * week view's clock (`wallDay`: every day 24 rows, so a time is on one line across a week with a
 * clock change), and the time the clocks change (`clockChangeAt`), for Budapest's spring and
 * autumn Sundays and a plain day.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { clockChangeAt, wallDay, zonedDay } from '../dashboard/src/lib/time.ts';

const ZONE = 'Europe/Budapest';
const SPRING = '2027-03-28';
const AUTUMN = '2027-10-31';
const PLAIN = '2027-03-22';

describe('dashboard time layouts', () => {
  test('the day view: a clock-change day has its real length and hour instants', () => {
    assert.equal(zonedDay(SPRING, ZONE).lengthMinutes, 23 * 60);
    assert.equal(zonedDay(AUTUMN, ZONE).lengthMinutes, 25 * 60);
    assert.deepEqual(
      zonedDay(SPRING, ZONE)
        .hours.slice(0, 4)
        .map((h) => h.label),
      ['00:00', '01:00', '03:00', '04:00'],
    );
    const autumn = zonedDay(AUTUMN, ZONE).hours.slice(2, 4);
    assert.deepEqual(
      autumn.map((h) => [h.minute, h.label]),
      [
        [120, '02:00 (UTC+02:00)'],
        [180, '02:00 (UTC+01:00)'],
      ],
    );
    // 10:00 is nine hours after the spring Sunday's midnight
    assert.equal(zonedDay(SPRING, ZONE).minuteOf('10:00'), 540);
    assert.equal(zonedDay(SPRING, ZONE).timeAt(540), '10:00');
    assert.equal(zonedDay(SPRING, ZONE).minuteOfInstant(Date.parse(`${SPRING}T08:00:00Z`)), 540);
  });

  test('the week view: every day by the clock, 10:00 at minute 600 whatever the offset', () => {
    for (const date of [SPRING, AUTUMN, PLAIN]) {
      const day = wallDay(date, ZONE);
      assert.equal(day.lengthMinutes, 1440, date);
      assert.deepEqual(
        day.hours.map((h) => h.label),
        Array.from({ length: 24 }, (_, h) => `${String(h).padStart(2, '0')}:00`),
      );
      assert.equal(day.minuteOf('10:00'), 600, date);
      assert.equal(day.timeAt(600), '10:00', date);
      assert.equal(day.minuteOf('24:00'), 1440, date);
    }
    // instants: 10:00 local is 08:00Z in summer time, 09:00Z in winter time
    assert.equal(wallDay(SPRING, ZONE).minuteOfInstant(Date.parse(`${SPRING}T08:00:00Z`)), 600);
    assert.equal(wallDay(PLAIN, ZONE).minuteOfInstant(Date.parse(`${PLAIN}T09:00:00Z`)), 600);
    // the repeated hour shares its row: both 02:30s are at minute 150
    assert.equal(wallDay(AUTUMN, ZONE).minuteOfInstant(Date.parse(`${AUTUMN}T00:30:00Z`)), 150);
    assert.equal(wallDay(AUTUMN, ZONE).minuteOfInstant(Date.parse(`${AUTUMN}T01:30:00Z`)), 150);
    // an end on the next day, and a time before the day, are clamped to the day
    const plain = wallDay(PLAIN, ZONE);
    assert.equal(plain.minuteOfLocal('2027-03-23', '09:00'), 1440);
    assert.equal(plain.minuteOfLocal('2027-03-21', '23:00'), 0);
    assert.equal(plain.timeAt(1440), '23:59');
  });

  test('the time the clocks change: 02:00 in spring, 03:00 in autumn, none on a plain day', () => {
    assert.equal(clockChangeAt(SPRING, ZONE), '02:00');
    assert.equal(clockChangeAt(AUTUMN, ZONE), '03:00');
    assert.equal(clockChangeAt(PLAIN, ZONE), undefined);
    assert.equal(clockChangeAt(SPRING, 'UTC'), undefined);
    assert.equal(clockChangeAt('2027-03-14', 'America/New_York'), '02:00');
  });
});
