import type { BusinessBookingView } from '../../domain/bookings/business-view.ts';
import { verifyPaymentLink } from '../../domain/deposits/provider.ts';
import { planDepositRecord, type RecordedDepositStatus } from '../../domain/deposits/status.ts';
import { AppError } from '../../domain/errors.ts';
import type { Db } from '../../store/db.ts';
import { findBooking } from '../../store/bookings.ts';
import { findPaymentPage, lockBookingDeposit, setDepositStatus, type PaymentPageRow } from '../../store/deposits.ts';
import { transactionWithRetry } from '../../store/tx-retry.ts';
import { businessView } from './business-view.ts';

/**
 * POST /admin/v1/bookings/:bookingId/deposit: the business received the deposit (paid) or lets it
 * go (waived). The rules are planDepositRecord's; the booking's status and events do not change
 * (no webhook: integrators never see deposits' receipt). Answers the booking as the business sees it.
 */
export async function recordDeposit(db: Db, bookingId: string, status: RecordedDepositStatus, now: Date): Promise<BusinessBookingView> {
  return transactionWithRetry(db, async (tx) => {
    const locked = await lockBookingDeposit(tx, bookingId);
    if (!locked) throw new AppError('booking.not_found');
    if (planDepositRecord(locked.deposit, status) === 'record') await setDepositStatus(tx, bookingId, status, now);
    const booking = await findBooking(tx, null, bookingId);
    if (!booking) throw new AppError('booking.not_found');
    return businessView(tx, booking);
  });
}

/**
 * What the guest's payment page shows, when the link is one this server signed for that booking
 * and the booking takes a deposit; undefined otherwise (the page answers 404 alike, so a guessed or
 * altered link learns nothing).
 */
export async function paymentPage(db: Db, secret: Buffer, bookingId: string, token: string): Promise<PaymentPageRow | undefined> {
  if (!verifyPaymentLink(secret, bookingId, token)) return undefined;
  const page = await findPaymentPage(db, bookingId);
  return page?.deposit ? page : undefined;
}
