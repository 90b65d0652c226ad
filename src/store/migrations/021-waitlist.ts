// The waitlist (guest-side.md "Waitlist", docs/waitlist.md).
//
// - waitlist_entries: a guest waiting for a time of one service at one location (one staff member,
//   or any when staff_id is null), between two local dates and two local times. created_at is the
//   join order: a freed time goes to the oldest matching entry first. The withdraw link is the
//   HMAC of withdraw_nonce (src/domain/guest-links.ts); only its hash is looked up.
// - waitlist_offers: one freed time held for one entry for offerMinutes. `cause` names what freed
//   it (a booking event, a removed time off, an earlier offer that passed): one cause makes at most
//   one offer, so a job run again after a crash offers nothing twice.
export default /* sql */ `
CREATE TABLE waitlist_entries (
  id text PRIMARY KEY,
  business_id text NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
  location_id text NOT NULL REFERENCES locations(id) ON DELETE CASCADE,
  service_id text NOT NULL REFERENCES services(id) ON DELETE CASCADE,
  staff_id text REFERENCES staff(id) ON DELETE CASCADE,
  -- the guest's contact in full: never logged
  name text NOT NULL,
  phone text NOT NULL,
  email text NOT NULL,
  lang text NOT NULL,
  from_date date NOT NULL,
  to_date date NOT NULL,
  earliest_time text NOT NULL,
  latest_time text NOT NULL,
  status text NOT NULL DEFAULT 'waiting' CHECK (status IN ('waiting', 'offered', 'booked', 'withdrawn', 'expired')),
  withdraw_nonce text NOT NULL,
  withdraw_token_hash text NOT NULL UNIQUE,
  booking_id text REFERENCES bookings(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (to_date >= from_date),
  CHECK (latest_time >= earliest_time)
);
CREATE INDEX waitlist_entries_match_idx ON waitlist_entries (location_id, service_id, created_at, id) WHERE status = 'waiting';
CREATE INDEX waitlist_entries_business_idx ON waitlist_entries (business_id, created_at DESC, id DESC);

CREATE TABLE waitlist_offers (
  id text PRIMARY KEY,
  business_id text NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
  entry_id text NOT NULL REFERENCES waitlist_entries(id) ON DELETE CASCADE,
  -- the hold keeps the time (holds are purged a day after they end; the offer keeps its own copy)
  hold_id text NOT NULL,
  staff_id text NOT NULL,
  slot_date date NOT NULL,
  slot_start_time text NOT NULL,
  cause text NOT NULL UNIQUE,
  claim_nonce text NOT NULL,
  claim_token_hash text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'claimed', 'passed', 'cancelled')),
  booking_id text REFERENCES bookings(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX waitlist_offers_open_idx ON waitlist_offers (entry_id) WHERE status = 'open';

ALTER TABLE messages ADD CONSTRAINT messages_waitlist_entry_fk
  FOREIGN KEY (waitlist_entry_id) REFERENCES waitlist_entries(id) ON DELETE CASCADE;
`;
