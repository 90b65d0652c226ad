// Bookings with their immutable event log, the webhook outbox that reports each event, and the
// idempotency records of public writes.
export default /* sql */ `
CREATE TABLE bookings (
  id text PRIMARY KEY,
  business_id text NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
  location_id text NOT NULL REFERENCES locations(id),
  service_id text NOT NULL REFERENCES services(id),
  staff_id text REFERENCES staff(id),
  session_id text REFERENCES group_sessions(id),
  public_reference text NOT NULL UNIQUE,
  status text NOT NULL CHECK (status IN ('requested', 'confirmed', 'declined', 'rescheduleProposed', 'cancelled', 'completed', 'noShow')),
  state_version integer NOT NULL CHECK (state_version >= 1),
  acceptance_mode text NOT NULL CHECK (acceptance_mode IN ('manual', 'automatic')),
  service_name text NOT NULL,
  staff_name text,
  location_snapshot jsonb NOT NULL,
  timezone text NOT NULL,
  requested_date date,
  requested_start_time text,
  -- the appointment as it stands (the proposed time while rescheduleProposed is kept apart)
  start_at timestamptz NOT NULL,
  end_at timestamptz NOT NULL,
  slot_date date NOT NULL,
  slot_start_time text NOT NULL,
  slot_end_time text NOT NULL,
  proposed_staff_id text REFERENCES staff(id),
  proposed_start_at timestamptz,
  proposed_end_at timestamptz,
  proposed_date date,
  proposed_start_time text,
  proposed_end_time text,
  -- the time this booking holds, buffers included: the proposed time while rescheduleProposed
  occupied tstzrange NOT NULL,
  occupied_staff_id text REFERENCES staff(id),
  guest_name text NOT NULL,
  guest_phone text NOT NULL,
  guest_email text,
  note text,
  service_location jsonb,
  consent jsonb,
  deposit_terms jsonb,
  api_source_key_id text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  -- the invariant the product promises: no two occupying bookings of one staff member overlap
  CONSTRAINT bookings_no_overlap EXCLUDE USING gist (occupied_staff_id WITH =, occupied WITH &&)
    WHERE (status IN ('requested', 'confirmed', 'rescheduleProposed') AND session_id IS NULL)
);
CREATE INDEX bookings_business_created_idx ON bookings (business_id, created_at DESC, id DESC);
CREATE INDEX bookings_staff_occupied_idx ON bookings USING gist (occupied_staff_id, occupied)
  WHERE status IN ('requested', 'confirmed', 'rescheduleProposed');
CREATE INDEX bookings_session_idx ON bookings (session_id) WHERE session_id IS NOT NULL;

CREATE TABLE booking_events (
  booking_id text NOT NULL REFERENCES bookings(id) ON DELETE CASCADE,
  sequence integer NOT NULL CHECK (sequence >= 1),
  business_id text NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
  event text NOT NULL,
  transition_id text,
  from_status text,
  to_status text NOT NULL,
  occurred_at timestamptz NOT NULL,
  delivery_id text NOT NULL UNIQUE,
  -- the exact bytes sent as the webhook body, kept so every attempt and every read is identical
  payload text NOT NULL,
  PRIMARY KEY (booking_id, sequence)
);

CREATE TABLE webhook_configs (
  business_id text PRIMARY KEY REFERENCES businesses(id) ON DELETE CASCADE,
  url text NOT NULL,
  -- AES-256-GCM under a key derived from the server secret; never returned after creation
  secret_ciphertext text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- One row per business event: the delivery record of the log and the worker's queue at once.
CREATE TABLE webhook_deliveries (
  delivery_id text PRIMARY KEY,
  business_id text NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
  booking_id text NOT NULL,
  sequence integer NOT NULL,
  event text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'processing', 'retry_scheduled', 'succeeded', 'failed', 'exhausted')),
  attempt_count integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  last_attempt_at timestamptz,
  outcome text CHECK (outcome IN ('success', 'timeout', 'network_error', 'http_error')),
  status_code integer,
  -- a worker's claim; a crashed worker's claim lapses and the attempt is made again
  locked_until timestamptz,
  created_at timestamptz NOT NULL,
  FOREIGN KEY (booking_id, sequence) REFERENCES booking_events (booking_id, sequence) ON DELETE CASCADE
);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at)
  WHERE status IN ('pending', 'retry_scheduled', 'processing');
CREATE INDEX webhook_deliveries_log_idx ON webhook_deliveries (business_id, created_at DESC, delivery_id DESC);

CREATE TABLE webhook_attempts (
  delivery_id text NOT NULL REFERENCES webhook_deliveries(delivery_id) ON DELETE CASCADE,
  attempt integer NOT NULL CHECK (attempt BETWEEN 1 AND 3),
  started_at timestamptz NOT NULL,
  duration_ms integer NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('success', 'timeout', 'network_error', 'http_error')),
  status_code integer,
  error text,
  PRIMARY KEY (delivery_id, attempt)
);

CREATE TABLE idempotency_records (
  business_id text NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
  idempotency_key text NOT NULL,
  operation text NOT NULL,
  fingerprint text NOT NULL,
  state text NOT NULL CHECK (state IN ('processing', 'completed')),
  -- the claim's lease: a request that crashed mid-way stops blocking its key when it lapses
  locked_until timestamptz,
  response_status integer,
  response_body text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (business_id, idempotency_key)
);
CREATE INDEX idempotency_records_created_idx ON idempotency_records (created_at);
`;
