import type { BookingRecord, LocationSnapshot } from './record.ts';
import type { BookingStatus } from './states.ts';

export interface SlotTime {
  date: string;
  startTime: string;
  endTime: string;
  timezone: string;
}

export interface BookingView {
  bookingId: string;
  publicReference: string;
  status: BookingStatus;
  locationId: string;
  locationSnapshot: LocationSnapshot;
  serviceId: string;
  serviceName: string;
  staffId: string | null;
  staffName: string | null;
  guestName: string;
  requestedSlot: { date: string | null; startTime: string | null; timezone: string };
  confirmedSlot: SlotTime | null;
  proposedSlot?: SlotTime & { staffId: string };
  sessionId?: string;
  note: string | null;
  serviceLocation?: { address: string; note?: string };
  createdAt: string;
  updatedAt: string;
  stateVersion: number;
  acceptanceMode: 'manual' | 'automatic';
  /** the visit this booking is a part of; absent for a booking on its own */
  visitId?: string;
}

const CONFIRMED_STYLE: ReadonlySet<BookingStatus> = new Set(['confirmed', 'completed', 'noShow']);

/**
 * The public shape. Guest phone and email have no field here, so they cannot leak through any
 * response, event or webhook built from it.
 */
export function toBookingView(b: BookingRecord): BookingView {
  const view: BookingView = {
    bookingId: b.id,
    publicReference: b.publicReference,
    status: b.status,
    locationId: b.locationId,
    locationSnapshot: b.locationSnapshot,
    serviceId: b.serviceId,
    serviceName: b.serviceName,
    staffId: b.staffId,
    staffName: b.staffId === null ? null : (b.staffName ?? b.staffId),
    guestName: b.guestName,
    requestedSlot: { date: b.requestedDate, startTime: b.requestedStartTime, timezone: b.timezone },
    // confirmedSlot rules 1-3: only confirmed-style states carry it; cancelled/declined never do.
    confirmedSlot: CONFIRMED_STYLE.has(b.status) ? { ...b.slot, timezone: b.timezone } : null,
    note: b.note,
    createdAt: b.createdAt.toISOString(),
    updatedAt: b.updatedAt.toISOString(),
    stateVersion: b.stateVersion,
    acceptanceMode: b.acceptanceMode,
  };
  if (b.status === 'rescheduleProposed' && b.proposed) {
    view.proposedSlot = { ...b.proposed.slot, timezone: b.timezone, staffId: b.proposed.staffId };
  }
  if (b.sessionId !== null) view.sessionId = b.sessionId;
  if (b.visitId !== undefined) view.visitId = b.visitId;
  if (b.serviceLocation) {
    view.serviceLocation = b.serviceLocation.note
      ? { address: b.serviceLocation.address, note: b.serviceLocation.note }
      : { address: b.serviceLocation.address };
  }
  return view;
}
