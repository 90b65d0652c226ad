/**
 * A visit's parts as placements (salon-scheduling.md "Visits"): the pure half of a visit create.
 * The engine says where each part sits (domain/availability/visit.ts); this turns one offered
 * visit into the placements planCreate writes, and orders the offered visits a create tries.
 */
import type { VisitSlot } from '../availability/visit.ts';
import type { ServiceRecord } from '../catalog-records.ts';
import { invalidField } from '../errors.ts';
import type { CreateBookingBody } from './create-input.ts';
import type { Placement } from './create-plan.ts';
import { heldRange } from './held-range.ts';

export interface VisitPartInput {
  serviceId: string;
  staffId?: string | undefined;
  expectedPricingVersion?: string | undefined;
}

/** The create body as one part sees it: its own service, staff member and pricing version. */
export function partBody(body: Omit<CreateBookingBody, 'serviceId'>, part: VisitPartInput): CreateBookingBody {
  const { visit: _visit, ...rest } = body as Omit<CreateBookingBody, 'serviceId'> & { visit?: unknown };
  return { ...rest, serviceId: part.serviceId, staffId: part.staffId, expectedPricingVersion: part.expectedPricingVersion };
}

/**
 * What a visit's body may not carry beside `visit` (the parts name their own services and staff),
 * and what its services may not be: a group session has its own times, and a deposit service is
 * booked on its own (one payment link per booking; docs/decisions.md "Visits").
 */
export function checkVisitBody(body: {
  serviceId?: unknown;
  staffId?: unknown;
  expectedPricingVersion?: unknown;
  sessionId?: unknown;
  slotToken?: unknown;
}): void {
  for (const field of ['serviceId', 'staffId', 'expectedPricingVersion', 'sessionId', 'slotToken'] as const) {
    if (body[field] !== undefined) throw invalidField(`body.${field}`, 'is not used with visit (each part names its own)');
  }
}

export function checkVisitServices(services: readonly ServiceRecord[]): void {
  for (const [i, s] of services.entries()) {
    if (s.depositRequired)
      throw invalidField(`body.visit[${i}].serviceId`, 'takes a deposit: it is booked on its own, not as part of a visit');
  }
}

/** The placements of one offered visit, part by part. */
export function visitPlacements(
  slot: VisitSlot,
  services: readonly ServiceRecord[],
  staffNames: ReadonlyMap<string, { name: string }>,
): Placement[] {
  return slot.visit.map((part, i) => {
    const service = services[i]!;
    const startAt = new Date(part.startAt);
    const endAt = new Date(part.endAt);
    return {
      staffId: part.staffId,
      staffName: staffNames.get(part.staffId)?.name ?? part.staffId,
      sessionId: null,
      startAt,
      endAt,
      slot: { date: slot.date, startTime: part.startTime, endTime: part.endTime },
      held: heldRange(startAt, endAt, service),
    };
  });
}

/**
 * The order in which a create tries the visits offered at its start time: the first part's staff
 * members in the location's assignment order (`firstStaffOrder`), and for each, a visit with one
 * staff member for every part before one that changes hands.
 */
export function visitTryOrder(slots: readonly VisitSlot[], firstStaffOrder: readonly string[]): VisitSlot[] {
  const rank = new Map(firstStaffOrder.map((id, i) => [id, i]));
  const oneForAll = (s: VisitSlot) => (s.visit.every((p) => p.staffId === s.staffId) ? 0 : 1);
  return slots
    .filter((s) => rank.has(s.staffId))
    .sort((a, b) => oneForAll(a) - oneForAll(b) || rank.get(a.staffId)! - rank.get(b.staffId)!);
}
