import {
  type GuestAction,
  checkGuestAction,
  type SelfServiceFacts,
  selfServiceOffer,
  type SelfServiceOffer,
} from '../../domain/booking-page/self-service.ts';
import type { BookingRecord } from '../../domain/bookings/record.ts';
import type { LocationRecord, ServiceRecord } from '../../domain/catalog-records.ts';
import type { BookingDeposit } from '../../domain/deposits/status.ts';
import { AppError } from '../../domain/errors.ts';
import { isLinkTokenShape } from '../../domain/guest-links.ts';
import type { GuestSettings } from '../../domain/guest-settings/settings.ts';
import { checkHoldForCreate } from '../../domain/holds/for-create.ts';
import { findBooking, findBookingForUpdate } from '../../store/bookings.ts';
import { findBusinessById } from '../../store/businesses.ts';
import type { Db, Queryable } from '../../store/db.ts';
import { findBookingDeposit } from '../../store/deposits.ts';
import { findHold, lockHoldForUse, staffStillTakesHold, useHold } from '../../store/holds.ts';
import { findLocationById } from '../../store/locations.ts';
import { findServiceById } from '../../store/services.ts';
import { transactionWithRetry } from '../../store/tx-retry.ts';
import { changeBooking } from '../bookings/lifecycle.ts';
import { cancelVisitInTransaction } from '../bookings/visit-cancel.ts';
import { moveVisitInTransaction } from '../bookings/visit-move.ts';
import { OCCUPYING } from '../../domain/bookings/states.ts';
import { visitBookings } from '../../store/visits.ts';
import { readGuestSettings } from '../guest-settings.ts';
import { bookingOfManageLink } from './manage-link.ts';
import type { BookingPage } from './page.ts';

/** What the manage page shows and offers (guest-side.md "Self-service"); never the guest's phone or email. */
export interface ManagePage {
  booking: BookingRecord;
  location: LocationRecord;
  /** undefined when the service was deleted since */
  service: ServiceRecord | undefined;
  deposit: BookingDeposit | null;
  offer: SelfServiceOffer;
  /** the business as the booking page's time step and holds need it, for a reschedule */
  page: BookingPage;
  /**
   * The booking's visit, while it is one (salon-scheduling.md "Visits"): every part still
   * occupying time, in order, with its service (undefined when deleted since); the page's cancel
   * and move then act on all of them.
   */
  visit?: { parts: BookingRecord[]; services: Array<ServiceRecord | undefined> } | undefined;
}

/** The live link's booking; an ended, unknown or malformed token is the guest's 404. */
async function linkedBooking(q: Queryable, token: string): Promise<{ bookingId: string; businessId: string }> {
  const link = isLinkTokenShape(token) ? await bookingOfManageLink(q, token) : undefined;
  if (!link) throw new AppError('request.not_found');
  return link;
}

function factsOf(b: BookingRecord, service: ServiceRecord | undefined, settings: GuestSettings, now: Date): SelfServiceFacts {
  return {
    status: b.status,
    startAt: b.startAt,
    sessionId: b.sessionId,
    proposedStartAt: b.proposed?.startAt ?? null,
    automaticService: service?.requestAcceptancePolicy === 'automatic',
    guestCancel: settings.guestCancel,
    guestReschedule: settings.guestReschedule,
    now,
  };
}

/** GET /manage/{token}: the booking, its location and deposit, and what the guest may do now. */
export async function openManagePage(db: Db, token: string, now: Date): Promise<ManagePage> {
  const link = await linkedBooking(db, token);
  const booking = await findBooking(db, link.businessId, link.bookingId);
  if (!booking) throw new AppError('request.not_found');
  const [location, service, deposit, settings, business] = await Promise.all([
    findLocationById(db, booking.locationId),
    findServiceById(db, booking.serviceId),
    findBookingDeposit(db, booking.id),
    readGuestSettings(db, booking.businessId),
    findBusinessById(db, booking.businessId),
  ]);
  if (!location || !business) throw new AppError('request.not_found');
  const parts = await visitPartsOf(db, booking);
  const services = parts ? await Promise.all(parts.map((p) => findServiceById(db, p.serviceId))) : undefined;
  return {
    booking,
    location,
    service,
    deposit,
    offer: parts && services ? visitOffer(parts, services, settings, now) : selfServiceOffer(factsOf(booking, service, settings, now)),
    visit: parts && services ? { parts, services } : undefined,
    page: {
      business: { id: business.id, slug: business.slug, name: business.name, currency: business.currency },
      settings,
      branding: false,
      locations: [location],
      cache: undefined,
    },
  };
}

/**
 * The parts of the booking's visit that still occupy time, in order, when there are two or more
 * and the booking is one of them; undefined otherwise (the page then acts on the booking alone,
 * as for a visit the front desk has cut down to one part).
 */
async function visitPartsOf(q: Queryable, booking: BookingRecord): Promise<BookingRecord[] | undefined> {
  if (booking.visitId === undefined || !OCCUPYING.has(booking.status)) return undefined;
  const parts = (await visitBookings(q, booking.visitId)).filter((p) => OCCUPYING.has(p.status));
  return parts.length >= 2 && parts.some((p) => p.id === booking.id) ? parts : undefined;
}

/**
 * A visit's buttons: its cancel under the notice counted from the visit's start (its first part);
 * its move only when every part could be moved on its own (confirmed, automatic, in the window).
 */
function visitOffer(
  parts: BookingRecord[],
  services: Array<ServiceRecord | undefined>,
  settings: GuestSettings,
  now: Date,
): SelfServiceOffer {
  const first = selfServiceOffer(factsOf(parts[0]!, services[0], settings, now));
  const movable = parts.every((p, i) => selfServiceOffer(factsOf(p, services[i], settings, now)).reschedule);
  return { ...first, reschedule: movable };
}

/**
 * A change of the whole visit, as guestChange is of one booking: the link, every part's row locked,
 * the guest's rule checked on each (the notice from the visit's start), then `run`, all in one
 * transaction. A booking that is no longer part of a visit of two or more falls back to `alone`.
 */
function guestVisitChange(
  db: Db,
  token: string,
  action: GuestAction,
  now: Date,
  alone: () => Promise<BookingRecord>,
  run: (tx: Queryable, booking: BookingRecord, visitId: string) => Promise<BookingRecord[]>,
): Promise<BookingRecord> {
  let single = false;
  const changed = transactionWithRetry(db, async (tx) => {
    const link = await linkedBooking(tx, token);
    const booking = await findBookingForUpdate(tx, link.businessId, link.bookingId);
    if (!booking) throw new AppError('request.not_found');
    const parts = await visitPartsOf(tx, booking);
    if (!parts) {
      single = true;
      return booking;
    }
    const settings = await readGuestSettings(tx, booking.businessId);
    for (const p of parts) {
      const locked = p.id === booking.id ? booking : await findBookingForUpdate(tx, p.businessId, p.id);
      if (!locked) throw new AppError('request.not_found');
      // The cancel's notice is the visit's (its first part's); a move must suit every part.
      if (action === 'cancel' && p !== parts[0]) continue;
      checkGuestAction(action, factsOf(locked, await findServiceById(tx, locked.serviceId), settings, now));
    }
    const after = await run(tx, booking, booking.visitId!);
    return after.find((p) => p.id === booking.id) ?? booking;
  });
  return changed.then((b) => (single ? alone() : b));
}

/**
 * One guest change: the link, the locked row, the guest's rule checked on it (the page may have
 * been open since the window closed), then the state machine with the guest as the actor, all in
 * one transaction, run again when chosen as a deadlock victim.
 */
function guestChange(
  db: Db,
  token: string,
  action: GuestAction,
  now: Date,
  before?: (tx: Queryable, booking: BookingRecord) => Promise<{ date: string; startTime: string; staffId: string }>,
): Promise<BookingRecord> {
  return transactionWithRetry(db, async (tx) => {
    const link = await linkedBooking(tx, token);
    const booking = await findBookingForUpdate(tx, link.businessId, link.bookingId);
    if (!booking) throw new AppError('request.not_found');
    const settings = await readGuestSettings(tx, booking.businessId);
    checkGuestAction(action, factsOf(booking, await findServiceById(tx, booking.serviceId), settings, now));
    const newTime = before ? await before(tx, booking) : undefined;
    return changeBooking(tx, {
      businessId: booking.businessId,
      bookingId: booking.id,
      action,
      now,
      actor: 'guest',
      ...(newTime ? { newTime } : {}),
    });
  });
}

/** `Cancel booking`: → cancelled, under guestCancel's window; a visit's every part (cancelVisit's rule). */
export function cancelAsGuest(db: Db, token: string, now: Date): Promise<BookingRecord> {
  return guestVisitChange(
    db,
    token,
    'cancel',
    now,
    () => guestChange(db, token, 'cancel', now),
    (tx, _booking, visitId) => cancelVisitInTransaction(tx, { visitId, now, actor: 'guest' }),
  );
}

/**
 * `Confirm new time` of a visit: every part moves to the visit hold's parts (moveVisit), under
 * guestReschedule's window, all in one transaction or none.
 */
export function rescheduleVisitAsGuest(db: Db, token: string, holdId: string, now: Date): Promise<BookingRecord> {
  return guestVisitChange(
    db,
    token,
    'reschedule',
    now,
    () => {
      throw new AppError('booking.hold_mismatch', 'The booking is no longer a visit; choose a time for it alone.');
    },
    (tx, booking, visitId) => moveVisitInTransaction(tx, { businessId: booking.businessId, visitId, holdId, now, actor: 'guest' }),
  );
}

/** `Accept new time`: the salon's proposal → confirmed at it. */
export function acceptProposalAsGuest(db: Db, token: string, now: Date): Promise<BookingRecord> {
  return guestChange(db, token, 'acceptProposal', now);
}

/** `Decline new time`: the salon's proposal declined → declined. */
export function declineProposalAsGuest(db: Db, token: string, now: Date): Promise<BookingRecord> {
  return guestChange(db, token, 'decline', now);
}

/**
 * `Confirm new time`: the booking moves to the time its hold keeps, under guestReschedule's window.
 * The hold is used in the move's transaction, before the booking's row is written, so the time it
 * kept from everyone else does not keep it from this booking; a hold gone or of another booking's
 * service or location fails as on the booking page.
 */
export function rescheduleAsGuest(db: Db, token: string, holdId: string, now: Date): Promise<BookingRecord> {
  return guestChange(db, token, 'reschedule', now, async (tx, booking) => {
    // A part of a visit moves only with the whole visit (rescheduleVisitAsGuest): a page left open
    // from before would otherwise pull one part away from the others.
    if (await visitPartsOf(tx, booking))
      throw new AppError('booking.hold_mismatch', 'The booking is part of a visit; choose a time for the visit.');
    const found = await findHold(tx, booking.businessId, holdId);
    if (!found) throw new AppError('booking.hold_not_found');
    const want = { locationId: booking.locationId, serviceId: booking.serviceId, staffId: undefined, slot: found.slot };
    const hold = checkHoldForCreate(await lockHoldForUse(tx, booking.businessId, found), want, now);
    if (!(await staffStillTakesHold(tx, hold))) {
      throw new AppError('booking.hold_expired', 'The staff member no longer takes this time; choose another one.');
    }
    await useHold(tx, hold.id, booking.id);
    return { date: hold.slot.date, startTime: hold.slot.startTime, staffId: hold.staffId };
  });
}
