// Guest messages, self-service and their foundations (guest-side.md "Notifications", "Self-service").
//
// - booking_events.actor: who made the change ("guest" on the manage page, "member" in the
//   dashboard, "operator" with the platform token, "api" with a key); null on rows written before.
// - locations.phone: shown on the manage page when the guest can no longer cancel there.
// - manage_tokens: the manage link's token is never stored. A token is the HMAC of its row's random
//   nonce (128 bits) under the server secret: the lookup goes by the token's SHA-256 hash, and a
//   worker sending a message hours later can write the link again from the nonce. Issuing a new
//   one ends the old (one live row per booking).
// - messages: one row per message to one recipient on one channel, planned by the worker from the
//   booking event that caused it (the event row, written with the change, is the outbox row); the
//   unique key makes a message at most one row however often its planning runs. A resend is a
//   new row naming the one it repeats.
export default /* sql */ `
ALTER TABLE booking_events ADD COLUMN actor text CHECK (actor IN ('guest', 'member', 'operator', 'api'));
ALTER TABLE locations ADD COLUMN phone text;

CREATE TABLE manage_tokens (
  id text PRIMARY KEY,
  business_id text NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
  booking_id text NOT NULL REFERENCES bookings(id) ON DELETE CASCADE,
  nonce text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  ended_at timestamptz
);
CREATE UNIQUE INDEX manage_tokens_live_idx ON manage_tokens (booking_id) WHERE ended_at IS NULL;

CREATE TABLE messages (
  id text PRIMARY KEY,
  business_id text NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
  booking_id text REFERENCES bookings(id) ON DELETE CASCADE,
  -- a waitlist offer's entry (the waitlist's migration adds the reference)
  waitlist_entry_id text,
  kind text NOT NULL CHECK (kind IN ('booking.received', 'booking.confirmed', 'booking.declined', 'booking.cancelled',
    'booking.rescheduled', 'booking.reschedule_proposed', 'booking.reminder', 'waitlist.offer',
    'business.new_request', 'business.guest_cancelled')),
  channel text NOT NULL CHECK (channel IN ('email', 'sms')),
  audience text NOT NULL CHECK (audience IN ('guest', 'business')),
  -- the address or number in full: never logged, masked in every read
  recipient text NOT NULL,
  -- the member a business message goes to
  recipient_member_id text,
  lang text NOT NULL,
  -- the booking's state version the message describes (its event's sequence)
  state_version integer,
  reminder_minutes integer,
  -- (booking, kind, state version or reminder, channel, recipient): planned at most once
  unique_key text NOT NULL UNIQUE,
  resend_of text REFERENCES messages(id) ON DELETE SET NULL,
  -- what a message not about one booking state needs to be written (a waitlist offer's time, its link nonces)
  data jsonb NOT NULL DEFAULT '{}',
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed', 'skipped')),
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  scheduled_at timestamptz NOT NULL,
  sent_at timestamptz,
  job_id text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX messages_business_idx ON messages (business_id, scheduled_at DESC, id DESC);
CREATE INDEX messages_booking_idx ON messages (booking_id, scheduled_at);
`;
