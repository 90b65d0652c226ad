import type { BookingStatus } from '../domain/bookings/states.ts';
import type { BookingDeposit, DepositStatus, RecordedDepositStatus } from '../domain/deposits/status.ts';
import type { Queryable } from './db.ts';

interface DepositRow {
  deposit_status: DepositStatus | null;
  deposit_amount_minor: string | number | null;
  deposit_currency: string | null;
  deposit_due_at: Date | null;
  deposit_recorded_at: Date | null;
}

function toDeposit(r: DepositRow): BookingDeposit | null {
  if (r.deposit_status === null) return null;
  return {
    status: r.deposit_status,
    amountMinor: r.deposit_amount_minor === null ? null : Number(r.deposit_amount_minor),
    currency: r.deposit_currency!,
    dueAt: r.deposit_due_at!,
    recordedAt: r.deposit_recorded_at,
  };
}

const DEPOSIT_COLUMNS = 'b.deposit_status, b.deposit_amount_minor, b.deposit_currency, b.deposit_due_at, b.deposit_recorded_at';

/** The booking's deposit, its row locked for the recording; undefined when there is no such booking. */
export async function lockBookingDeposit(q: Queryable, bookingId: string): Promise<{ deposit: BookingDeposit | null } | undefined> {
  const r = await q.query<DepositRow>(`SELECT ${DEPOSIT_COLUMNS} FROM bookings b WHERE b.id = $1 FOR UPDATE`, [bookingId]);
  const row = r.rows[0];
  return row ? { deposit: toDeposit(row) } : undefined;
}

export async function setDepositStatus(q: Queryable, bookingId: string, status: RecordedDepositStatus, at: Date): Promise<void> {
  await q.query(`UPDATE bookings SET deposit_status = $2, deposit_recorded_at = $3 WHERE id = $1 AND deposit_status IS NOT NULL`, [
    bookingId,
    status,
    at,
  ]);
}

/** What the guest's payment page shows: nothing about the guest, no more about the booking than its state. */
export interface PaymentPageRow {
  deposit: BookingDeposit | null;
  bookingStatus: BookingStatus;
  timezone: string;
  salonName: string;
  paymentInstructions: string | null;
}

export async function findPaymentPage(q: Queryable, bookingId: string): Promise<PaymentPageRow | undefined> {
  const r = await q.query<
    DepositRow & { status: BookingStatus; timezone: string; public_location_name: string; payment_instructions: string | null }
  >(
    `SELECT ${DEPOSIT_COLUMNS}, b.status, b.timezone, l.public_location_name, l.payment_instructions
       FROM bookings b JOIN locations l ON l.id = b.location_id WHERE b.id = $1`,
    [bookingId],
  );
  const row = r.rows[0];
  if (!row) return undefined;
  return {
    deposit: toDeposit(row),
    bookingStatus: row.status,
    timezone: row.timezone,
    salonName: row.public_location_name,
    paymentInstructions: row.payment_instructions,
  };
}

/** The booking's deposit as it stands (the guest's manage page shows its state). */
export async function findBookingDeposit(q: Queryable, bookingId: string): Promise<BookingDeposit | null> {
  const r = await q.query<DepositRow>(`SELECT ${DEPOSIT_COLUMNS} FROM bookings b WHERE b.id = $1`, [bookingId]);
  const row = r.rows[0];
  return row ? toDeposit(row) : null;
}
