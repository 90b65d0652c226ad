// A deposit always has an amount (guest-side.md; decisions.md "A deposit always has an amount"): the
// service's deposit amount, else its full price (a fixed or from price above 0). Rows from before
// the rule are mended in this order:
// 1. a deposit booking without an amount gets its service's (the amount, else the usable price);
// 2. a pending deposit still without one (its service names neither) stops owing a deposit: nothing
//    can be paid of an unknown sum, and the service stops taking deposits below. The terms the guest
//    accepted stay in deposit_terms. A deposit already recorded paid or waived keeps its record, its
//    amount unknown (the one case the booking view shows amount null);
// 3. a service that requires a deposit and has neither stops requiring one (its terms go with it,
//    as the API never keeps terms on a service without a deposit). A service with a usable price is
//    left as it is: its deposit follows the price, as a new one's does.
// The checks keep it so whatever code writes.
export default /* sql */ `
UPDATE bookings b
   SET deposit_amount_minor = coalesce(s.deposit_amount_minor,
         CASE WHEN s.price_type <> 'negotiable' AND s.price_minor > 0 THEN s.price_minor END)
  FROM services s
 WHERE b.deposit_status IS NOT NULL AND b.deposit_amount_minor IS NULL AND s.id = b.service_id;

UPDATE bookings
   SET deposit_status = NULL, deposit_amount_minor = NULL, deposit_currency = NULL, deposit_due_at = NULL
 WHERE deposit_status = 'pending' AND deposit_amount_minor IS NULL;

UPDATE services
   SET deposit_required = false, deposit_terms_version = NULL, deposit_amount_minor = NULL
 WHERE deposit_required AND deposit_amount_minor IS NULL
   AND NOT (price_type <> 'negotiable' AND coalesce(price_minor, 0) > 0);

-- The version triggers the updates queued fire now: a table with pending trigger events cannot be
-- altered. Every deferrable constraint is a deferred version trigger, so DEFERRED restores them all.
SET CONSTRAINTS ALL IMMEDIATE;
ALTER TABLE services ADD CONSTRAINT services_deposit_has_amount
  CHECK (NOT deposit_required OR coalesce(deposit_amount_minor, 0) > 0 OR (price_type <> 'negotiable' AND coalesce(price_minor, 0) > 0));
ALTER TABLE bookings ADD CONSTRAINT bookings_pending_deposit_has_amount
  CHECK (deposit_status IS DISTINCT FROM 'pending' OR coalesce(deposit_amount_minor, 0) > 0);
SET CONSTRAINTS ALL DEFERRED;
`;
