import { invalidField } from './errors.ts';
import { toMinor } from './money.ts';

export const PRICE_TYPES = ['fixed', 'from', 'negotiable'] as const;
export type PriceType = (typeof PRICE_TYPES)[number];

export const ACCEPTANCE_POLICIES = ['manual', 'automatic'] as const;
export type AcceptancePolicy = (typeof ACCEPTANCE_POLICIES)[number];

export const BOOKING_MODES = ['standard', 'groupSession'] as const;
export type BookingMode = (typeof BOOKING_MODES)[number];

export interface Money {
  /** major units */
  amount: number;
  currency: string;
}

/** `fixed` and `from` quote a price; `negotiable` must not. */
export function satisfiesPriceRule(priceType: PriceType, priceMinor: number | null): boolean {
  return priceType === 'negotiable' ? priceMinor === null : priceMinor !== null;
}

export function checkPriceRule(priceType: PriceType, priceMinor: number | null, path: string): void {
  if (satisfiesPriceRule(priceType, priceMinor)) return;
  throw invalidField(path, priceType === 'negotiable' ? 'must be null for a negotiable price' : `is required for priceType ${priceType}`);
}

/** Money in the business currency, to minor units; other currencies are never converted. */
export function moneyToMinor(money: Money, businessCurrency: string, path: string): number {
  if (money.currency !== businessCurrency) {
    throw invalidField(`${path}.currency`, `must be the business currency ${businessCurrency}`);
  }
  const minor = toMinor(money.amount, businessCurrency);
  if (minor === undefined) throw invalidField(`${path}.amount`, `has more decimals than ${businessCurrency} allows`);
  return minor;
}

export interface DepositInput {
  required: boolean;
  termsVersion?: string;
  amount?: Money;
}

export interface DepositRule {
  required: boolean;
  termsVersion: string | null;
  amountMinor: number | null;
}

export const NO_DEPOSIT: DepositRule = { required: false, termsVersion: null, amountMinor: null };

/**
 * A required deposit needs terms the guest accepts at booking. Terms or an amount on a deposit
 * that is not required would be silently meaningless, so they are refused.
 */
export function resolveDeposit(input: DepositInput, businessCurrency: string, path: string): DepositRule {
  if (!input.required) {
    if (input.termsVersion !== undefined) throw invalidField(`${path}.termsVersion`, 'is only allowed when required is true');
    if (input.amount !== undefined) throw invalidField(`${path}.amount`, 'is only allowed when required is true');
    return NO_DEPOSIT;
  }
  if (input.termsVersion === undefined) throw invalidField(`${path}.termsVersion`, 'is required when required is true');
  const amountMinor = input.amount === undefined ? null : moneyToMinor(input.amount, businessCurrency, `${path}.amount`);
  if (amountMinor !== null && amountMinor <= 0) throw invalidField(`${path}.amount.amount`, 'must be greater than 0');
  return { required: true, termsVersion: input.termsVersion, amountMinor };
}
