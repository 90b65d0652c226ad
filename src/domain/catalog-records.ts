import type { Segment } from './scheduling/segments.ts';
import type { StaffVariant } from './scheduling/staff-variants.ts';
import type { StaffAssignment } from './bookings/staff-assignment.ts';
import type { AcceptancePolicy, BookingMode, PriceType } from './catalog.ts';

// Named *Record like BookingRecord, and because a bare `Location` is also the DOM global type
// (tsconfig keeps the default libs): a missing import would then compile against the wrong type.

/** A location as the domain sees it; the store maps rows to this. */
export interface LocationRecord {
  id: string;
  businessId: string;
  slug: string;
  name: string;
  publicLocationName: string;
  timezone: string;
  city: string;
  street: string;
  zip: string;
  bookingEnabled: boolean;
  slotIntervalMinutes: number;
  minNoticeMinutes: number;
  horizonDays: number;
  /** free text shown on the deposit payment page (how to pay: bank transfer, at the desk, ...) */
  paymentInstructions: string | null;
  /** shown to a guest who can no longer cancel online (the manage page) */
  phone: string | null;
  /** who gets a booking or hold asked for without a staff member (domain/bookings/staff-assignment.ts) */
  staffAssignment: StaffAssignment;
  createdAt: Date;
  updatedAt: Date;
}

/** A service as the domain sees it, with its location's slug and its business's currency. */
export interface ServiceRecord {
  id: string;
  businessId: string;
  locationId: string;
  locationSlug: string;
  /** the business currency; prices are kept in its minor units */
  currency: string;
  name: string;
  description: string | null;
  durationMinutes: number;
  priceType: PriceType;
  priceMinor: number | null;
  requestAcceptancePolicy: AcceptancePolicy;
  onlineBookable: boolean;
  active: boolean;
  onSite: boolean;
  bookingMode: BookingMode;
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
  /** processing time (salon-scheduling.md); null: one work segment */
  segments: Segment[] | null;
  /** per-staff duration, price and segments (salon-scheduling.md "Stylist variants"); empty: none */
  staffVariants: StaffVariant[];
  /** the active resources each booking of it needs one unit of (salon-scheduling.md "Resources") */
  requiredResourceIds: string[];
  depositRequired: boolean;
  depositTermsVersion: string | null;
  depositAmountMinor: number | null;
  pricingVersion: string;
  createdAt: Date;
  updatedAt: Date;
}

/** What moving a booking needs of its service. */
export type ServiceTiming = Pick<
  ServiceRecord,
  | 'id'
  | 'locationId'
  | 'durationMinutes'
  | 'bufferBeforeMinutes'
  | 'bufferAfterMinutes'
  | 'segments'
  | 'staffVariants'
  | 'requiredResourceIds'
>;

/** A staff member as the domain sees it, with their location's slug. */
export interface StaffRecord {
  id: string;
  businessId: string;
  locationId: string;
  locationSlug: string;
  name: string;
  bio: string | null;
  avatarUrl: string | null;
  active: boolean;
  /** display order among the location's staff (unset: after the set ones, by name); `ordered` assignment follows it */
  position: number | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A resource (a chair, a wash basin): `quantity` units at one location, which services may need one of. */
export interface ResourceRecord {
  id: string;
  businessId: string;
  locationId: string;
  locationSlug: string;
  name: string;
  quantity: number;
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
}
