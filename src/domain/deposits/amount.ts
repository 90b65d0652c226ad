import type { PriceType } from '../catalog.ts';
import { invalidField } from '../errors.ts';

/**
 * A deposit always has an amount (guest-side.md): the service's own deposit amount, else its full
 * price. A price is usable when it is quoted and positive: `fixed`, and `from` (the price a guest
 * is shown, the least the visit costs, so never more than it will cost); a `negotiable` service has
 * none, and 0 would be no deposit at all.
 */
export interface DepositAmountSource {
  depositAmountMinor: number | null;
  priceType: PriceType;
  priceMinor: number | null;
}

export function usablePriceMinor(priceType: PriceType, priceMinor: number | null): number | null {
  return priceType !== 'negotiable' && priceMinor !== null && priceMinor > 0 ? priceMinor : null;
}

/** What a deposit of this service is: its own amount, else its full price; null when it has neither. */
export function effectiveDepositMinor(s: DepositAmountSource): number | null {
  return s.depositAmountMinor ?? usablePriceMinor(s.priceType, s.priceMinor);
}

/**
 * Refuses saving a service that requires a deposit it cannot name: no deposit amount and no usable
 * price. `path` is the field the caller should fix (the deposit's amount, or the price that made it
 * unusable).
 */
export function checkDepositHasAmount(required: boolean, s: DepositAmountSource, path: string): void {
  if (!required || effectiveDepositMinor(s) !== null) return;
  throw invalidField(
    path,
    'is required: a service that takes a deposit needs a deposit amount, or a fixed or from price above 0 to take as the deposit',
  );
}
