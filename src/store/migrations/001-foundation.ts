// Businesses, their subscription, people and keys, and the catalogue that availability reads.
export default /* sql */ `
CREATE EXTENSION IF NOT EXISTS btree_gist;

CREATE TABLE server_settings (
  key text PRIMARY KEY,
  value text NOT NULL
);

CREATE TABLE businesses (
  id text PRIMARY KEY,
  slug text NOT NULL UNIQUE,
  name text NOT NULL,
  currency text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE subscriptions (
  business_id text PRIMARY KEY REFERENCES businesses(id) ON DELETE CASCADE,
  plan text CHECK (plan IN ('starter', 'pro', 'business')),
  status text NOT NULL CHECK (status IN ('setup', 'active', 'trialing', 'past_due', 'canceled', 'unpaid', 'paused')),
  cancel_at_period_end boolean NOT NULL DEFAULT false,
  current_period_end timestamptz,
  max_bookings_per_month integer CHECK (max_bookings_per_month >= 0),
  max_active_services integer CHECK (max_active_services >= 0),
  max_staff_members integer CHECK (max_staff_members >= 0),
  max_locations integer CHECK (max_locations >= 0),
  -- operator overrides of the plan's default feature flags
  feature_overrides jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- the monthly quota counter; the window is the calendar month in UTC
  quota_window_start date NOT NULL DEFAULT date_trunc('month', now() AT TIME ZONE 'UTC')::date,
  bookings_in_window integer NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((status = 'setup') = (plan IS NULL))
);

CREATE TABLE users (
  id text PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE memberships (
  business_id text NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (business_id, user_id)
);

CREATE TABLE locations (
  id text PRIMARY KEY,
  business_id text NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
  slug text NOT NULL,
  name text NOT NULL,
  public_location_name text NOT NULL,
  timezone text NOT NULL,
  city text NOT NULL,
  street text NOT NULL,
  zip text NOT NULL,
  booking_enabled boolean NOT NULL DEFAULT true,
  slot_interval_minutes integer NOT NULL DEFAULT 15 CHECK (slot_interval_minutes BETWEEN 1 AND 1440),
  min_notice_minutes integer NOT NULL DEFAULT 60 CHECK (min_notice_minutes >= 0),
  horizon_days integer NOT NULL DEFAULT 90 CHECK (horizon_days BETWEEN 1 AND 3660),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (business_id, slug)
);

CREATE TABLE services (
  id text PRIMARY KEY,
  business_id text NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
  location_id text NOT NULL REFERENCES locations(id) ON DELETE CASCADE,
  name text NOT NULL,
  description text,
  duration_minutes integer NOT NULL CHECK (duration_minutes >= 1),
  price_type text NOT NULL CHECK (price_type IN ('fixed', 'from', 'negotiable')),
  -- minor units of the business currency; the listing excludes rows breaking the price rule
  price_minor bigint,
  request_acceptance_policy text NOT NULL CHECK (request_acceptance_policy IN ('manual', 'automatic')),
  online_bookable boolean NOT NULL DEFAULT true,
  active boolean NOT NULL DEFAULT true,
  on_site boolean NOT NULL DEFAULT false,
  booking_mode text NOT NULL DEFAULT 'standard' CHECK (booking_mode IN ('standard', 'groupSession')),
  buffer_before_minutes integer NOT NULL DEFAULT 0 CHECK (buffer_before_minutes >= 0),
  buffer_after_minutes integer NOT NULL DEFAULT 0 CHECK (buffer_after_minutes >= 0),
  deposit_required boolean NOT NULL DEFAULT false,
  deposit_terms_version text,
  deposit_amount_minor bigint,
  pricing_version text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX services_location_idx ON services (location_id);

CREATE TABLE staff (
  id text PRIMARY KEY,
  business_id text NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
  location_id text NOT NULL REFERENCES locations(id) ON DELETE CASCADE,
  name text NOT NULL,
  bio text,
  avatar_url text,
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX staff_location_idx ON staff (location_id);

CREATE TABLE staff_services (
  staff_id text NOT NULL REFERENCES staff(id) ON DELETE CASCADE,
  service_id text NOT NULL REFERENCES services(id) ON DELETE CASCADE,
  PRIMARY KEY (staff_id, service_id)
);
CREATE INDEX staff_services_service_idx ON staff_services (service_id);

-- Wall-clock working intervals; two intervals on one weekday leave a break between them.
CREATE TABLE working_hours (
  staff_id text NOT NULL REFERENCES staff(id) ON DELETE CASCADE,
  weekday smallint NOT NULL CHECK (weekday BETWEEN 1 AND 7),
  start_minute smallint NOT NULL CHECK (start_minute BETWEEN 0 AND 1439),
  end_minute smallint NOT NULL CHECK (end_minute BETWEEN 1 AND 1440),
  CHECK (start_minute < end_minute),
  PRIMARY KEY (staff_id, weekday, start_minute)
);

CREATE TABLE time_off (
  id text PRIMARY KEY,
  staff_id text NOT NULL REFERENCES staff(id) ON DELETE CASCADE,
  start_at timestamptz NOT NULL,
  end_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (start_at < end_at)
);
CREATE INDEX time_off_staff_idx ON time_off (staff_id, start_at);

CREATE TABLE group_sessions (
  id text PRIMARY KEY,
  business_id text NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
  service_id text NOT NULL REFERENCES services(id) ON DELETE CASCADE,
  staff_id text NOT NULL REFERENCES staff(id) ON DELETE CASCADE,
  start_at timestamptz NOT NULL,
  end_at timestamptz NOT NULL,
  capacity_max integer NOT NULL CHECK (capacity_max >= 1),
  -- seats are taken by a conditional UPDATE, so this check is the last line of defence
  seats_taken integer NOT NULL DEFAULT 0 CHECK (seats_taken >= 0 AND seats_taken <= capacity_max),
  price_minor bigint,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (start_at < end_at)
);
CREATE INDEX group_sessions_service_idx ON group_sessions (service_id, start_at);

CREATE TABLE api_keys (
  id text PRIMARY KEY,
  business_id text NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
  name text NOT NULL,
  type text NOT NULL CHECK (type IN ('personal', 'integration')),
  kind text NOT NULL CHECK (kind IN ('owner', 'guest_partner')),
  capabilities text[] NOT NULL,
  tier text NOT NULL DEFAULT 'standard' CHECK (tier IN ('standard', 'elevated')),
  -- the first characters of the secret, to recognise a key in lists and logs
  prefix text NOT NULL,
  -- SHA-256 of the whole secret, hex; the secret itself is never stored
  secret_hash text NOT NULL UNIQUE,
  user_id text REFERENCES users(id),
  expires_at timestamptz,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((type = 'personal') = (user_id IS NOT NULL))
);
CREATE INDEX api_keys_user_idx ON api_keys (business_id, user_id) WHERE user_id IS NOT NULL;
`;
