// A booking keeps the price it was made at (salon-scheduling.md, "Stylist variants"); reports sum it
// (clients-and-reports.md, "Reports": price at booking time, a negotiable price counting 0). The
// columns mirror the service's price: price_type, price_minor in minor units, and price_currency,
// the business currency then, so a later change of either leaves the booking as it was made.
// Bookings made before this migration never recorded their price, so the backfill gives each its
// service's price as it is now (type and amount) in its business's currency now; a group-session
// seat takes its session's seat price when the session has one, as a new seat booking does
// (src/domain/bookings/price.ts). The best known value, not necessarily the price then.
// The columns stay nullable: a server from before this migration, still running during a rolling
// deploy, writes bookings without them; the operator reads show such a price as null.
// The update comes after the ALTER and touches no column a bookings trigger watches, so it queues
// no deferred trigger event that would block a later ALTER TABLE in the same transaction.
export default /* sql */ `
ALTER TABLE bookings
  ADD COLUMN price_type text CHECK (price_type IN ('fixed', 'from', 'negotiable')),
  ADD COLUMN price_minor bigint,
  ADD COLUMN price_currency text,
  ADD CONSTRAINT bookings_price_whole
    CHECK ((price_type IS NULL) = (price_currency IS NULL) AND (price_type IS NOT NULL OR price_minor IS NULL));

UPDATE bookings b
   SET price_type = p.price_type, price_minor = p.price_minor, price_currency = p.currency
  FROM (SELECT k.id, CASE WHEN g.price_minor IS NULL THEN s.price_type ELSE 'fixed' END AS price_type,
               coalesce(g.price_minor, s.price_minor) AS price_minor, z.currency
          FROM bookings k
          JOIN services s ON s.id = k.service_id
          JOIN businesses z ON z.id = k.business_id
          LEFT JOIN group_sessions g ON g.id = k.session_id
         WHERE k.price_type IS NULL) p
 WHERE b.id = p.id;
`;
