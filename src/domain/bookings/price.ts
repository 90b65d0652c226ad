import type { ServiceRecord } from '../catalog-records.ts';
import type { Money, PriceType } from '../catalog.ts';
import { moneyView } from '../catalog-view.ts';

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
 * The one place that decides what a new booking costs: the service's price, or a group session's
 * seat price when the session has one. Per-staff variants belong here too, which is why the staff
 * member is passed even though no rule reads it yet.
 */
export function bookedPrice(
  service: Pick<ServiceRecord, 'priceType' | 'priceMinor' | 'currency'>,
  _staffId: string | null,
  session?: { priceMinor: number | null },
): BookedPrice {
  if (session && session.priceMinor !== null) return { type: 'fixed', amountMinor: session.priceMinor, currency: service.currency };
  return { type: service.priceType, amountMinor: service.priceMinor, currency: service.currency };
}

/** What the operator reads: the amount in major units, or null when there is none (negotiable, or unknown). */
export function bookedPriceView(price: BookedPrice | null): Money | null {
  return price === null ? null : moneyView(price.amountMinor, price.currency);
}
