import type { Db, Queryable } from '../../store/db.ts';
import { effectiveDepositMinor } from '../../domain/deposits/amount.ts';
import { newBookingDeposit } from '../../domain/deposits/status.ts';
import { insertBooking } from '../../store/bookings.ts';
import { findHold, lockHoldForUse, staffStillTakesHold, useHold } from '../../store/holds.ts';
import { checkHoldForCreate } from '../../domain/holds/for-create.ts';
import { findSession, takeSeat } from '../../store/group-seats.ts';
import type { KeyCompletion } from '../../store/idempotency.ts';
import { retryIfDeadlocked, transactionWithRetry } from '../../store/tx-retry.ts';
import type { LocationRecord, ServiceRecord } from '../../domain/catalog-records.ts';
import { freeStaffAt, inAssignmentOrder } from '../availability/free-staff.ts';
import { verifySlotToken } from '../../domain/availability/slot-token.ts';
import type { DepositProvider } from '../../domain/deposits/provider.ts';
import { AppError, isAppError } from '../../domain/errors.ts';
import { newId } from '../../domain/ids.ts';
import { checkCreateInput, type CreateBookingBody } from '../../domain/bookings/create-input.ts';
import { createRefusal, createRules, type Placement, planCreate } from '../../domain/bookings/create-plan.ts';
import { seatPlacement, standardTime } from '../../domain/bookings/create-placement.ts';
import { type AttemptGate, SLOT_TAKEN } from '../../concurrency/attempt-gate.ts';
import type { BookingRecord } from '../../domain/bookings/record.ts';
import { actorOfSource, type BookingSource, sourceRow } from '../../domain/bookings/source.ts';
import { bookedPrice } from '../../domain/bookings/price.ts';
import { forStaff } from '../../domain/scheduling/staff-variants.ts';

export interface CreateContext {
  businessId: string;
  /** the business's slug, for the event payloads */
  salonSlug: string;
  /** who books: an API key, the booking page (stored with the row, shown to the business only) */
  source: BookingSource;
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

/**
 * POST /bookings. Everything is read first; then one statement writes the booking row (the
 * exclusion constraint is the final check against double booking), its `booking.requested` event,
 * for automatic services the `booking.confirmed` transition, the monthly quota count and the
 * idempotent response (`settle`) — all or nothing, without a transaction around it. A group seat
 * is taken in a transaction with that statement. What is written is decided without I/O in
 * domain/bookings (createRules, planCreate, the placements); this shell reads, asks and writes.
 */
export async function createBooking(
  db: Db,
  ctx: CreateContext,
  body: CreateBookingBody,
  settle: (outcome: CreateOutcome) => KeyCompletion,
): Promise<CreateOutcome> {
  const { service, location } = ctx;
  const input = checkCreateInput(body, service);
  const { automatic, slotGone } = createRules(service, ctx.depositsEnabled);
  const bookingId = newId('bkg');
  // Acceptance is settled before the write, so the row is written once, as it ends (planCreate).
  // A deposit service is confirmed only with its payment link; the link is asked for right before
  // the first write (decisions.md).
  let acceptance: Promise<{ confirm: boolean; depositPaymentUrl?: string }> | undefined;
  const accept = () => (acceptance ??= acceptAutomatically(ctx, bookingId, automatic));
  const write = async (q: Queryable, p: Placement): Promise<CreateOutcome> => {
    const { confirm, depositPaymentUrl } = await accept();
    for (let attempt = 0; attempt < 4; attempt++) {
      const request = {
        bookingId,
        businessId: ctx.businessId,
        salonSlug: ctx.salonSlug,
        location,
        service,
        input,
        now: ctx.now,
        confirm,
        actor: actorOfSource(ctx.source),
      };
      const { booking, events } = planCreate(request, p);
      const outcome: CreateOutcome = depositPaymentUrl && confirm ? { booking, depositPaymentUrl } : { booking };
      const row = {
        record: booking,
        guestPhone: input.guest.phone,
        guestEmail: input.guest.email,
        consent: body.consent,
        depositTerms: body.depositTermsAcceptance ?? null,
        deposit: newBookingDeposit(service, booking.startAt),
        source: sourceRow(ctx.source),
        price: bookedPrice(service, p.staffId, p.sessionId === null ? undefined : { priceMinor: p.seatPriceMinor ?? null }),
        occupiedFrom: p.held.from,
        occupiedTo: p.held.to,
        processing: p.held.processing,
        resourceIds: p.held.resourceIds,
      };
      const written = await insertBooking(q, row, events, { quotaBusinessId: ctx.businessId, completion: settle(outcome) });
      if (written === 'inserted') return outcome;
      // A public-reference collision is astronomically rare; the next plan draws a fresh one.
      if (written !== 'reference_taken') throw createRefusal(written, slotGone);
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
  // Each staff member's own time: their variant's duration and segments (staff-variants.ts).
  const timeOf = (staffId: string | undefined) => standardTime(location, forStaff(service, staffId), { date, startTime }, slotGone);
  // a local time that does not exist (DST gap) is refused before anything is read, for anyone
  timeOf(body.staffId);
  const { holdId } = body;
  if (holdId !== undefined) {
    // The hold is the check: its time is the guest's, so only the hold can refuse (guest-side.md).
    // Checked before the payment link is asked for, and again under the locks.
    const want = { locationId: location.id, serviceId: service.id, staffId: body.staffId, slot: { date, startTime } };
    const found = await findHold(db, ctx.businessId, holdId);
    // the time the hold's own staff member takes now (their variant), or the asked-for one's
    const { resolved, held } = timeOf(found?.staffId ?? body.staffId);
    const seen = checkHoldForCreate(found, want, ctx.now, { ...resolved, held });
    await accept();
    return transactionWithRetry(db, async (tx) => {
      const hold = checkHoldForCreate(await lockHoldForUse(tx, ctx.businessId, seen), want, ctx.now, { ...resolved, held });
      if (!(await staffStillTakesHold(tx, hold))) {
        throw new AppError('booking.hold_expired', 'The staff member no longer takes this time; search again and hold a new one.');
      }
      await useHold(tx, hold.id, bookingId);
      return write(tx, { staffId: hold.staffId, staffName: hold.staffName, sessionId: null, ...resolved, held });
    });
  }
  const candidates = await freeStaffAt(db, { location, service, staffId: body.staffId, date, startTime, now: ctx.now });
  if (body.staffId !== undefined && candidates.unknownStaff) throw new AppError('catalog.staff_not_found');
  const free = await inAssignmentOrder(db, location, date, candidates.free);
  // The payment link (a provider's round trip) before the gate, so no attempt waits on it there.
  if (free.length > 0) await accept();
  for (const staff of free) {
    // Each attempt is its own statement: a clash undoes only that one. Taken between the check and
    // the insert (the database said no, or this process's earlier attempt just booked it): try the
    // next one. Each candidate's own duration applies (an "any staff" booking of a variant service).
    const { resolved, held } = timeOf(staff.id);
    const range = { from: held.from.getTime(), to: held.to.getTime() };
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
      amountMinor: effectiveDepositMinor(service),
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
  return seatPlacement(
    ctx.location.timezone,
    {
      id: seat.id,
      staffId: seat.staff_id,
      staffName: seat.staff_name,
      startAt: seat.start_at,
      endAt: seat.end_at,
      priceMinor: seat.price_minor,
    },
    ctx.now,
  );
}
