import { buildEventPayload } from './event-payload.ts';
import type { BookingRecord } from './record.ts';
import type { EventName } from './states.ts';

/** One stored booking event with its exact webhook payload; the store writes it with its outbox row. */
export interface BookingEventRow {
  bookingId: string;
  businessId: string;
  sequence: number;
  event: string;
  transitionId: string | null;
  from: string | null;
  to: string;
  occurredAt: Date;
  deliveryId: string;
  payloadJson: string;
  /** the business's reason (decline, cancel): stored beside the payload, never in it */
  reason?: string | null;
  /** who made the change, named in operator event reads; null when not known */
  actor?: EventActor | null;
}

/** Who made a change (guest-side.md "Self-service"): the guest on the manage page, a member, the platform operator, an API key. */
export type EventActor = 'guest' | 'member' | 'operator' | 'api';

export interface Transition {
  id: string | null;
  from: BookingRecord['status'] | null;
  occurredAt: Date;
}

/** The event row of `booking` as it is right after the transition: its payload is fixed here. */
export function eventOf(booking: BookingRecord, event: EventName, transition: Transition, salonSlug: string): BookingEventRow {
  const { payload, json } = buildEventPayload(event, booking, salonSlug, transition);
  return {
    bookingId: booking.id,
    businessId: booking.businessId,
    sequence: booking.stateVersion,
    event,
    transitionId: transition.id,
    from: transition.from,
    to: booking.status,
    occurredAt: transition.occurredAt,
    deliveryId: payload.deliveryId,
    payloadJson: json,
  };
}
