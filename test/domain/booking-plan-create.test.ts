/** The decisions of POST /bookings without a database: policy, the planned row and events, placements. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createRefusal, createRules, planCreate, type Placement } from '../../src/domain/bookings/create-plan.ts';
import { seatPlacement, standardTime } from '../../src/domain/bookings/create-placement.ts';
import type { LocationRecord, ServiceRecord } from '../../src/domain/catalog-records.ts';
import { isAppError } from '../../src/domain/errors.ts';

const NOW = new Date('2031-03-01T12:00:00.000Z');
const T0 = new Date('2031-01-01T00:00:00.000Z');
const LOCATION: LocationRecord = {
  id: 'loc_1',
  businessId: 'biz_1',
  slug: 'downtown',
  name: 'Downtown',
  publicLocationName: 'Downtown',
  timezone: 'Europe/Budapest',
  city: 'Budapest',
  street: 'Fő utca 1',
  zip: '1011',
  bookingEnabled: true,
  slotIntervalMinutes: 15,
  minNoticeMinutes: 0,
  horizonDays: 60,
  paymentInstructions: null,
  phone: null,
  staffAssignment: 'ordered',
  createdAt: T0,
  updatedAt: T0,
};
const SERVICE: ServiceRecord = {
  id: 'svc_1',
  businessId: 'biz_1',
  locationId: 'loc_1',
  locationSlug: 'downtown',
  currency: 'HUF',
  name: 'Cut',
  description: null,
  durationMinutes: 60,
  priceType: 'fixed',
  priceMinor: 1000,
  requestAcceptancePolicy: 'manual',
  onlineBookable: true,
  active: true,
  onSite: false,
  bookingMode: 'standard',
  bufferBeforeMinutes: 10,
  bufferAfterMinutes: 5,
  segments: null,
  staffVariants: [],
  requiredResourceIds: [],
  depositRequired: false,
  depositTermsVersion: null,
  depositAmountMinor: null,
  pricingVersion: 'p1',
  createdAt: T0,
  updatedAt: T0,
};
const PLACEMENT: Placement = {
  staffId: 'stf_anna',
  staffName: 'Anna',
  sessionId: null,
  startAt: new Date('2031-03-10T09:00:00.000Z'),
  endAt: new Date('2031-03-10T10:00:00.000Z'),
  slot: { date: '2031-03-10', startTime: '10:00', endTime: '11:00' },
  held: { from: new Date('2031-03-10T08:50:00.000Z'), to: new Date('2031-03-10T10:05:00.000Z'), processing: [], resourceIds: [] },
};
const INPUT = { guest: { name: 'Guest', phone: '+36301234567', email: null }, note: null, serviceLocation: null };

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (isAppError(err)) return err.code;
    throw err;
  }
  assert.fail('expected a catalog error');
}

describe('create plan', () => {
  test('rules: the lost-slot code follows the policy; a manual deposit service needs deposits on', () => {
    assert.deepEqual(createRules(SERVICE, false), { automatic: false, slotGone: 'booking.slot_unavailable' });
    const automatic = { ...SERVICE, requestAcceptancePolicy: 'automatic' as const };
    assert.deepEqual(createRules(automatic, false), { automatic: true, slotGone: 'booking.slot_no_longer_available' });
    const deposit = { ...SERVICE, depositRequired: true };
    assert.equal(
      codeOf(() => createRules(deposit, false)),
      'booking.deposit_unavailable',
    );
    assert.equal(createRules(deposit, true).automatic, false);
    assert.equal(createRules({ ...deposit, requestAcceptancePolicy: 'automatic' }, false).automatic, true);
  });

  const request = (confirm: boolean) => ({
    bookingId: 'bkg_1',
    businessId: 'biz_1',
    salonSlug: 'demo-salon',
    location: LOCATION,
    service: SERVICE,
    input: INPUT,
    now: NOW,
    confirm,
  });

  test('requested: stateVersion 1, manual, one booking.requested event', () => {
    const { booking, events } = planCreate(request(false), PLACEMENT);
    assert.equal(booking.status, 'requested');
    assert.equal(booking.stateVersion, 1);
    assert.equal(booking.acceptanceMode, 'manual');
    assert.equal(booking.staffId, 'stf_anna');
    assert.equal(booking.requestedDate, '2031-03-10');
    assert.deepEqual(
      events.map((e) => [e.event, e.sequence, e.from, e.to, e.transitionId]),
      [['booking.requested', 1, null, 'requested', null]],
    );
  });

  test('confirmed in the same write: stateVersion 2, automatic, requested then confirmed', () => {
    const { booking, events } = planCreate(request(true), PLACEMENT);
    assert.equal(booking.status, 'confirmed');
    assert.equal(booking.stateVersion, 2);
    assert.equal(booking.acceptanceMode, 'automatic');
    assert.deepEqual(
      events.map((e) => [e.event, e.sequence, e.from, e.to]),
      [
        ['booking.requested', 1, null, 'requested'],
        ['booking.confirmed', 2, 'requested', 'confirmed'],
      ],
    );
    assert.match(events[1]!.transitionId ?? '', /^trn_/);
  });

  test('each plan draws a fresh public reference', () => {
    const refs = new Set(Array.from({ length: 20 }, () => planCreate(request(false), PLACEMENT).booking.publicReference));
    assert.ok(refs.size > 1);
  });

  test('refusals: quota, lost slot by policy, a settled key', () => {
    assert.equal(createRefusal('quota_exceeded', 'booking.slot_unavailable').code, 'subscription.quota_exceeded');
    assert.equal(createRefusal('time_taken', 'booking.slot_no_longer_available').code, 'booking.slot_no_longer_available');
    assert.equal(createRefusal('key_settled', 'booking.slot_unavailable').code, 'idempotency.request_in_progress');
  });

  test('standard time: buffers held; a DST gap is the lost-slot code', () => {
    const { resolved, held } = standardTime(LOCATION, SERVICE, { date: '2031-03-10', startTime: '10:00' }, 'booking.slot_unavailable');
    assert.equal(resolved.startAt.toISOString(), '2031-03-10T09:00:00.000Z');
    assert.equal(held.from.toISOString(), '2031-03-10T08:50:00.000Z');
    assert.equal(held.to.toISOString(), '2031-03-10T10:05:00.000Z');
    assert.equal(
      codeOf(() => standardTime(LOCATION, SERVICE, { date: '2031-03-30', startTime: '02:30' }, 'booking.slot_no_longer_available')),
      'booking.slot_no_longer_available',
    );
  });

  test('a seat: local slot from the session; a started session is unavailable', () => {
    const seat = {
      id: 'ses_1',
      staffId: 'stf_anna',
      staffName: 'Anna',
      startAt: new Date('2031-03-10T09:00:00.000Z'),
      endAt: new Date('2031-03-10T10:30:00.000Z'),
      priceMinor: 3900,
    };
    const p = seatPlacement('Europe/Budapest', seat, NOW);
    assert.deepEqual(p.slot, { date: '2031-03-10', startTime: '10:00', endTime: '11:30' });
    assert.equal(p.sessionId, 'ses_1');
    // a seat holds no processing and no resource units: its session holds the staff member's time
    assert.deepEqual(p.held, { from: seat.startAt, to: seat.endAt, processing: [], resourceIds: [] });
    assert.equal(p.seatPriceMinor, 3900);
    assert.equal(
      codeOf(() => seatPlacement('Europe/Budapest', seat, seat.startAt)),
      'booking.slot_unavailable',
    );
  });
});
