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
  expiresAt: Date;
  status: HoldStatus;
}
