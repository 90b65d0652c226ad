/** The manage page's rules without a database: which guest action is offered when (guest-side.md "Self-service"). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  checkGuestAction,
  guestRefusal,
  type SelfServiceFacts,
  selfServiceOffer,
  windowEnd,
} from '../../src/domain/booking-page/self-service.ts';
import { isAppError } from '../../src/domain/errors.ts';

const START = new Date('2031-03-10T09:00:00.000Z');
const DAY = 1440;
const at = (minutesBeforeStart: number) => new Date(START.getTime() - minutesBeforeStart * 60_000);

function facts(over: Partial<SelfServiceFacts> = {}): SelfServiceFacts {
  return {
    status: 'confirmed',
    startAt: START,
    sessionId: null,
    proposedStartAt: null,
    automaticService: true,
    guestCancel: { allowed: true, noticeMinutes: DAY },
    guestReschedule: { allowed: true, noticeMinutes: DAY },
    now: at(2 * DAY),
    ...over,
  };
}

describe('cancel', () => {
  test('exactly noticeMinutes before the start is still inside the window; a millisecond later is not', () => {
    assert.equal(guestRefusal('cancel', facts({ now: at(DAY) })), undefined);
    assert.equal(guestRefusal('cancel', facts({ now: new Date(at(DAY).getTime() + 1) })), 'windowClosed');
  });

  test('notice 0: until the start itself', () => {
    const zero = { allowed: true, noticeMinutes: 0 };
    assert.equal(guestRefusal('cancel', facts({ guestCancel: zero, now: START })), undefined);
    assert.equal(guestRefusal('cancel', facts({ guestCancel: zero, now: new Date(START.getTime() + 1) })), 'windowClosed');
  });

  test('every non-terminal state may be cancelled; terminal ones never', () => {
    for (const status of ['requested', 'confirmed', 'rescheduleProposed'] as const)
      assert.equal(guestRefusal('cancel', facts({ status })), undefined);
    for (const status of ['declined', 'cancelled', 'completed', 'noShow'] as const)
      assert.equal(guestRefusal('cancel', facts({ status })), 'state');
  });

  test('not allowed by the business', () => {
    assert.equal(guestRefusal('cancel', facts({ guestCancel: { allowed: false, noticeMinutes: 0 } })), 'notAllowed');
  });

  test('the offer says until when, once the window closed', () => {
    const offer = selfServiceOffer(facts({ now: at(60) }));
    assert.equal(offer.cancel, false);
    assert.deepEqual(offer.cancelClosed, { kind: 'windowClosed', until: windowEnd(START, { allowed: true, noticeMinutes: DAY }) });
    assert.equal(offer.cancelClosed.kind === 'windowClosed' && offer.cancelClosed.until.toISOString(), '2031-03-09T09:00:00.000Z');
    assert.deepEqual(selfServiceOffer(facts({ guestCancel: { allowed: false, noticeMinutes: 0 } })).cancelClosed, { kind: 'notAllowed' });
    assert.equal(selfServiceOffer(facts({ status: 'cancelled', now: at(60) })).cancelClosed, null);
  });
});

describe('reschedule', () => {
  test('a confirmed booking of an automatic service inside the window', () => {
    assert.equal(guestRefusal('reschedule', facts()), undefined);
    assert.equal(guestRefusal('reschedule', facts({ now: at(DAY) })), undefined);
    assert.equal(guestRefusal('reschedule', facts({ now: at(DAY - 1) })), 'windowClosed');
  });

  test('not for a manual-policy service, a requested or proposed booking, or a group seat', () => {
    assert.equal(guestRefusal('reschedule', facts({ automaticService: false })), 'state');
    assert.equal(guestRefusal('reschedule', facts({ status: 'requested' })), 'state');
    assert.equal(guestRefusal('reschedule', facts({ status: 'rescheduleProposed' })), 'state');
    assert.equal(guestRefusal('reschedule', facts({ sessionId: 'ses_1' })), 'state');
  });

  test('its own setting, not the cancel one', () => {
    const f = facts({
      guestCancel: { allowed: false, noticeMinutes: 0 },
      guestReschedule: { allowed: true, noticeMinutes: 60 },
      now: at(120),
    });
    assert.equal(guestRefusal('reschedule', f), undefined);
    assert.equal(guestRefusal('reschedule', facts({ guestReschedule: { allowed: false, noticeMinutes: 0 } })), 'notAllowed');
  });
});

describe('a proposed time', () => {
  const proposed = { status: 'rescheduleProposed' as const, proposedStartAt: new Date(START.getTime() + 86_400_000) };

  test('accept and decline while proposed, whatever the notice windows', () => {
    const f = facts({ ...proposed, now: at(10), guestCancel: { allowed: false, noticeMinutes: 0 } });
    assert.equal(guestRefusal('acceptProposal', f), undefined);
    assert.equal(guestRefusal('decline', f), undefined);
    const offer = selfServiceOffer(f);
    assert.deepEqual([offer.acceptProposal, offer.declineProposal, offer.reschedule], [true, true, false]);
  });

  test('a proposed time already begun cannot be accepted, only declined', () => {
    const f = facts({ ...proposed, now: proposed.proposedStartAt });
    assert.equal(guestRefusal('acceptProposal', f), 'windowClosed');
    assert.equal(guestRefusal('decline', f), undefined);
  });

  test('no proposal: neither', () => {
    assert.equal(guestRefusal('acceptProposal', facts()), 'state');
    assert.equal(guestRefusal('decline', facts()), 'state');
  });
});

test('checkGuestAction throws 409 booking.invalid_transition with the refusal', () => {
  assert.doesNotThrow(() => checkGuestAction('cancel', facts()));
  assert.throws(
    () => checkGuestAction('cancel', facts({ now: at(1) })),
    (err) => isAppError(err) && err.code === 'booking.invalid_transition' && err.details?.refusal === 'windowClosed',
  );
});
