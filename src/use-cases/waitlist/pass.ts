import type { WaitlistOffer } from '../../domain/waitlist/entry.ts';
import type { Db, Queryable } from '../../store/db.ts';
import { releaseHoldRow } from '../../store/holds.ts';
import { cancelJob } from '../../store/jobs.ts';
import { transactionWithRetry } from '../../store/tx-retry.ts';
import { lockEntry, lockOffer, moveEntry, setOfferStatus } from '../../store/waitlist.ts';
import { OFFER_EXPIRY_KIND, offerInTransaction } from './offer.ts';

export type PassOutcome = 'passed' | 'notDue' | 'alreadyEnded' | 'claimed';

/**
 * The offer's hold ended unclaimed (its expiry job): the offer `passed`, the entry back to
 * `waiting` (it ends only when booked, withdrawn or past its last date; the passed time is never
 * offered to it again), and the same time offered to the next matching entry in join order.
 * Run again, it finds the offer no longer open and does nothing.
 */
export function passUnclaimedOffer(db: Db, offerId: string, now: Date): Promise<PassOutcome> {
  return transactionWithRetry(db, async (tx) => {
    const locked = await lockOffer(tx, offerId);
    if (locked?.offer.status !== 'open') return 'alreadyEnded';
    // Booked through the claim link, with the process stopped before the offer was marked: say so now.
    if (locked.holdStatus === 'used' && locked.holdBookingId) {
      await markClaimed(tx, locked.offer, locked.holdBookingId);
      return 'claimed';
    }
    if (!locked.due) return 'notDue';
    await endOffer(tx, locked.offer, 'passed', now);
    return 'passed';
  });
}

/** A claim made the booking: the offer `claimed`, the entry `booked`. */
export async function markClaimed(tx: Queryable, offer: WaitlistOffer, bookingId: string): Promise<void> {
  await setOfferStatus(tx, offer.id, 'claimed', bookingId);
  await moveEntry(tx, offer.entryId, ['offered', 'waiting'], 'booked', bookingId);
  await cancelJob(tx, `${OFFER_EXPIRY_KIND}:${offer.id}`);
}

/**
 * Ends an open offer without a booking (`passed` at expiry, `cancelled` when the guest withdrew):
 * its hold released, and its time offered to the next matching entry.
 */
export async function endOffer(tx: Queryable, offer: WaitlistOffer, status: 'passed' | 'cancelled', now: Date): Promise<void> {
  await setOfferStatus(tx, offer.id, status);
  const hold = await releaseHoldRow(tx, offer.businessId, offer.holdId);
  const entry = await lockEntry(tx, offer.entryId);
  if (!entry) return;
  // Back to the list (one past its last date then reads, and is written, as expired).
  if (status === 'passed') await moveEntry(tx, entry.id, ['offered'], 'waiting');
  await offerInTransaction(
    tx,
    {
      businessId: offer.businessId,
      locationId: entry.locationId,
      serviceId: entry.serviceId,
      staffId: offer.staffId,
      dates: [offer.date],
      ranges: hold ? [{ from: hold.held.from.toISOString(), to: hold.held.to.toISOString() }] : undefined,
      cause: `${status}:${offer.id}`,
    },
    now,
  );
}
