import { checkCreateInput, type CheckedInput, type CreateBookingBody } from '../../domain/bookings/create-input.ts';
import { createRefusal, createRules, type Placement, planCreate, type SlotGone } from '../../domain/bookings/create-plan.ts';
import type { BookingRecord } from '../../domain/bookings/record.ts';
import { actorOfSource, type BookingSource, sourceRow } from '../../domain/bookings/source.ts';
import { bookedPrice } from '../../domain/bookings/price.ts';
import { checkVisitServices, partBody, type VisitPartInput, visitPlacements, visitTryOrder } from '../../domain/bookings/visit-plan.ts';
import type { LocationRecord, ServiceRecord } from '../../domain/catalog-records.ts';
import { AppError, isAppError } from '../../domain/errors.ts';
import { checkVisitHold } from '../../domain/holds/for-visit.ts';
import { newId } from '../../domain/ids.ts';
import { parseIsoDate } from '../../domain/time/calendar.ts';
import { insertBooking, lockStaffCalendars } from '../../store/bookings.ts';
import type { Db, Queryable } from '../../store/db.ts';
import { findVisitHold, staffStillTakesHold, useHold as markHoldUsed } from '../../store/holds.ts';
import type { KeyCompletion } from '../../store/idempotency.ts';
import { transactionWithRetry } from '../../store/tx-retry.ts';
import { insertVisit } from '../../store/visits.ts';
import { inAssignmentOrder } from '../availability/free-staff.ts';
import { visitSlotsAtLocation } from '../availability/visit-slots.ts';

export interface VisitCreateContext {
  businessId: string;
  salonSlug: string;
  source: BookingSource;
  location: LocationRecord;
  /** the visit's services in order, already checked (visitServices) */
  services: ServiceRecord[];
  now: Date;
}

export type VisitCreateBody = Omit<CreateBookingBody, 'serviceId'> & { visit: VisitPartInput[] };

export interface VisitOutcome {
  /** the first part */
  booking: BookingRecord;
  visit: { visitId: string; bookings: BookingRecord[] };
}

/**
 * POST /v1/bookings with `visit` (salon-scheduling.md "Visits"): one booking per part, all in one
 * transaction with the visit's row, so the parts are booked or none is. Each part is an ordinary
 * booking row written by insertBooking with its own events, quota count and webhooks; the last
 * part's statement stores the idempotent response, which commits with all of them. Without a hold, the visits a search offers at that start are tried in the
 * assignment order (visitTryOrder); a part the database refuses undoes the whole attempt.
 */
export async function createVisit(
  db: Db,
  ctx: VisitCreateContext,
  body: VisitCreateBody,
  settle: (outcome: VisitOutcome) => KeyCompletion,
): Promise<VisitOutcome> {
  const { services, location } = ctx;
  checkVisitServices(services);
  const inputs = services.map((s, i) => checkCreateInput(partBody(body, body.visit[i]!), s));
  const rules = services.map((s) => createRules(s, false));
  // One lost-slot code for the visit: the automatic policy's only when every part is automatic.
  const slotGone: SlotGone = rules.every((r) => r.automatic) ? 'booking.slot_no_longer_available' : 'booking.slot_unavailable';
  const { date, startTime } = body.slot!;
  const plan = { ctx, body, inputs, confirms: rules.map((r) => r.automatic), slotGone, settle };

  if (body.holdId !== undefined) {
    const holdId = body.holdId;
    const want = { locationId: location.id, parts: body.visit, slot: { date, startTime } };
    checkVisitHold(await findVisitHold(db, ctx.businessId, holdId), want, ctx.now, services);
    return transactionWithRetry(db, async (tx) => {
      const seen = await findVisitHold(tx, ctx.businessId, holdId);
      await lockStaffCalendars(tx, seen?.parts.map((p) => p.staffId) ?? []);
      const held = checkVisitHold(await findVisitHold(tx, ctx.businessId, holdId, true), want, ctx.now, services);
      for (const part of held.parts) {
        if (!(await staffStillTakesHold(tx, part))) {
          throw new AppError('booking.hold_expired', 'A staff member no longer takes this time; search again and hold a new one.');
        }
      }
      const placements: Placement[] = held.parts.map((p) => ({
        staffId: p.staffId,
        staffName: p.staffName,
        sessionId: null,
        startAt: p.startAt,
        endAt: p.endAt,
        slot: p.slot,
        held: held.ranges[held.parts.indexOf(p)]!,
      }));
      const bookingIds = placements.map(() => newId('bkg'));
      // Used before the bookings' rows, so their triggers no longer count the holds against them.
      for (const [i, part] of held.parts.entries()) await markHoldUsed(tx, part.id, bookingIds[i]!);
      return writeVisit(tx, plan, placements, bookingIds);
    });
  }

  const day = parseIsoDate(date);
  const { result, staff } = await visitSlotsAtLocation(db, {
    location,
    services,
    staffIds: body.visit.map((p) => p.staffId),
    from: date,
    to: date,
    firstDay: day,
    lastDay: day,
    now: ctx.now,
    limit: Number.MAX_SAFE_INTEGER,
  });
  const offered = result.slots.filter((s) => s.startTime === startTime);
  const firsts = [...new Set(offered.map((s) => s.staffId))].map((id) => staff.get(id)!);
  const order = (await inAssignmentOrder(db, location, date, firsts)).map((s) => s.id);
  for (const slot of visitTryOrder(offered, order)) {
    const placements = visitPlacements(slot, services, staff);
    try {
      return await transactionWithRetry(db, (tx) =>
        writeVisit(
          tx,
          plan,
          placements,
          placements.map(() => newId('bkg')),
        ),
      );
    } catch (err) {
      // Taken between the search and the write: the next offered visit, if any.
      if (!(isAppError(err) && err.code === slotGone)) throw err;
    }
  }
  throw new AppError(slotGone);
}

interface VisitPlan {
  ctx: VisitCreateContext;
  body: VisitCreateBody;
  inputs: CheckedInput[];
  confirms: boolean[];
  slotGone: SlotGone;
  settle: (outcome: VisitOutcome) => KeyCompletion;
}

/** The visit's row, then each part's booking in order, in the caller's transaction. */
async function writeVisit(tx: Queryable, plan: VisitPlan, placements: Placement[], bookingIds: string[]): Promise<VisitOutcome> {
  const { ctx, body } = plan;
  const visitId = newId('vst');
  await insertVisit(tx, { id: visitId, businessId: ctx.businessId, locationId: ctx.location.id });
  // Every part's staff member in id order before any row, so two visits never wait in a cycle.
  await lockStaffCalendars(
    tx,
    placements.map((p) => p.staffId),
  );
  const planPart = (i: number) =>
    planCreate(
      {
        bookingId: bookingIds[i]!,
        businessId: ctx.businessId,
        salonSlug: ctx.salonSlug,
        location: ctx.location,
        service: ctx.services[i]!,
        input: plan.inputs[i]!,
        now: ctx.now,
        confirm: plan.confirms[i]!,
        actor: actorOfSource(ctx.source),
        visitId,
      },
      placements[i]!,
    );
  const planned = placements.map((_, i) => planPart(i));
  const outcome = (): VisitOutcome => {
    const bookings = planned.map((p) => p.booking);
    return { booking: bookings[0]!, visit: { visitId, bookings } };
  };
  for (let i = 0; i < planned.length; i++) {
    for (let attempt = 0; ; attempt++) {
      const { booking, events } = planned[i]!;
      const p = placements[i]!;
      const service = ctx.services[i]!;
      const row = {
        record: booking,
        guestPhone: plan.inputs[i]!.guest.phone,
        guestEmail: plan.inputs[i]!.guest.email,
        consent: body.consent,
        depositTerms: null,
        deposit: null,
        source: sourceRow(ctx.source),
        price: bookedPrice(service, p.staffId, undefined),
        occupiedFrom: p.held.from,
        occupiedTo: p.held.to,
        processing: p.held.processing,
        resourceIds: p.held.resourceIds,
      };
      // The answer is stored by the last part's statement, when every part's row is known.
      const last = i === planned.length - 1;
      const written = await insertBooking(tx, row, events, {
        quotaBusinessId: ctx.businessId,
        completion: last ? plan.settle(outcome()) : undefined,
      });
      if (written === 'inserted') break;
      // A public-reference collision: draw another for this part (the answer is written again with it).
      if (written !== 'reference_taken') throw createRefusal(written, plan.slotGone);
      if (attempt >= 3) throw new Error('no free public reference after 4 draws');
      planned[i] = planPart(i);
    }
  }
  return outcome();
}
