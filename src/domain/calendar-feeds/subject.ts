/** Whose appointments a feed carries: one staff member's, or every one of a location's. */
export type FeedScope = { kind: 'staff'; staffId: string } | { kind: 'location'; locationId: string };

/** A live feed as the reading side needs it: its scope and the location that sets its window. */
export interface FeedSubject {
  feedId: string;
  businessId: string;
  businessName: string;
  scope: FeedScope;
  /** the staff member's name, or the location's */
  name: string;
  timezone: string;
  horizonDays: number;
}

/** A period of time off as a feed shows it, with the name of whose it is. */
export interface FeedTimeOff {
  id: string;
  staffId: string;
  staffName: string;
  startAt: Date;
  endAt: Date;
  createdAt: Date;
}
