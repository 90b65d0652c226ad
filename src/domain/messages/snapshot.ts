import type { BookingRecord } from '../bookings/record.ts';
import type { BookingView } from '../bookings/view.ts';
import { instantToLocal, localToInstant } from '../time/wall-clock.ts';

/** A local time of the booking and its instants. */
export interface SnapshotTime {
  date: string;
  startTime: string;
  endTime: string;
  startAt: string;
  endAt: string;
}

/**
 * What a booking message says, fixed when it is planned (the row's `data`): the booking as the
 * follow-up read it right after its event. A message sent an hour late, after a retry, still says
 * what happened then; a reminder also checks the booking as it is when due (message-send).
 */
export interface BookingSnapshot {
  publicReference: string;
  serviceName: string;
  staffName: string | null;
  guestName: string;
  locationName: string;
  address: string;
  timezone: string;
  status: BookingRecord['status'];
  stateVersion: number;
  time: SnapshotTime;
  proposed: SnapshotTime | null;
}

export function bookingSnapshot(b: BookingRecord): BookingSnapshot {
  const place = b.locationSnapshot;
  return {
    publicReference: b.publicReference,
    serviceName: b.serviceName,
    staffName: b.staffName,
    guestName: b.guestName,
    locationName: place.publicLocationName,
    address: [place.address.street, `${place.address.zip} ${place.address.city}`.trim()].filter(Boolean).join(', '),
    timezone: b.timezone,
    status: b.status,
    stateVersion: b.stateVersion,
    time: { ...b.slot, startAt: b.startAt.toISOString(), endAt: b.endAt.toISOString() },
    proposed: b.proposed ? { ...b.proposed.slot, startAt: b.proposed.startAt.toISOString(), endAt: b.proposed.endAt.toISOString() } : null,
  };
}

/**
 * The booking as one event left it: the row read by its follow-up, which is that state unless the
 * booking changed again before the follow-up ran (follow-ups run side by side). Then the time comes
 * from the event's own view (its wall-clock slot in the location's zone; the length from the row),
 * so a "confirmed" message never shows the time a later move set.
 */
export function eventSnapshot(b: BookingRecord, view: BookingView): BookingSnapshot {
  const now = { ...bookingSnapshot(b), status: view.status, stateVersion: view.stateVersion, staffName: view.staffName };
  if (b.stateVersion === view.stateVersion) return now;
  const lengthMs = b.endAt.getTime() - b.startAt.getTime();
  const at = (slot: { date: string | null; startTime: string | null }): SnapshotTime | null => {
    if (!slot.date || !slot.startTime) return null;
    const start = localToInstant({ date: slot.date, time: slot.startTime }, b.timezone);
    if (!start) return null;
    const end = new Date(start.getTime() + lengthMs);
    return {
      date: slot.date,
      startTime: slot.startTime,
      endTime: instantToLocal(end, b.timezone).time,
      startAt: start.toISOString(),
      endAt: end.toISOString(),
    };
  };
  const time = view.confirmedSlot ? at(view.confirmedSlot) : view.status === 'requested' ? at(view.requestedSlot) : null;
  const proposed = view.proposedSlot ? at(view.proposedSlot) : null;
  return { ...now, time: time ?? now.time, proposed };
}

/** A waitlist offer's row data, as the waitlist plans it. */
export interface WaitlistOfferData {
  offerId: string;
  claimNonce: string;
  withdrawNonce: string;
  serviceName: string;
  staffName: string | null;
  date: string;
  startTime: string;
  timezone: string;
  locationName: string;
  salonName: string;
  expiresAt: string;
}
