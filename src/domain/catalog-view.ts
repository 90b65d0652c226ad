/** What the public catalogue shows of services and staff (booking-api-v1.md "Service", "StaffMember"). */
import { byNameThenId, compareDisplayOrder } from './display-order.ts';
import type { ServiceRecord, StaffRecord } from './catalog-records.ts';
import { satisfiesPriceRule, type AcceptancePolicy, type Money, type PriceType } from './catalog.ts';
import { toMajor } from './money.ts';
import { effectiveSegments, type Segment } from './scheduling/segments.ts';
import type { StaffVariant } from './scheduling/staff-variants.ts';

export interface DepositView {
  required: boolean;
  /** present when required */
  termsVersion?: string;
  amount?: Money;
}

export interface PublicService {
  id: string;
  name: string;
  durationMinutes: number;
  priceType: PriceType;
  pricingVersion: string;
  price: Money | null;
  description?: string;
  requestAcceptancePolicy: AcceptancePolicy;
  deposit: DepositView;
  /** work and processing parts, in order (one work segment when the service has none) */
  segments: Segment[];
  /** per-staff differences, as set (fields left out are the service's) */
  staffVariants: StaffVariantView[];
}

export interface StaffVariantView {
  staffId: string;
  durationMinutes?: number;
  price?: Money;
  segments?: Segment[];
}

export interface PublicStaffMember {
  id: string;
  name: string;
  bio?: string;
  avatarUrl?: string;
}

// Sorted here rather than in SQL so the order is the same whatever collation the database has.
export { byNameThenId };

/** Minor units as the API shows money: major units with the currency. */
export function moneyView(minor: number | null, currency: string): Money | null {
  return minor === null ? null : { amount: toMajor(minor, currency), currency };
}

export function depositView(s: ServiceRecord): DepositView {
  const v: DepositView = { required: s.depositRequired };
  if (!s.depositRequired) return v;
  if (s.depositTermsVersion !== null) v.termsVersion = s.depositTermsVersion;
  if (s.depositAmountMinor !== null) v.amount = moneyView(s.depositAmountMinor, s.currency)!;
  return v;
}

export function publicService(s: ServiceRecord): PublicService {
  return {
    id: s.id,
    name: s.name,
    durationMinutes: s.durationMinutes,
    priceType: s.priceType,
    pricingVersion: s.pricingVersion,
    price: moneyView(s.priceMinor, s.currency),
    ...(s.description !== null ? { description: s.description } : {}),
    requestAcceptancePolicy: s.requestAcceptancePolicy,
    deposit: depositView(s),
    segments: segmentsView(s),
    staffVariants: staffVariantsView(s),
  };
}

/** A service's variants as reads show them: what each sets, in the order they were given. */
export function staffVariantsView(s: { staffVariants: readonly StaffVariant[]; currency: string }): StaffVariantView[] {
  return s.staffVariants.map((v) => ({
    staffId: v.staffId,
    ...(v.durationMinutes !== undefined ? { durationMinutes: v.durationMinutes } : {}),
    ...(v.priceMinor !== undefined ? { price: moneyView(v.priceMinor, s.currency)! } : {}),
    ...(v.segments !== undefined ? { segments: v.segments.map(({ kind, minutes }) => ({ kind, minutes })) } : {}),
  }));
}

/** A service's segments as reads show them: always listed, one work segment when none are set. */
export function segmentsView(s: Pick<ServiceRecord, 'durationMinutes' | 'segments'>): Segment[] {
  return effectiveSegments(s).map(({ kind, minutes }) => ({ kind, minutes }));
}

/**
 * Services already filtered to active, online-bookable ones of the location. The price rule is
 * checked again because a row may have been written outside the operator API.
 */
export function listedServices(services: readonly ServiceRecord[]): PublicService[] {
  return services
    .filter((s) => satisfiesPriceRule(s.priceType, s.priceMinor))
    .sort(byNameThenId)
    .map(publicService);
}

export function listedStaff(staff: readonly StaffRecord[]): PublicStaffMember[] {
  return [...staff].sort(compareDisplayOrder).map((s) => {
    const v: PublicStaffMember = { id: s.id, name: s.name };
    if (s.bio !== null) v.bio = s.bio;
    if (s.avatarUrl !== null) v.avatarUrl = s.avatarUrl;
    return v;
  });
}
