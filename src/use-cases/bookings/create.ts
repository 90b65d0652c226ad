import type { Db, Queryable } from '../../store/db.ts';
import { insertBooking } from '../../store/bookings.ts';
import { findSession, takeSeat } from '../../store/group-seats.ts';
import type { KeyCompletion } from '../../store/idempotency.ts';
import { retryIfDeadlocked, transactionWithRetry } from '../../store/tx-retry.ts';
import type { LocationRecord, ServiceRecord } from '../../domain/catalog-records.ts';
import { freeStaffAt } from '../../domain/availability/free-staff.ts';
import { verifySlotToken } from '../../domain/availability/slot-token.ts';
import { parseIsoDate } from '../../domain/time/calendar.ts';
import { localDateOf, wallClock, zoneDay } from '../../domain/time/zone-day.ts';
import type { DepositProvider } from '../../domain/deposits/provider.ts';
import { AppError, isAppError } from '../../domain/errors.ts';
import { newId } from '../../domain/ids.ts';
import { checkCreateInput, type CreateBookingBody } from '../../domain/bookings/create-input.ts';
import { eventOf } from '../../domain/bookings/event-row.ts';
import { heldRange } from '../../domain/bookings/held-range.ts';
import { resolveLocalSlot } from '../../domain/time/local-slot.ts';
import { locationSnapshotOf } from '../../domain/bookings/location-snapshot.ts';
import { newPublicReference } from '../../domain/bookings/public-reference.ts';
import { type AttemptGate, SLOT_TAKEN } from '../../concurrency/attempt-gate.ts';
import type { BookingRecord, LocalSlot } from '../../domain/bookings/record.ts';
import { planTransition } from '../../domain/bookings/states.ts';

export interface CreateContext {
  businessId: string;
  /** the business's slug, for the event payloads */
  salonSlug: string;
  keyId: string;
  keyKind: 'owner' | 'guest_partner';
  location: LocationRecord;
  service: ServiceRecord;
  depositsEnabled: boolean;
  deposits: DepositProvider;
  now: Date;
  secret: Buffer;
  /** this process's coordination of concurrent attempts on one calendar (attempt-gate.ts) */
  gate: AttemptGate;
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
 * POST /bookings. Everything is read first; then one statement writes the booking row (the
 * exclusion constraint is the final check against double booking), its `booking.requested` event,
 * for automatic services the `booking.confirmed` transition, the monthly quota count and the
 * idempotent response (`settle`) — all or nothing, without a transaction around it. A group seat
 * is taken in a transaction with that statement.
 */
export async function createBooking(
  db: Db,
  ctx: CreateContext,
  body: CreateBookingBody,
  settle: (outcome: CreateOutcome) => KeyCompletion,
): Promise<CreateOutcome> {
  const { service, location } = ctx;
  const input = checkCreateInput(body, service);
  const automatic = service.requestAcceptancePolicy === 'automatic';
  // Which code a lost slot gets depends on the policy (spec transitions table).
  const slotGone = automatic ? 'booking.slot_no_longer_available' : 'booking.slot_unavailable';

  if (service.depositRequired && !ctx.depositsEnabled && !automatic) {
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
  // Acceptance is settled before the write, so the row is written once, as it ends: an automatic
  // service is confirmed in the same statement (stateVersion 2, both events), as the spec's
  // requested → confirmed in one call. A deposit service is confirmed only with its payment link;
  // the link is asked for right before the first write (decisions.md).
  let acceptance: Promise<{ confirm: boolean; depositPaymentUrl?: string }> | undefined;
  const accept = () => (acceptance ??= acceptAutomatically(ctx, bookingId, automatic));
  const write = async (q: Queryable, p: Placement): Promise<CreateOutcome> => {
    const { confirm, depositPaymentUrl } = await accept();
    // A public-reference collision is astronomically rare; a fresh one is simply drawn again.
    for (let attempt = 0; attempt < 4; attempt++) {
      const requested = base(p);
      const events = [eventOf(requested, 'booking.requested', { id: null, from: null, occurredAt: ctx.now }, ctx.salonSlug)];
      let booking = requested;
      if (confirm) {
        const { to, event } = planTransition('autoConfirm', requested.status, requested.startAt, ctx.now);
        booking = { ...requested, status: to, stateVersion: 2, acceptanceMode: 'automatic', updatedAt: ctx.now };
        events.push(eventOf(booking, event, { id: newId('trn'), from: requested.status, occurredAt: ctx.now }, ctx.salonSlug));
      }
      const outcome: CreateOutcome = depositPaymentUrl && confirm ? { booking, depositPaymentUrl } : { booking };
      const row = {
        record: booking,
        guestPhone: input.guest.phone,
        guestEmail: input.guest.email,
        consent: body.consent,
        depositTerms: body.depositTermsAcceptance ?? null,
        apiSourceKeyId: ctx.keyKind === 'guest_partner' ? ctx.keyId : null,
        occupiedFrom: p.held.from,
        occupiedTo: p.held.to,
      };
      const written = await insertBooking(q, row, events, { quotaBusinessId: ctx.businessId, completion: settle(outcome) });
      if (written === 'inserted') return outcome;
      if (written === 'quota_exceeded') throw new AppError('subscription.quota_exceeded', undefined, { limit: 'maxBookingsPerMonth' });
      // The staff gate (STAFF_TIME) takes this as the database's refusal and tries the next one.
      if (written === 'time_taken') throw new AppError(slotGone);
      // This request's claim lapsed and a duplicate with the same key has answered it: a retry
      // gets that answer.
      if (written === 'key_settled') throw new AppError('idempotency.request_in_progress');
    }
    throw new Error('no free public reference after 4 draws');
  };

  if (service.bookingMode === 'groupSession') {
    const { sessionId, slotToken } = body;
    // The payment link first: the seat's row stays locked from takeSeat to the commit.
    await accept();
    // One seat-take per session at a time from this process: the rest wait here, not on the
    // session's row lock with a pool connection each, and learn at once when it is full.
    const seat = await ctx.gate.run(`session:${sessionId}`, WHOLE_SESSION, SEATS, () =>
      transactionWithRetry(db, async (tx) => write(tx, await takeGroupSeat(tx, ctx, sessionId!, slotToken!))),
    );
    if (seat === SLOT_TAKEN) throw new AppError('booking.session_full');
    return seat;
  }
  const { date, startTime } = body.slot!;
  const resolved = resolveLocalSlot(location.timezone, date, startTime, service.durationMinutes);
  if (!resolved) throw new AppError(slotGone, 'That local time does not exist on that day (DST change).');
  const held = heldRange(resolved.startAt, resolved.endAt, service.bufferBeforeMinutes, service.bufferAfterMinutes);
  const candidates = await freeStaffAt(db, { location, service, staffId: body.staffId, date, startTime, now: ctx.now });
  if (body.staffId !== undefined && candidates.unknownStaff) throw new AppError('catalog.staff_not_found');
  // Without staffId the free staff members are tried in id order (decisions.md).
  const free = [...candidates.free].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const range = { from: held.from.getTime(), to: held.to.getTime() };
  // The payment link (a provider's round trip) before the gate, so no attempt waits on it there.
  if (free.length > 0) await accept();
  for (const staff of free) {
    // Each attempt is its own statement: a clash undoes only that one. Taken between the check and
    // the insert (the database said no, or this process's earlier attempt just booked it): try the
    // next one.
    const booked = await ctx.gate.run(`staff:${staff.id}`, range, STAFF_TIME, () =>
      retryIfDeadlocked(() => write(db, { staffId: staff.id, staffName: staff.name, sessionId: null, ...resolved, held })),
    );
    if (booked !== SLOT_TAKEN) return booked;
  }
  throw new AppError(slotGone);
}

/**
 * A staff member's time: a booking excludes every overlapping one (the exclusion constraint). The
 * refusal is write's lost-slot error, which nothing else in a staff attempt throws.
 */
const SLOT_GONE = new Set(['booking.slot_unavailable', 'booking.slot_no_longer_available']);
const STAFF_TIME = { exclusive: true, isRefusal: (err: unknown) => isAppError(err) && SLOT_GONE.has(err.code) };
/** A session's seats: one seat taken leaves the others; only "full" is shared with the waiters. */
const SEATS = { exclusive: false, isRefusal: (err: unknown) => isAppError(err) && err.code === 'booking.session_full' };
const WHOLE_SESSION = { from: 0, to: 1 };

/**
 * Whether an automatic service is confirmed at once: a deposit service only when deposits are on
 * and the provider issued the payment link; otherwise it stays requested and the business decides
 * (decisions.md). A manual service is never confirmed here.
 */
async function acceptAutomatically(
  ctx: CreateContext,
  bookingId: string,
  automatic: boolean,
): Promise<{ confirm: boolean; depositPaymentUrl?: string }> {
  const { service } = ctx;
  if (!automatic) return { confirm: false };
  if (!service.depositRequired) return { confirm: true };
  if (!ctx.depositsEnabled) return { confirm: false };
  try {
    const depositPaymentUrl = await ctx.deposits.createPaymentLink({
      bookingId,
      amountMinor: service.depositAmountMinor,
      currency: service.currency,
    });
    return { confirm: true, depositPaymentUrl };
  } catch {
    return { confirm: false };
  }
}

async function takeGroupSeat(tx: Queryable, ctx: CreateContext, sessionId: string, token: string): Promise<Placement> {
  const session = verifySlotToken(ctx.secret, token, sessionId, ctx.now) ? await findSession(tx, sessionId, ctx.service.id) : undefined;
  if (!session) throw new AppError('booking.slot_token_invalid');
  // Its staff member went inactive or took time off since the search: no longer offered.
  if (!session.offered) throw new AppError('booking.slot_unavailable', 'The session is no longer offered.');
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
