import type { BookingStatus } from './states.ts';

export interface LocationSnapshot {
  id: string;
  locationSlug: string;
  publicLocationName: string;
  address: { city: string; street: string; zip: string };
  timezone: string;
}

export interface LocalSlot {
  date: string;
  startTime: string;
  endTime: string;
}

/** A booking as the domain sees it; the store maps rows to and from this. */
export interface BookingRecord {
  id: string;
  businessId: string;
  locationId: string;
  serviceId: string;
  staffId: string | null;
  sessionId: string | null;
  publicReference: string;
  status: BookingStatus;
  stateVersion: number;
  acceptanceMode: 'manual' | 'automatic';
  serviceName: string;
  staffName: string | null;
  locationSnapshot: LocationSnapshot;
  timezone: string;
  requestedDate: string | null;
  requestedStartTime: string | null;
  startAt: Date;
  endAt: Date;
  slot: LocalSlot;
  proposed: { staffId: string; startAt: Date; endAt: Date; slot: LocalSlot } | null;
  guestName: string;
  note: string | null;
  serviceLocation: { address: string; note?: string } | null;
  createdAt: Date;
  updatedAt: Date;
  /**
   * The processing parts of the appointment (its staff member is free then), as minutes from its
   * start; absent or empty for a service without processing time.
   */
  processing?: Array<{ fromMinute: number; toMinute: number }>;
  /** the resource units it occupies (assigned by the database); absent or empty when it needs none or occupies nothing */
  resources?: Array<{ resourceId: string; name: string; unit: number }>;
  /** the visit this booking is a part of (salon-scheduling.md "Visits"); absent for a booking on its own */
  visitId?: string;
}
