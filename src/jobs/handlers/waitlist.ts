import type { BookingView } from '../../domain/bookings/view.ts';
import { findEvent, type StoredEvent } from '../../store/booking-events.ts';
import type { Db } from '../../store/db.ts';
import { type FreedTime, OFFER_EXPIRY_KIND, offerFreedTime } from '../../use-cases/waitlist/offer.ts';
import { passUnclaimedOffer } from '../../use-cases/waitlist/pass.ts';
import { WAITLIST_MATCH_KIND } from '../../use-cases/waitlist/freed.ts';
import type { BookingFollowup } from './booking-followup.ts';
import { keptTimes } from '../../domain/waitlist/kept-times.ts';
import type { JobHandler } from '../handler.ts';
import { PermanentJobError } from '../handler.ts';

export { OFFER_EXPIRY_KIND, WAITLIST_MATCH_KIND };

/**
 * The events after which a booking no longer keeps (all of) the time it kept: a proposal too, as
 * an open proposal holds the proposed time instead of the old one (decisions.md).
 */
const FREEING = new Set(['booking.cancelled', 'booking.declined', 'booking.reschedule_proposed', 'booking.reschedule_confirmed']);

const RETRY = [5_000, 30_000, 120_000, 600_000, 1_800_000];

/**
 * A booking event that frees time offers it to the waitlist: the days of the time the booking kept
 * before the event (the previous event's view: a move frees the old time) and of its own view, of
 * the staff member it was with. Cause `event:<booking>:<sequence>`: run again, it offers nothing more.
 */
export function waitlistFollowup(deps: { db: Db; clock?: (() => Date) | undefined }): BookingFollowup {
  return {
    name: 'waitlist',
    async run(db, event) {
      if (!FREEING.has(event.event)) return;
      const view = viewOf(event);
      if (!view || view.sessionId !== undefined) return;
      const before = event.sequence > 1 ? await findEvent(db, event.bookingId, event.sequence - 1) : undefined;
      const prior = before ? viewOf(before) : undefined;
      const dates = [view, prior].flatMap((v) =>
        v ? [v.confirmedSlot?.date, v.proposedSlot?.date, v.requestedSlot.date].filter((d): d is string => typeof d === 'string') : [],
      );
      const freed: FreedTime = {
        businessId: event.businessId,
        locationId: view.locationId,
        serviceId: view.serviceId,
        staffId: prior?.proposedSlot?.staffId ?? prior?.staffId ?? view.staffId ?? undefined,
        dates,
        ranges: keptTimes([view, prior]),
        cause: `event:${event.bookingId}:${event.sequence}`,
      };
      await offerFreedTime(deps.db, freed, (deps.clock ?? (() => new Date()))());
    },
  };
}

function viewOf(event: StoredEvent): BookingView | undefined {
  try {
    return (JSON.parse(event.payloadJson) as { booking?: BookingView }).booking;
  } catch {
    return undefined;
  }
}

/** `waitlist.match`: time freed outside a booking event (removed time off), planned with its cause. */
export function waitlistMatchHandler(deps: { db: Db; clock?: (() => Date) | undefined }): JobHandler<FreedTime> {
  return {
    kind: WAITLIST_MATCH_KIND,
    retryDelaysMs: RETRY,
    leaseMs: 120_000,
    parse(p) {
      const f = p as Partial<FreedTime>;
      if (typeof f.businessId !== 'string' || typeof f.locationId !== 'string' || typeof f.cause !== 'string' || !Array.isArray(f.dates)) {
        throw new PermanentJobError('not freed time');
      }
      return f as FreedTime;
    },
    async run(job) {
      const offered = await offerFreedTime(deps.db, job.payload, (deps.clock ?? (() => new Date()))());
      return offered ? undefined : 'skipped';
    },
  };
}

/** `waitlist.offer_expiry`: at the offer's end, an unclaimed offer passes to the next matching entry. */
export function offerExpiryHandler(deps: { db: Db; clock?: (() => Date) | undefined }): JobHandler<{ offerId: string }> {
  return {
    kind: OFFER_EXPIRY_KIND,
    retryDelaysMs: RETRY,
    leaseMs: 120_000,
    parse(p) {
      const { offerId } = p as { offerId?: unknown };
      if (typeof offerId !== 'string') throw new PermanentJobError('not an offer');
      return { offerId };
    },
    async run(job) {
      const outcome = await passUnclaimedOffer(deps.db, job.payload.offerId, (deps.clock ?? (() => new Date()))());
      // Due by the job's clock but not yet by the database's: looked at again shortly.
      if (outcome === 'notDue') throw new Error('the offer has not ended yet');
      return outcome === 'passed' ? undefined : 'skipped';
    },
  };
}
