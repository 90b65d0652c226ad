/**
 * A hold as the domain sees it: one time of one staff member for one service, kept until it ends.
 * `expired` is also what an active row past its time reads as: the database's clock decides
 * (migration 017), so every instance agrees on when a hold ends.
 */
export type HoldStatus = 'active' | 'released' | 'used' | 'expired';

export interface HoldRecord {
  id: string;
  businessId: string;
  locationId: string;
  serviceId: string;
  staffId: string;
  staffName: string;
  /** the location-local slot the hold keeps */
  slot: { date: string; startTime: string; endTime: string };
  /** the location's IANA zone */
  timezone: string;
  startAt: Date;
  endAt: Date;
  /** the time the hold keeps, buffers included (a booking's occupied range) */
  held: { from: Date; to: Date };
  expiresAt: Date;
  status: HoldStatus;
  /** a visit's hold (salon-scheduling.md "Visits"): its services in order; absent for one service */
  serviceIds?: string[];
  /** a visit's later part: the hold (its first part) it belongs to */
  visitHoldId?: string;
}

/** A visit's hold: its first part (the hold the guest names) and every part in order, the first included. */
export interface VisitHold {
  hold: HoldRecord;
  parts: HoldRecord[];
}
