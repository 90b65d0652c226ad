// Calendar feeds (guest-side.md "Calendar feeds"): a secret subscription URL of one staff member's
// or one location's appointments. Only the token's SHA-256 is stored, as for sessions and password
// resets, so a database dump subscribes nobody. Issuing a new feed ends the live one of the same
// staff member or location (`ended_at`); the partial unique indexes keep at most one live feed
// each, whatever code writes. Ended rows stay: they tell when a link stopped working.
export default /* sql */ `
CREATE TABLE calendar_feeds (
  id text PRIMARY KEY,
  business_id text NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
  staff_id text REFERENCES staff(id) ON DELETE CASCADE,
  location_id text REFERENCES locations(id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  ended_at timestamptz,
  CONSTRAINT calendar_feeds_one_subject CHECK ((staff_id IS NULL) <> (location_id IS NULL))
);
CREATE UNIQUE INDEX calendar_feeds_live_staff_idx ON calendar_feeds (staff_id) WHERE ended_at IS NULL AND staff_id IS NOT NULL;
CREATE UNIQUE INDEX calendar_feeds_live_location_idx ON calendar_feeds (location_id) WHERE ended_at IS NULL AND location_id IS NOT NULL;

-- Every subscribed calendar asks every few minutes, so a feed's read must not scan all bookings:
-- one staff member's, one location's, and the open proposals that hold a staff member's time
-- (the agenda's read of a location's day uses the second too).
CREATE INDEX bookings_staff_start_idx ON bookings (staff_id, start_at);
CREATE INDEX bookings_location_start_idx ON bookings (location_id, start_at);
CREATE INDEX bookings_proposed_staff_idx ON bookings (proposed_staff_id) WHERE status = 'rescheduleProposed';
`;
