import type { BookingRecord } from '../bookings/record.ts';

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
