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
  return {
    booking,
    location,
    service,
    deposit,
    offer: selfServiceOffer(factsOf(booking, service, settings, now)),
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

/** `Cancel booking`: → cancelled, under guestCancel's window. */
export function cancelAsGuest(db: Db, token: string, now: Date): Promise<BookingRecord> {
  return guestChange(db, token, 'cancel', now);
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
