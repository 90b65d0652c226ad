import { deliveryIdFor } from './delivery-id.ts';
import type { BookingRecord } from './record.ts';
import type { BookingStatus, EventName } from './states.ts';
import { toBookingView, type BookingView } from './view.ts';

export interface EventPayload {
  event: EventName;
  deliveryId: string;
  timestamp: string;
  salonSlug: string;
  transition: {
    id: string | null;
    sequence: number;
    occurredAt: string;
    from: BookingStatus | null;
    to: BookingStatus;
  };
  booking: BookingView;
}

/**
 * The webhook body of one business event, describing the booking as it was at that event. It is
 * serialised once and stored, so every attempt and every read of the event log sends these bytes.
 */
export function buildEventPayload(
  event: EventName,
  booking: BookingRecord,
  salonSlug: string,
  transition: { id: string | null; from: BookingStatus | null; occurredAt: Date },
): { payload: EventPayload; json: string } {
  const payload: EventPayload = {
    event,
    deliveryId: deliveryIdFor(event, booking.id, booking.stateVersion),
    timestamp: transition.occurredAt.toISOString(),
    salonSlug,
    transition: {
      id: transition.id,
      sequence: booking.stateVersion,
      occurredAt: transition.occurredAt.toISOString(),
      from: transition.from,
      to: booking.status,
    },
    booking: toBookingView(booking),
  };
  return { payload, json: JSON.stringify(payload) };
}
