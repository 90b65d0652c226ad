// Deposits as the business records them (business-side.md "Bookings as the business sees them").
// A deposit booking (one created for a service that takes a deposit, so with accepted terms) keeps
// what it owes as it was at booking: the amount (null when the service names none) in the
// business's currency, and when it is due (the appointment's start). The business records that it
// received it (paid) or let it go (waived). Existing deposit bookings start pending.
// The payment page shows a location's free-text payment instructions.
export default /* sql */ `
ALTER TABLE bookings ADD COLUMN deposit_status text CHECK (deposit_status IN ('pending', 'paid', 'waived'));
ALTER TABLE bookings ADD COLUMN deposit_amount_minor bigint;
ALTER TABLE bookings ADD COLUMN deposit_currency text;
ALTER TABLE bookings ADD COLUMN deposit_due_at timestamptz;
ALTER TABLE bookings ADD COLUMN deposit_recorded_at timestamptz;
UPDATE bookings b
   SET deposit_status = 'pending', deposit_amount_minor = s.deposit_amount_minor, deposit_currency = z.currency,
       deposit_due_at = b.start_at
  FROM services s, businesses z
 WHERE b.deposit_terms IS NOT NULL AND s.id = b.service_id AND z.id = b.business_id;

ALTER TABLE locations ADD COLUMN payment_instructions text;
`;
