/**
 * planChange without a database: every status × action pair of the state machine, the rows and
 * events it plans, and the checks it makes before any write.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type ChangeContext, planChange } from '../../src/domain/bookings/plan-change.ts';
import type { BookingRecord } from '../../src/domain/bookings/record.ts';
import { type Action, BOOKING_STATUSES, type BookingStatus, TRANSITIONS } from '../../src/domain/bookings/states.ts';
import { isAppError } from '../../src/domain/errors.ts';

const ACTIONS = Object.keys(TRANSITIONS) as Action[];
const START = new Date('2031-03-10T09:00:00.000Z');
const END = new Date('2031-03-10T10:00:00.000Z');
const AFTER_START = new Date('2031-03-10T09:30:00.000Z');
const BEFORE_START = new Date('2031-03-01T12:00:00.000Z');
const PROPOSED = {
  staffId: 'stf_bob',
  startAt: new Date('2031-03-11T13:00:00.000Z'),
  endAt: new Date('2031-03-11T14:00:00.000Z'),
  slot: { date: '2031-03-11', startTime: '14:00', endTime: '15:00' },
};
const TIMING = { durationMinutes: 60, bufferBeforeMinutes: 10, bufferAfterMinutes: 5, segments: null };
const CTX: ChangeContext = {
  timing: TIMING,
  newStaff: { id: 'stf_carl', name: 'Carl' },
  proposedStaff: { id: 'stf_bob', name: 'Bob' },
  salonSlug: 'demo-salon',
};
const NEW_TIME = { date: '2031-03-12', startTime: '11:30' };
const MINUTE = 60_000;

function booking(status: BookingStatus, over: Partial<BookingRecord> = {}): BookingRecord {
  return {
    id: 'bkg_1',
    businessId: 'biz_1',
    locationId: 'loc_1',
    serviceId: 'svc_1',
    staffId: 'stf_anna',
    sessionId: null,
    publicReference: 'BK-TEST',
    status,
    stateVersion: 3,
    acceptanceMode: 'manual',
    serviceName: 'Cut',
    staffName: 'Anna',
    locationSnapshot: {
      id: 'loc_1',
      locationSlug: 'downtown',
      publicLocationName: 'Downtown',
      address: { city: 'Budapest', street: 'Fő utca 1', zip: '1011' },
      timezone: 'Europe/Budapest',
    },
    timezone: 'Europe/Budapest',
    requestedDate: '2031-03-10',
    requestedStartTime: '10:00',
    startAt: START,
    endAt: END,
    slot: { date: '2031-03-10', startTime: '10:00', endTime: '11:00' },
    proposed: status === 'rescheduleProposed' ? PROPOSED : null,
    guestName: 'Guest',
    note: null,
    serviceLocation: null,
    createdAt: new Date('2031-02-01T00:00:00.000Z'),
    updatedAt: new Date('2031-02-01T00:00:00.000Z'),
    ...over,
  };
}

function request(action: Action, now = AFTER_START) {
  return { action, now, newTime: action === 'propose' || action === 'reschedule' ? NEW_TIME : undefined };
}

function errorCode(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (isAppError(err)) return err.code;
    throw err;
  }
  assert.fail('expected a catalog error');
}

const EXPECTED: Record<Action, { to: BookingStatus; event: string }> = {
  autoConfirm: { to: 'confirmed', event: 'booking.confirmed' },
  accept: { to: 'confirmed', event: 'booking.confirmed' },
  decline: { to: 'declined', event: 'booking.declined' },
  propose: { to: 'rescheduleProposed', event: 'booking.reschedule_proposed' },
  acceptProposal: { to: 'confirmed', event: 'booking.reschedule_confirmed' },
  reschedule: { to: 'confirmed', event: 'booking.reschedule_confirmed' },
  complete: { to: 'completed', event: 'booking.completed' },
  noShow: { to: 'noShow', event: 'booking.no_show' },
  cancel: { to: 'cancelled', event: 'booking.cancelled' },
};

describe('planChange: every status × action', () => {
  for (const status of BOOKING_STATUSES) {
    for (const action of ACTIONS) {
      const allowed = TRANSITIONS[action].from.includes(status);
      test(`${status} × ${action}: ${allowed ? EXPECTED[action].to : 'booking.invalid_transition'}`, () => {
        const before = booking(status);
        if (!allowed) {
          assert.equal(
            errorCode(() => planChange(before, request(action), CTX)),
            'booking.invalid_transition',
          );
          return;
        }
        const plan = planChange(before, request(action), CTX);
        const { change, after, events } = plan;
        assert.equal(change.status, EXPECTED[action].to);
        assert.equal(change.stateVersion, before.stateVersion + 1);
        assert.equal(change.updatedAt, AFTER_START);
        assert.equal(
          change.acceptanceMode,
          action === 'autoConfirm' ? 'automatic' : action === 'accept' ? 'manual' : before.acceptanceMode,
        );
        assert.equal(events.length, 1);
        const [event] = events;
        assert.equal(event!.event, EXPECTED[action].event);
        assert.equal(event!.from, status);
        assert.equal(event!.to, change.status);
        assert.equal(event!.sequence, change.stateVersion);
        assert.match(event!.transitionId ?? '', /^trn_/);
        assert.equal(JSON.parse(event!.payloadJson).salonSlug, 'demo-salon');
        assert.equal(after.status, change.status);
        assert.equal(after.stateVersion, change.stateVersion);
        assert.deepEqual(after.proposed, change.proposed);
        assert.equal(plan.releaseSeatOf, null, 'not a group seat');
        assert.equal(plan.lockStaff.length > 0, ['requested', 'confirmed', 'rescheduleProposed'].includes(change.status));

        if (action === 'propose') {
          // The appointment stays; the proposal is held instead.
          assert.equal(change.startAt, START);
          assert.equal(change.staffId, 'stf_anna');
          assert.equal(change.proposed?.staffId, 'stf_carl');
          assert.deepEqual(change.proposed?.slot, { date: '2031-03-12', startTime: '11:30', endTime: '12:30' });
          assert.equal(change.proposed?.startAt.toISOString(), '2031-03-12T10:30:00.000Z');
          assert.equal(change.occupiedStaffId, 'stf_carl');
          assert.equal(change.occupiedFrom.getTime(), change.proposed!.startAt.getTime() - 10 * MINUTE);
          assert.equal(change.occupiedTo.getTime(), change.proposed!.endAt.getTime() + 5 * MINUTE);
        } else if (action === 'reschedule') {
          assert.equal(change.proposed, null);
          assert.equal(change.staffId, 'stf_carl');
          assert.equal(change.staffName, 'Carl');
          assert.deepEqual(change.slot, { date: '2031-03-12', startTime: '11:30', endTime: '12:30' });
          assert.equal(change.startAt.toISOString(), '2031-03-12T10:30:00.000Z');
          assert.equal(change.endAt.toISOString(), '2031-03-12T11:30:00.000Z');
          assert.equal(change.occupiedStaffId, 'stf_carl');
          assert.equal(change.occupiedFrom.getTime(), change.startAt.getTime() - 10 * MINUTE);
        } else if (action === 'acceptProposal') {
          assert.equal(change.proposed, null);
          assert.equal(change.staffId, 'stf_bob');
          assert.equal(change.staffName, 'Bob');
          assert.equal(change.startAt, PROPOSED.startAt);
          assert.deepEqual(change.slot, PROPOSED.slot);
          assert.equal(change.occupiedStaffId, 'stf_bob');
          assert.equal(change.occupiedTo.getTime(), PROPOSED.endAt.getTime() + 5 * MINUTE);
          assert.deepEqual(plan.lockStaff, ['stf_anna', 'stf_bob', 'stf_bob']);
        } else {
          // Time and staff stay; a proposal left any other way is dropped.
          assert.equal(change.proposed, null);
          assert.equal(change.staffId, 'stf_anna');
          assert.equal(change.startAt, START);
          assert.equal(change.occupiedStaffId, 'stf_anna');
          assert.equal(change.occupiedFrom.getTime(), START.getTime() - 10 * MINUTE);
          assert.equal(change.occupiedTo.getTime(), END.getTime() + 5 * MINUTE);
        }
      });
    }
  }
});

describe('planChange: checks before any write', () => {
  for (const action of ['complete', 'noShow'] as const) {
    test(`${action} before the start: booking.invalid_transition`, () => {
      assert.equal(
        errorCode(() => planChange(booking('confirmed'), request(action, BEFORE_START), CTX)),
        'booking.invalid_transition',
      );
      assert.equal(planChange(booking('confirmed'), request(action, START), CTX).change.status, EXPECTED[action].to, 'at the start');
    });
  }

  test('the transition is checked before the service: a gone service does not hide an invalid transition', () => {
    assert.equal(
      errorCode(() => planChange(booking('cancelled'), request('cancel'), { ...CTX, timing: undefined })),
      'booking.invalid_transition',
    );
    assert.equal(
      errorCode(() => planChange(booking('confirmed'), request('cancel'), { ...CTX, timing: undefined })),
      'catalog.service_not_found',
    );
  });

  test('moves: not for a group seat, a new time required, a staff member who offers the service, a time that exists', () => {
    const seat = booking('confirmed', { sessionId: 'ses_1' });
    assert.equal(
      errorCode(() => planChange(seat, request('reschedule'), CTX)),
      'booking.invalid_transition',
    );
    assert.equal(
      errorCode(() => planChange(booking('confirmed'), { action: 'propose', now: AFTER_START }, CTX)),
      'request.validation_failed',
    );
    assert.equal(
      errorCode(() => planChange(booking('confirmed', { staffId: null }), request('reschedule'), CTX)),
      'catalog.staff_not_found',
    );
    assert.equal(
      errorCode(() => planChange(booking('confirmed'), request('reschedule'), { ...CTX, newStaff: undefined })),
      'catalog.staff_not_found',
    );
    // 02:30 on the last Sunday of March does not exist in Budapest.
    const gap = { action: 'reschedule' as const, now: AFTER_START, newTime: { date: '2031-03-30', startTime: '02:30' } };
    assert.equal(
      errorCode(() => planChange(booking('confirmed'), gap, CTX)),
      'booking.slot_unavailable',
    );
  });

  test('acceptProposal: without a proposal invalid; the proposal stands when its staff member is gone (the id as name)', () => {
    assert.equal(
      errorCode(() => planChange(booking('rescheduleProposed', { proposed: null }), request('acceptProposal'), CTX)),
      'booking.invalid_transition',
    );
    const plan = planChange(booking('rescheduleProposed'), request('acceptProposal'), { ...CTX, proposedStaff: undefined });
    assert.equal(plan.change.staffName, 'stf_bob');
  });

  test('a group seat: no staff lock; cancel and decline give the seat back', () => {
    const seat = (status: BookingStatus) => booking(status, { sessionId: 'ses_1' });
    assert.deepEqual(planChange(seat('confirmed'), request('complete'), CTX).lockStaff, []);
    assert.deepEqual(planChange(seat('requested'), request('accept'), CTX).lockStaff, []);
    assert.equal(planChange(seat('confirmed'), request('cancel'), CTX).releaseSeatOf, 'ses_1');
    assert.equal(planChange(seat('requested'), request('decline'), CTX).releaseSeatOf, 'ses_1');
    assert.equal(planChange(seat('confirmed'), request('noShow'), CTX).releaseSeatOf, null);
  });
});
