/** What the public catalogue shows of services and staff (booking-api-v1.md "Service", "StaffMember"). */
import { satisfiesPriceRule, type AcceptancePolicy, type Money, type PriceType } from './catalog.ts';
import { toMajor } from './money.ts';
import type { ServiceRow } from '../store/services.ts';
import type { StaffRow } from '../store/staff.ts';

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
}

export interface PublicStaffMember {
  id: string;
  name: string;
  bio?: string;
  avatarUrl?: string;
}

// Sorted here rather than in SQL so the order is the same whatever collation the database has.
const collator = new Intl.Collator('en', { sensitivity: 'variant', numeric: true });

function byNameThenId(a: { name: string; id: string }, b: { name: string; id: string }): number {
  return collator.compare(a.name, b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Minor units as the API shows money: major units with the currency. */
export function moneyView(minor: number | null, currency: string): Money | null {
  return minor === null ? null : { amount: toMajor(minor, currency), currency };
}

export function depositView(s: ServiceRow): DepositView {
  const v: DepositView = { required: s.deposit_required };
  if (!s.deposit_required) return v;
  if (s.deposit_terms_version !== null) v.termsVersion = s.deposit_terms_version;
  if (s.deposit_amount_minor !== null) v.amount = moneyView(s.deposit_amount_minor, s.currency)!;
  return v;
}

export function publicService(s: ServiceRow): PublicService {
  return {
    id: s.id,
    name: s.name,
    durationMinutes: s.duration_minutes,
    priceType: s.price_type,
    pricingVersion: s.pricing_version,
    price: moneyView(s.price_minor, s.currency),
    ...(s.description !== null ? { description: s.description } : {}),
    requestAcceptancePolicy: s.request_acceptance_policy,
    deposit: depositView(s),
  };
}

/**
 * Rows already filtered to active, online-bookable services of the location. The price rule is
 * checked again because a row may have been written outside the operator API.
 */
export function listedServices(rows: readonly ServiceRow[]): PublicService[] {
  return rows
    .filter((s) => satisfiesPriceRule(s.price_type, s.price_minor))
    .sort(byNameThenId)
    .map(publicService);
}

export function listedStaff(rows: readonly StaffRow[]): PublicStaffMember[] {
  return [...rows].sort(byNameThenId).map((s) => {
    const v: PublicStaffMember = { id: s.id, name: s.name };
    if (s.bio !== null) v.bio = s.bio;
    if (s.avatar_url !== null) v.avatarUrl = s.avatar_url;
    return v;
  });
}
