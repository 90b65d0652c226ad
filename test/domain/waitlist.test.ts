/** The waitlist's pure rules (src/domain/waitlist/): joining, which start suits an entry, what a booking kept. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fittingTimes, fitsEntry } from '../../src/domain/waitlist/entry.ts';
import { checkJoin, readJoinForm } from '../../src/domain/waitlist/join.ts';
import { keptTimes } from '../../src/domain/waitlist/kept-times.ts';

const ctx = { today: '2031-06-01', lastDate: '2031-08-30', staffIds: ['stf_a'] };
const valid = {
  name: 'Vera',
  phone: '+36 30 111 2222',
  email: 'vera@example.com',
  from: '2031-06-02',
  to: '2031-06-05',
  earliest: '09:00',
  latest: '12:00',
  staff: 'any',
};

test('a valid join has no problem; each bad field has its own', () => {
  assert.deepEqual(checkJoin(readJoinForm(valid), ctx), {});
  assert.deepEqual(checkJoin(readJoinForm({ ...valid, staff: 'stf_a' }), ctx), {});
  assert.deepEqual(
    checkJoin(
      readJoinForm({
        name: '',
        phone: 'x',
        email: 'a@',
        from: '2031-05-31',
        to: '2031-02-30',
        earliest: '25:00',
        latest: '',
        staff: 'stf_z',
      }),
      ctx,
    ),
    {
      name: 'required',
      phone: 'invalid',
      email: 'invalid',
      from: 'past',
      to: 'invalid',
      earliest: 'invalid',
      latest: 'required',
      staff: 'invalid',
    },
  );
  assert.deepEqual(checkJoin(readJoinForm({ ...valid, from: '2031-06-05', to: '2031-06-04' }), ctx), { to: 'beforeFrom' });
  assert.deepEqual(checkJoin(readJoinForm({ ...valid, to: '2031-09-01' }), ctx), { to: 'beyondHorizon' });
  assert.deepEqual(checkJoin(readJoinForm({ ...valid, earliest: '12:00', latest: '11:59' }), ctx), { latest: 'beforeEarliest' });
  assert.deepEqual(checkJoin(readJoinForm({ ...valid, earliest: '12:00', latest: '12:00' }), ctx), {}, 'one exact start');
  // A missing staff field is Any staff.
  assert.equal(readJoinForm({}).staff, 'any');
});

test('a start suits an entry inside its dates and window, both ends included; times let pass are left out', () => {
  const e = { fromDate: '2031-06-02', toDate: '2031-06-03', earliestTime: '10:00', latestTime: '11:00' };
  assert.ok(fitsEntry(e, '2031-06-02', '10:00'));
  assert.ok(fitsEntry(e, '2031-06-03', '11:00'));
  assert.ok(!fitsEntry(e, '2031-06-03', '11:05'));
  assert.ok(!fitsEntry(e, '2031-06-04', '10:00'));
  const days = [
    { date: '2031-06-03', times: ['10:30', '09:00'] },
    { date: '2031-06-02', times: ['11:30', '10:45', '10:15'] },
  ];
  assert.deepEqual(fittingTimes(e, days), [
    { date: '2031-06-02', startTime: '10:15' },
    { date: '2031-06-02', startTime: '10:45' },
    { date: '2031-06-03', startTime: '10:30' },
  ]);
  assert.deepEqual(fittingTimes(e, days, new Set(['2031-06-02 10:15']))[0], { date: '2031-06-02', startTime: '10:45' });
});

test('the time a booking kept: its confirmed slot, else a minute at the requested start', () => {
  const view = (over: Record<string, unknown>) =>
    ({ requestedSlot: { date: '2031-06-02', startTime: '10:00', timezone: 'Europe/Budapest' }, confirmedSlot: null, ...over }) as never;
  assert.deepEqual(keptTimes([view({})]), [{ from: '2031-06-02T08:00:00.000Z', to: '2031-06-02T08:01:00.000Z' }]);
  const confirmed = view({ confirmedSlot: { date: '2031-06-03', startTime: '14:00', endTime: '14:30', timezone: 'Europe/Budapest' } });
  assert.deepEqual(keptTimes([undefined, confirmed])[0], { from: '2031-06-03T12:00:00.000Z', to: '2031-06-03T12:30:00.000Z' });
});
