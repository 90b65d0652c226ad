import { isLinkTokenShape, linkTokenHash } from '../../domain/guest-links.ts';
import type { WaitlistEntry } from '../../domain/waitlist/entry.ts';
import type { Db, Queryable } from '../../store/db.ts';
import { cancelJob } from '../../store/jobs.ts';
import { transactionWithRetry } from '../../store/tx-retry.ts';
import { findEntryByWithdrawHash, lockEntry, moveEntry, openOfferOf } from '../../store/waitlist.ts';
import { OFFER_EXPIRY_KIND } from './offer.ts';
import { endOffer } from './pass.ts';

/** The entry behind a withdraw link; undefined for a token that names none. */
export async function entryOfWithdrawLink(db: Db, token: string): Promise<(WaitlistEntry & { serviceName: string }) | undefined> {
  if (!isLinkTokenShape(token)) return undefined;
  return findEntryByWithdrawHash(db, linkTokenHash(token));
}

/**
 * The guest leaves the list: the entry `withdrawn`, and an open offer of it cancelled, its hold
 * released and its time offered to the next matching entry. An entry that already ended is
 * answered as it is (a second click is not an error).
 */
export async function withdrawEntry(db: Db, token: string, now: Date): Promise<{ entry: WaitlistEntry; withdrawn: boolean } | undefined> {
  const found = await entryOfWithdrawLink(db, token);
  if (!found) return undefined;
  return transactionWithRetry(db, (tx) => withdrawEntryIn(tx, found.id, now));
}

/**
 * The withdrawal itself, in the caller's transaction (the guest's link above, and a client's
 * erasure, docs/clients-and-privacy.md).
 */
export async function withdrawEntryIn(
  tx: Queryable,
  entryId: string,
  now: Date,
): Promise<{ entry: WaitlistEntry; withdrawn: boolean } | undefined> {
  const entry = await lockEntry(tx, entryId);
  if (!entry) return undefined;
  if (entry.status !== 'waiting' && entry.status !== 'offered') return { entry, withdrawn: false };
  await moveEntry(tx, entry.id, ['waiting', 'offered'], 'withdrawn');
  const offer = await openOfferOf(tx, entry.id);
  if (offer) {
    await cancelJob(tx, `${OFFER_EXPIRY_KIND}:${offer.id}`);
    await endOffer(tx, offer, 'cancelled', now);
  }
  return { entry: { ...entry, status: 'withdrawn' as const }, withdrawn: true };
}
