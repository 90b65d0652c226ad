import type { Queryable } from '../../store/db.ts';
import { insertBooking, lockStaffCalendars } from '../../store/bookings.ts';
import { takeSeat, sessionExists } from '../../store/group-seats.ts';
import type { LocationRow } from '../../store/locations.ts';
import { takeBookingQuota } from '../../store/quota.ts';
import { withSavepoint } from '../../store/savepoint.ts';
import type { ServiceRow } from '../../store/services.ts';
import { isExclusionViolation } from '../../store/sql-errors.ts';
import { freeStaffAt } from '../availability/free-staff.ts';
import { verifySlotToken } from '../availability/slot-token.ts';
import { parseIsoDate } from '../availability/calendar.ts';
import { localDateOf, wallClock, zoneDay } from '../availability/zone.ts';
import type { DepositProvider } from '../deposits/provider.ts';
import { AppError } from '../errors.ts';
import { newId } from '../ids.ts';
import { checkCreateInput, type CreateBookingBody } from './create-input.ts';
import { changeBooking, recordEvent } from './lifecycle.ts';
import { heldRange, resolveLocalSlot } from './local-slot.ts';
import { locationSnapshotOf } from './location-snapshot.ts';
import { newPublicReference } from './public-reference.ts';
import type { BookingRecord, LocalSlot } from './record.ts';

export interface CreateContext {
  businessId: string;
  /** the business's slug, for the event payloads */
  salonSlug: string;
  keyId: string;
  keyKind: 'owner' | 'guest_partner';
  location: LocationRow;
  service: ServiceRow;
  depositsEnabled: boolean;
  deposits: DepositProvider;
  now: Date;
  secret: Buffer;
}

export interface CreateOutcome {
  booking: BookingRecord;
  depositPaymentUrl?: string;
}

interface Placement {
  staffId: string;
  staffName: string;
  sessionId: string | null;
  startAt: Date;
  endAt: Date;
  slot: LocalSlot;
  held: { from: Date; to: Date };
}

/**
 * POST /bookings inside one transaction: the booking row (the exclusion constraint is the final
 * check against double booking), its `booking.requested` event, for automatic services the
 * `booking.confirmed` transition, and the monthly quota — all or nothing.
 */
export async function createBooking(tx: Queryable, ctx: CreateContext, body: CreateBookingBody): Promise<CreateOutcome> {
  const { service, location } = ctx;
  const input = checkCreateInput(body, service);
  const automatic = service.request_acceptance_policy === 'automatic';
  // Which code a lost slot gets depends on the policy (spec transitions table).
  const slotGone = automatic ? 'booking.slot_no_longer_available' : 'booking.slot_unavailable';

  if (service.deposit_required && !ctx.depositsEnabled && !automatic) {
    throw new AppError('booking.deposit_unavailable', 'Deposit collection is not available for this business right now.');
  }
  const bookingId = newId('bkg');
  const base = (p: Placement): BookingRecord => ({
    id: bookingId,
    businessId: ctx.businessId,
    locationId: location.id,
    serviceId: service.id,
    staffId: p.staffId,
    sessionId: p.sessionId,
    publicReference: newPublicReference(),
    status: 'requested',
    stateVersion: 1,
    acceptanceMode: 'manual',
    serviceName: service.name,
    staffName: p.staffName,
    locationSnapshot: locationSnapshotOf(location),
    timezone: location.timezone,
    requestedDate: p.slot.date,
    requestedStartTime: p.slot.startTime,
    startAt: p.startAt,
    endAt: p.endAt,
    slot: p.slot,
    proposed: null,
    guestName: input.guest.name,
    note: input.note,
    serviceLocation: input.serviceLocation,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  });
  // `guarded`: under a savepoint, so that an overlap leaves the transaction usable for the next
  // candidate. Unguarded saves two round trips where a failure ends the request anyway.
  const insert = async (p: Placement, guarded: boolean): Promise<BookingRecord> => {
    // A public-reference collision is astronomically rare; a fresh one is simply drawn again.
    for (let attempt = 0; attempt < 4; attempt++) {
      const record = base(p);
      const row = {
        record,
        guestPhone: input.guest.phone,
        guestEmail: input.guest.email,
        consent: body.consent,
        depositTerms: body.depositTermsAcceptance ?? null,
        apiSourceKeyId: ctx.keyKind === 'guest_partner' ? ctx.keyId : null,
        occupiedFrom: p.held.from,
        occupiedTo: p.held.to,
      };
      if (guarded ? await withSavepoint(tx, () => insertBooking(tx, row)) : await insertBooking(tx, row)) return record;
    }
    throw new Error('no free public reference after 4 draws');
  };

  let booking: BookingRecord | undefined;
  if (service.booking_mode === 'groupSession') {
    booking = await insert(await takeGroupSeat(tx, ctx, body.sessionId!, body.slotToken!), false);
  } else {
    const { date, startTime } = body.slot!;
    const resolved = resolveLocalSlot(location.timezone, date, startTime, service.duration_minutes);
    if (!resolved) throw new AppError(slotGone, 'That local time does not exist on that day (DST change).');
    const held = heldRange(resolved.startAt, resolved.endAt, service.buffer_before_minutes, service.buffer_after_minutes);
    const candidates = await freeStaffAt(tx, { location, service, staffId: body.staffId, date, startTime, now: ctx.now });
    if (body.staffId !== undefined && candidates.unknownStaff) throw new AppError('catalog.staff_not_found');
    // In sorted order: the staff locks below are then always taken in the same order.
    const free = [...candidates.free].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    for (const [i, staff] of free.entries()) {
      const last = i === free.length - 1;
      await lockStaffCalendars(tx, [staff.id]);
      try {
        booking = await insert({ staffId: staff.id, staffName: staff.name, sessionId: null, ...resolved, held }, !last);
        break;
      } catch (err) {
        // Taken between the check and the insert: the database said no; try the next one (after
        // the last one the transaction is rolled back with the 409).
        if (!isExclusionViolation(err)) throw err;
      }
    }
    if (!booking) throw new AppError(slotGone);
  }

  await recordEvent(tx, booking, 'booking.requested', { id: null, from: null, occurredAt: ctx.now }, ctx.salonSlug);
  const outcome = automatic ? await acceptAutomatically(tx, ctx, booking) : { booking };

  // The quota is counted last: its UPDATE locks the business's subscription row until commit, so
  // taking it first serialised every create of a business for the whole transaction (one create at
  // a time per salon). Last, the lock is held only for the commit; a create over the quota still
  // rolls back entirely, and two concurrent creates at quota − 1 still cannot both pass.
  if (!(await takeBookingQuota(tx, ctx.businessId))) {
    throw new AppError('subscription.quota_exceeded', undefined, { limit: 'maxBookingsPerMonth' });
  }
  return outcome;
}

/** requested → confirmed in the same call, unless it cannot be carried out (decisions.md). */
async function acceptAutomatically(tx: Queryable, ctx: CreateContext, booking: BookingRecord): Promise<CreateOutcome> {
  const { service } = ctx;
  let depositPaymentUrl: string | undefined;
  if (service.deposit_required) {
    if (!ctx.depositsEnabled) return { booking };
    try {
      depositPaymentUrl = await ctx.deposits.createPaymentLink({
        bookingId: booking.id,
        amountMinor: service.deposit_amount_minor,
        currency: service.currency,
      });
    } catch {
      // Acceptance cannot be carried out for a reason other than the slot: the business decides.
      return { booking };
    }
  }
  const confirmed = await changeBooking(tx, {
    businessId: ctx.businessId,
    bookingId: booking.id,
    action: 'autoConfirm',
    now: ctx.now,
    salonSlug: ctx.salonSlug,
    // inserted by this transaction a moment ago: no need to read it back
    current: { booking, timing: service },
  });
  return depositPaymentUrl ? { booking: confirmed, depositPaymentUrl } : { booking: confirmed };
}

async function takeGroupSeat(tx: Queryable, ctx: CreateContext, sessionId: string, token: string): Promise<Placement> {
  if (!verifySlotToken(ctx.secret, token, sessionId, ctx.now) || !(await sessionExists(tx, sessionId, ctx.service.id))) {
    throw new AppError('booking.slot_token_invalid');
  }
  const seat = await takeSeat(tx, sessionId);
  if (!seat) throw new AppError('booking.session_full');
  if (seat.start_at.getTime() <= ctx.now.getTime()) throw new AppError('booking.slot_unavailable', 'The session has started.');
  const tz = ctx.location.timezone;
  const date = localDateOf(tz, seat.start_at.getTime());
  const day = zoneDay(tz, parseIsoDate(date));
  return {
    staffId: seat.staff_id,
    staffName: seat.staff_name,
    sessionId: seat.id,
    startAt: seat.start_at,
    endAt: seat.end_at,
    slot: { date, startTime: wallClock(day, seat.start_at.getTime()), endTime: wallClock(day, seat.end_at.getTime()) },
    held: { from: seat.start_at, to: seat.end_at },
  };
}
