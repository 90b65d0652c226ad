/** A hold as the domain sees it: one time of one staff member for one service, kept until it ends. */
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
  startAt: Date;
  endAt: Date;
  expiresAt: Date;
  status: HoldStatus;
}

/** Live at `now`: active and not yet expired (a row whose time has come counts as expired at once). */
export function holdIsLive(hold: Pick<HoldRecord, 'status' | 'expiresAt'>, now: Date): boolean {
  return hold.status === 'active' && hold.expiresAt.getTime() > now.getTime();
}
