/**
 * When a reminder is sent (domain/messages/reminder-time.ts): never after its due time, never in the
 * location's quiet hours (by its wall clock, DST included), and due time unchanged outside them.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { inQuietHours, localMinuteOf, reminderSendAt } from '../../src/domain/messages/reminder-time.ts';
import { planEventMessages, type PolicyContext, type PolicyEvent } from '../../src/domain/messages/policy.ts';
import { defaultGuestSettings } from '../../src/domain/guest-settings/settings.ts';
import { formatHhMm } from '../../src/domain/time/hh-mm.ts';
import { eventSnapshot } from '../../src/domain/messages/snapshot.ts';
import { toBookingView } from '../../src/domain/bookings/view.ts';

const ZONES = ['Europe/Budapest', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata', 'UTC', 'America/Santiago'];
// 2026: spring and autumn changes in both hemispheres fall inside this range.
const FROM = Date.UTC(2026, 0, 1);
const TO = Date.UTC(2027, 0, 1);

const quietArb = fc
  .tuple(fc.integer({ min: 0, max: 1439 }), fc.integer({ min: 0, max: 1439 }))
  .filter(([a, b]) => a !== b)
  .map(([a, b]) => ({ start: formatHhMm(a), end: formatHhMm(b) }));

describe('reminder send time', () => {
  test('never after the due time, never inside quiet hours, due time itself outside them', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: FROM / 60_000, max: TO / 60_000 }),
        fc.integer({ min: 1, max: 10_080 }),
        fc.constantFrom(...ZONES),
        fc.option(quietArb, { nil: null }),
        (startMinute, minutesBefore, zone, quiet) => {
          const start = new Date(startMinute * 60_000);
          const due = start.getTime() - minutesBefore * 60_000;
          const at = reminderSendAt(start, minutesBefore, zone, quiet);
          assert.ok(at.getTime() <= due, 'never later than due');
          if (quiet === null) return assert.equal(at.getTime(), due);
          assert.ok(!inQuietHours(localMinuteOf(at, zone).minute, quiet), `not in quiet hours: ${at.toISOString()} ${zone}`);
          if (!inQuietHours(localMinuteOf(new Date(due), zone).minute, quiet)) assert.equal(at.getTime(), due);
          // The latest such minute: the next minute is in quiet hours or is past due.
          const next = at.getTime() + 60_000;
          assert.ok(next > due || inQuietHours(localMinuteOf(new Date(next), zone).minute, quiet), 'the last minute before quiet hours');
        },
      ),
      { numRuns: 3000 },
    );
  });

  test('a reminder due at 03:00 in a 21:00-08:00 night goes at 20:59 the evening before (Budapest, across the autumn change)', () => {
    // 2026-10-25 is the autumn change in Budapest (03:00 CEST -> 02:00 CET).
    const start = new Date('2026-10-25T03:00:00Z'); // 04:00 CET
    const at = reminderSendAt(start, 60, 'Europe/Budapest', { start: '21:00', end: '08:00' });
    assert.equal(at.toISOString(), '2026-10-24T18:59:00.000Z'); // 20:59 CEST
  });

  test('quiet hours inside one day (12:00-14:00) move a 13:30 reminder to 11:59', () => {
    const start = new Date('2026-06-10T12:30:00Z'); // 14:30 CEST
    assert.equal(reminderSendAt(start, 60, 'Europe/Budapest', { start: '12:00', end: '14:00' }).toISOString(), '2026-06-10T09:59:00.000Z');
  });
});

const snapshot = {
  publicReference: 'ABC123',
  serviceName: 'Haircut',
  staffName: 'Anna',
  guestName: 'Kiss Éva',
  locationName: 'Downtown',
  address: 'Váci utca 1., 1052 Budapest',
  timezone: 'Europe/Budapest',
  status: 'confirmed' as const,
  stateVersion: 2,
  time: {
    date: '2031-06-03',
    startTime: '10:00',
    endTime: '10:30',
    startAt: '2031-06-03T08:00:00.000Z',
    endAt: '2031-06-03T08:30:00.000Z',
  },
  proposed: null,
};

function ctx(over: Partial<PolicyContext> = {}): PolicyContext {
  return {
    businessId: 'biz_1',
    settings: defaultGuestSettings(),
    source: 'bookingPage',
    guest: { email: 'g@example.com', phone: '+36301234567' },
    lang: 'hu',
    smsFeature: true,
    businessRecipients: [{ memberId: 'usr_1', email: 'owner@example.com' }],
    now: new Date('2031-06-01T12:00:00Z'),
    ...over,
  };
}

const ev = (over: Partial<PolicyEvent>): PolicyEvent => ({
  name: 'booking.confirmed',
  sequence: 2,
  actor: null,
  bookingId: 'bkg_1',
  booking: snapshot,
  confirmedInSameWrite: false,
  ...over,
});

describe('message policy', () => {
  test('an automatic booking: booking.requested tells nobody, its booking.confirmed tells the guest once and plans the reminder', () => {
    const requested = planEventMessages(
      ev({
        name: 'booking.requested',
        sequence: 1,
        booking: { ...snapshot, status: 'requested', stateVersion: 1 },
        confirmedInSameWrite: true,
      }),
      ctx(),
    );
    assert.deepEqual(requested, []);
    const confirmed = planEventMessages(ev({}), ctx());
    assert.deepEqual(
      confirmed.map((m) => [m.kind, m.channel, m.audience]),
      [
        ['booking.confirmed', 'email', 'guest'],
        ['booking.reminder', 'email', 'guest'],
      ],
    );
    const reminder = confirmed[1]!;
    assert.equal(reminder.reminderMinutes, 1440);
    // 24 h before 10:00 is 10:00 the day before: outside the default 21:00-08:00 quiet hours.
    assert.equal(reminder.scheduledAt.toISOString(), '2031-06-02T08:00:00.000Z');
    assert.match(reminder.uniqueKey, /r1440@2031-06-03T08:00:00.000Z/);
  });

  test('a request: booking.received to the guest and business.new_request to each owner and manager, in English', () => {
    const rows = planEventMessages(
      ev({ name: 'booking.requested', sequence: 1, booking: { ...snapshot, status: 'requested', stateVersion: 1 } }),
      ctx(),
    );
    assert.deepEqual(
      rows.map((m) => [m.kind, m.recipient, m.lang]),
      [
        ['booking.received', 'g@example.com', 'hu'],
        ['business.new_request', 'owner@example.com', 'en'],
      ],
    );
    const off = ctx({
      settings: {
        ...defaultGuestSettings(),
        notifications: { ...defaultGuestSettings().notifications, businessEmail: { newRequest: false, guestCancelled: true } },
      },
    });
    assert.deepEqual(
      planEventMessages(ev({ name: 'booking.requested', sequence: 1, booking: { ...snapshot, status: 'requested' } }), off).map(
        (m) => m.kind,
      ),
      ['booking.received'],
    );
  });

  test('a guest cancelling tells the business; a member cancelling does not', () => {
    const c = { ...snapshot, status: 'cancelled' as const, stateVersion: 3 };
    assert.deepEqual(
      planEventMessages(ev({ name: 'booking.cancelled', sequence: 3, actor: 'guest', booking: c }), ctx()).map((m) => m.kind),
      ['booking.cancelled', 'business.guest_cancelled'],
    );
    assert.deepEqual(
      planEventMessages(ev({ name: 'booking.cancelled', sequence: 3, actor: 'member', booking: c }), ctx()).map((m) => m.kind),
      ['booking.cancelled'],
    );
  });

  test('guestEmail bookingPageOnly and off; SMS only with the plan feature and the setting', () => {
    const s = defaultGuestSettings();
    const only = { ...s, notifications: { ...s.notifications, guestEmail: 'bookingPageOnly' as const } };
    assert.equal(planEventMessages(ev({}), ctx({ settings: only, source: 'api' })).length, 0);
    assert.equal(planEventMessages(ev({}), ctx({ settings: only, source: 'bookingPage' })).length, 2);
    const off = { ...s, notifications: { ...s.notifications, guestEmail: 'off' as const } };
    assert.equal(planEventMessages(ev({}), ctx({ settings: off })).length, 0);
    const sms = { ...s, notifications: { ...s.notifications, sms: true } };
    assert.deepEqual(
      planEventMessages(ev({}), ctx({ settings: sms })).map((m) => `${m.kind}/${m.channel}`),
      ['booking.confirmed/email', 'booking.confirmed/sms', 'booking.reminder/email', 'booking.reminder/sms'],
    );
    assert.equal(planEventMessages(ev({}), ctx({ settings: sms, smsFeature: false })).filter((m) => m.channel === 'sms').length, 0);
  });

  test('a reminder whose time has passed is recorded skipped, not sent late', () => {
    const rows = planEventMessages(ev({}), ctx({ now: new Date('2031-06-02T09:00:00Z') }));
    const r = rows.find((m) => m.kind === 'booking.reminder')!;
    assert.match(r.skippedBecause ?? '', /passed/);
  });

  test('a moved booking gets reminders under a new key; the same time keeps its key', () => {
    const a = planEventMessages(ev({}), ctx()).find((m) => m.kind === 'booking.reminder')!;
    const same = planEventMessages(ev({ name: 'booking.reschedule_confirmed', sequence: 4 }), ctx()).find(
      (m) => m.kind === 'booking.reminder',
    )!;
    assert.equal(same.uniqueKey, a.uniqueKey);
    const moved = { ...snapshot, time: { ...snapshot.time, startAt: '2031-06-04T08:00:00.000Z', date: '2031-06-04' } };
    const b = planEventMessages(ev({ name: 'booking.reschedule_confirmed', sequence: 4, booking: moved }), ctx()).find(
      (m) => m.kind === 'booking.reminder',
    )!;
    assert.notEqual(b.uniqueKey, a.uniqueKey);
  });
});

describe('what a message describes', () => {
  const record = {
    id: 'bkg_1',
    businessId: 'biz_1',
    locationId: 'loc_1',
    serviceId: 'svc_1',
    staffId: 'stf_1',
    sessionId: null,
    publicReference: 'ABC123',
    status: 'confirmed' as const,
    stateVersion: 3,
    acceptanceMode: 'automatic' as const,
    serviceName: 'Haircut',
    staffName: 'Anna',
    locationSnapshot: {
      id: 'loc_1',
      locationSlug: 'downtown',
      publicLocationName: 'Downtown',
      address: { city: 'Budapest', street: 'Váci utca 1.', zip: '1052' },
      timezone: 'Europe/Budapest',
    },
    timezone: 'Europe/Budapest',
    requestedDate: '2031-06-03',
    requestedStartTime: '10:00',
    startAt: new Date('2031-06-04T09:00:00Z'),
    endAt: new Date('2031-06-04T09:30:00Z'),
    slot: { date: '2031-06-04', startTime: '11:00', endTime: '11:30' },
    proposed: null,
    guestName: 'Kiss Éva',
    note: null,
    serviceLocation: null,
    createdAt: new Date('2031-06-01T12:00:00Z'),
    updatedAt: new Date('2031-06-01T12:05:00Z'),
  };

  test('a follow-up that runs after a later move still describes its own event', () => {
    // v2 confirmed at 10:00 on the 3rd; the row is already v3, moved to 11:00 on the 4th.
    const v2 = toBookingView({ ...record, stateVersion: 2, slot: { date: '2031-06-03', startTime: '10:00', endTime: '10:30' } });
    const s = eventSnapshot(record, v2);
    assert.equal(s.stateVersion, 2);
    assert.deepEqual(s.time, {
      date: '2031-06-03',
      startTime: '10:00',
      endTime: '10:30',
      startAt: '2031-06-03T08:00:00.000Z',
      endAt: '2031-06-03T08:30:00.000Z',
    });
    assert.deepEqual(eventSnapshot(record, toBookingView(record)).time.startAt, '2031-06-04T09:00:00.000Z');
  });
});
