// The monthly booking count moves out of the subscription row. One counter row per business made
// every create of a business wait for the previous one to commit (the row lock of its UPDATE):
// at 50 concurrent creates the lock wait was most of each request's time. Unlimited plans now count
// on a shard picked by the connection (two transactions on one connection never overlap), and the
// month's count is the sum of its shards; limited plans still serialise, on the subscription row.
// A release with this migration stops old instances first: they would count in the dropped columns.
export default /* sql */ `
CREATE TABLE booking_quota_counts (
  business_id text NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
  -- the calendar month in UTC
  window_start date NOT NULL,
  shard smallint NOT NULL CHECK (shard >= 0),
  bookings integer NOT NULL CHECK (bookings >= 0),
  PRIMARY KEY (business_id, window_start, shard)
);

INSERT INTO booking_quota_counts (business_id, window_start, shard, bookings)
  SELECT business_id, quota_window_start, 0, bookings_in_window FROM subscriptions WHERE bookings_in_window > 0;

ALTER TABLE subscriptions DROP COLUMN quota_window_start, DROP COLUMN bookings_in_window;

-- Counts one booking of the business, or raises SQLSTATE BKQ01 when its monthly quota is used up
-- (the store maps it to subscription.quota_exceeded; the whole statement is undone). A function,
-- so that a booking's single write statement can count it: in READ COMMITTED each query of a
-- volatile function takes a fresh snapshot, so the sum below, taken after the row lock, sees every
-- create that held the lock before. At quota - 1 exactly one of two concurrent creates wins.
CREATE FUNCTION take_booking_quota(p_business_id text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  month date := date_trunc('month', now() AT TIME ZONE 'UTC')::date;
  lim integer;
BEGIN
  SELECT max_bookings_per_month INTO lim FROM subscriptions WHERE business_id = p_business_id;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'the business has no subscription' USING ERRCODE = 'BKQ01';
  END IF;
  IF lim IS NULL THEN
    INSERT INTO booking_quota_counts AS c (business_id, window_start, shard, bookings)
    VALUES (p_business_id, month, pg_backend_pid() % 64, 1)
    ON CONFLICT (business_id, window_start, shard) DO UPDATE SET bookings = c.bookings + 1;
    RETURN true;
  END IF;
  SELECT max_bookings_per_month INTO lim FROM subscriptions WHERE business_id = p_business_id FOR NO KEY UPDATE;
  IF lim IS NOT NULL AND (SELECT coalesce(sum(n.bookings), 0) FROM booking_quota_counts n
                           WHERE n.business_id = p_business_id AND n.window_start = month) >= lim THEN
    RAISE EXCEPTION 'monthly booking quota used up' USING ERRCODE = 'BKQ01';
  END IF;
  INSERT INTO booking_quota_counts AS c (business_id, window_start, shard, bookings)
  VALUES (p_business_id, month, 0, 1)
  ON CONFLICT (business_id, window_start, shard) DO UPDATE SET bookings = c.bookings + 1;
  RETURN true;
END $$;
`;
