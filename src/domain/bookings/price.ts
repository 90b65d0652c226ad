import type { ServiceRecord } from '../catalog-records.ts';
import type { Money, PriceType } from '../catalog.ts';
import { moneyView } from '../catalog-view.ts';
import { type StaffVariant, variantOf } from '../scheduling/staff-variants.ts';

/**
 * The price a booking keeps from the moment it was made (salon-scheduling.md, "Stylist variants"):
 * a later change of the service's price leaves it alone, and reports sum it (a `negotiable` one, with
 * no amount, counts 0). Minor units of `currency`, the business currency at booking time.
 */
export interface BookedPrice {
  type: PriceType;
  amountMinor: number | null;
  currency: string;
}

/**
 * The one place that decides what a new booking costs: the staff member's variant price
 * (salon-scheduling.md "Stylist variants"), else the service's price, or a group session's seat
 * price when the session has one. The price type is always the service's.
 */
export function bookedPrice(
  service: Pick<ServiceRecord, 'priceType' | 'priceMinor' | 'currency'> & { staffVariants?: readonly StaffVariant[] },
  staffId: string | null,
  session?: { priceMinor: number | null },
): BookedPrice {
  if (session && session.priceMinor !== null) return { type: 'fixed', amountMinor: session.priceMinor, currency: service.currency };
  const variant = service.staffVariants ? variantOf({ staffVariants: service.staffVariants }, staffId) : undefined;
  return { type: service.priceType, amountMinor: variant?.priceMinor ?? service.priceMinor, currency: service.currency };
}

/** What the operator reads: the amount in major units, or null when there is none (negotiable, or unknown). */
export function bookedPriceView(price: BookedPrice | null): Money | null {
  return price === null ? null : moneyView(price.amountMinor, price.currency);
}
