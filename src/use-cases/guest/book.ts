import { createHash } from 'node:crypto';
import type { CreateBookingBody } from '../../domain/bookings/create-input.ts';
import type { BookingRecord } from '../../domain/bookings/record.ts';
import { effectiveFeatures } from '../../domain/plans.ts';
import type { Db } from '../../store/db.ts';
import { findBooking } from '../../store/bookings.ts';
import { claimKey, type KeyCompletion, releaseKey } from '../../store/idempotency.ts';
import { getSubscription } from '../../store/subscriptions.ts';
import { type CreateContext, createBooking } from '../bookings/create.ts';
import { createVisit, type VisitCreateBody, type VisitCreateContext, type VisitOutcome } from '../bookings/create-visit.ts';
import { visitBookings } from '../../store/visits.ts';

/** What one details form made: the booking and, for a deposit booking confirmed at once, its payment link. */
export interface PageBooked {
  /** a visit's first part */
  bookingId: string;
  depositPaymentUrl?: string;
}

export type PageBookOutcome =
  | { kind: 'booked'; booked: PageBooked; replay: boolean }
  /** the same form is being booked by another request right now, and did not finish in time */
  | { kind: 'inProgress' }
  /** a new attempt the caller's admission (the per-address limit) refused; nothing was written */
  | { kind: 'limited' };

const OPERATION = 'bookingPage.book';
const LEASE_MS = 30_000;
/** how long a second submit of a form waits for the first to finish before saying so */
const WAIT_MS = 5_000;
const POLL_MS = 150;

/**
 * The details step's `Book`: POST /v1/bookings' use case (createBooking) with the source
 * `bookingPage`, made once per form token. The form's key is claimed in the business's idempotency
 * records as an API key's Idempotency-Key is, and the booking's own insert statement stores the
 * answer, so a double submit (or a reload of the POST) gets the first booking back, never a second.
 * A failure releases the key: the guest corrects the form and sends it again with the same token.
 */
export async function bookOnPage(
  db: Db,
  ctx: Omit<CreateContext, 'source' | 'depositsEnabled'>,
  formKey: string,
  body: CreateBookingBody,
  /** asked once the form's key is newly claimed (a replay is not a new attempt): false refuses it */
  admit: () => Promise<boolean> = async () => true,
): Promise<PageBookOutcome> {
  return onceForForm(db, ctx.businessId, formKey, admit, (key, lease) => create(db, ctx, body, key, lease));
}

/**
 * `Book` of a visit: POST /v1/bookings' visit create (createVisit, all parts or none) with the
 * source `bookingPage`, once per form token as one service's booking is.
 */
export async function bookVisitOnPage(
  db: Db,
  ctx: Omit<VisitCreateContext, 'source'>,
  formKey: string,
  body: VisitCreateBody,
  admit: () => Promise<boolean> = async () => true,
): Promise<PageBookOutcome> {
  return onceForForm(db, ctx.businessId, formKey, admit, async (key, lease) => {
    const settle = (o: VisitOutcome): KeyCompletion => ({
      businessId: ctx.businessId,
      key,
      status: 201,
      body: JSON.stringify({ bookingId: o.booking.id } satisfies PageBooked),
      written: false,
    });
    try {
      const outcome = await createVisit(db, { ...ctx, source: { kind: 'bookingPage' } }, body, settle);
      return { bookingId: outcome.booking.id };
    } catch (err) {
      await releaseKey(db, ctx.businessId, key, lease).catch(() => {});
      throw err;
    }
  });
}

async function onceForForm(
  db: Db,
  businessId: string,
  formKey: string,
  admit: () => Promise<boolean>,
  make: (key: string, lease: string) => Promise<PageBooked>,
): Promise<PageBookOutcome> {
  const key = `page:${formKey}`;
  const claim = { businessId, key, operation: OPERATION, fingerprint: fingerprintOf(key), leaseMs: LEASE_MS };
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const c = await claimKey(db, claim);
    if (c.kind === 'replay') return { kind: 'booked', booked: JSON.parse(c.body) as PageBooked, replay: true };
    if (c.kind === 'claimed') {
      if (!(await admit())) {
        await releaseKey(db, businessId, key, c.lease).catch(() => {});
        return { kind: 'limited' };
      }
      return { kind: 'booked', booked: await make(key, c.lease), replay: false };
    }
    if (Date.now() >= deadline) return { kind: 'inProgress' };
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

async function create(
  db: Db,
  base: Omit<CreateContext, 'source' | 'depositsEnabled'>,
  body: CreateBookingBody,
  key: string,
  lease: string,
): Promise<PageBooked> {
  try {
    const subscription = base.service.depositRequired ? await getSubscription(db, base.businessId) : undefined;
    const depositsEnabled = subscription ? effectiveFeatures(subscription.plan, subscription.featureOverrides).depositCollection : false;
    const ctx: CreateContext = { ...base, source: { kind: 'bookingPage' }, depositsEnabled };
    const settle = (o: { booking: BookingRecord; depositPaymentUrl?: string }): KeyCompletion => ({
      businessId: base.businessId,
      key,
      status: 201,
      body: JSON.stringify(booked(o)),
      written: false,
    });
    return booked(await createBooking(db, ctx, body, settle));
  } catch (err) {
    await releaseKey(db, base.businessId, key, lease).catch(() => {});
    throw err;
  }
}

function booked(o: { booking: BookingRecord; depositPaymentUrl?: string }): PageBooked {
  return o.depositPaymentUrl ? { bookingId: o.booking.id, depositPaymentUrl: o.depositPaymentUrl } : { bookingId: o.booking.id };
}

function fingerprintOf(key: string): string {
  return createHash('sha256').update(`${OPERATION}.${key}`).digest('hex');
}

/** A booking of the business, for the done page, its calendar file and the manage page. */
export async function pageBooking(db: Db, businessId: string | null, bookingId: string): Promise<BookingRecord | undefined> {
  return findBooking(db, businessId, bookingId);
}

/** Every part of the booking's visit in order (the done page lists them); the booking alone when it is none. */
export async function pageVisitParts(db: Db, booking: BookingRecord): Promise<BookingRecord[]> {
  if (booking.visitId === undefined) return [booking];
  const parts = await visitBookings(db, booking.visitId);
  return parts.length > 0 ? parts : [booking];
}
