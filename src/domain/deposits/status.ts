import type { ServiceRecord } from '../catalog-records.ts';
import { AppError } from '../errors.ts';
import { toMajor } from '../money.ts';
import { effectiveDepositMinor } from './amount.ts';

/**
 * A booking's deposit as the business records it (business-side.md; decisions.md "Deposits"). A
 * deposit booking is one created for a service that takes a deposit: it owes the service's deposit
 * amount as it was then (its full price when it names none: amount.ts), in the business currency, due at the
 * appointment's start. It starts `pending`; the business records `paid` (it received the money) or
 * `waived` (it lets it go). Each is final: recording the same status again changes nothing, the
 * other one is refused, so a receipt is never silently turned into a waiver or back.
 */
export const DEPOSIT_STATUSES = ['pending', 'paid', 'waived'] as const;
export type DepositStatus = (typeof DEPOSIT_STATUSES)[number];
export type RecordedDepositStatus = Exclude<DepositStatus, 'pending'>;

export interface BookingDeposit {
  status: DepositStatus;
  amountMinor: number | null;
  currency: string;
  dueAt: Date;
  /** when paid or waived was recorded; null while pending */
  recordedAt: Date | null;
}

export interface DepositView {
  status: DepositStatus;
  /** major units, as prices are shown; null only on a deposit recorded before migration 015 whose amount was never known */
  amount: number | null;
  currency: string;
  dueAt: string;
  recordedAt: string | null;
}

/** What a new booking of `service` owes, or null when the service takes no deposit. */
export function newBookingDeposit(service: ServiceRecord, startAt: Date): Omit<BookingDeposit, 'status' | 'recordedAt'> | null {
  if (!service.depositRequired) return null;
  return { amountMinor: effectiveDepositMinor(service), currency: service.currency, dueAt: startAt };
}

export function toDepositView(d: BookingDeposit): DepositView {
  return {
    status: d.status,
    amount: d.amountMinor === null ? null : toMajor(d.amountMinor, d.currency),
    currency: d.currency,
    dueAt: d.dueAt.toISOString(),
    recordedAt: d.recordedAt === null ? null : d.recordedAt.toISOString(),
  };
}

/**
 * Whether recording `wanted` writes anything: `record` from pending, `unchanged` when it is already
 * the status; a booking without a deposit, or one already recorded otherwise, is
 * 409 booking.invalid_transition.
 */
export function planDepositRecord(current: BookingDeposit | null, wanted: RecordedDepositStatus): 'record' | 'unchanged' {
  if (current === null) {
    throw new AppError('booking.invalid_transition', 'This booking takes no deposit; there is nothing to record.', {
      depositStatus: null,
    });
  }
  if (current.status === 'pending') return 'record';
  if (current.status === wanted) return 'unchanged';
  throw new AppError('booking.invalid_transition', `The deposit is already recorded as ${current.status}; it cannot become ${wanted}.`, {
    depositStatus: current.status,
  });
}
