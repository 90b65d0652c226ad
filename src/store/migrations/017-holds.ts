// Holds (guest-side.md "Holds"): a time of one staff member kept for one service while a guest
// types. The database enforces them as it does bookings: one exclusion constraint among live holds,
// and, since bookings, group sessions and holds live in three tables, triggers that check across
// under the per-staff advisory lock every booking and session write already takes (migration 003),
// raising exclusion_violation so every caller maps a clash to the same 409.
//
// A hold is live while status = 'active' and expires_at > now(): the database's clock decides, so
// every instance agrees. An active row past its time is marked 'expired' by the next hold that
// needs its time (insertHold), never by a timer; until then the booking triggers ignore it.
// Rows are kept after they end (released, used, expired) so a late create answers
// booking.hold_expired instead of booking.hold_not_found.
export default /* sql */ `
CREATE TABLE holds (
  id text PRIMARY KEY,
  business_id text NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
  location_id text NOT NULL REFERENCES locations(id) ON DELETE CASCADE,
  service_id text NOT NULL REFERENCES services(id) ON DELETE CASCADE,
  staff_id text NOT NULL REFERENCES staff(id) ON DELETE CASCADE,
  staff_name text NOT NULL,
  slot_date date NOT NULL,
  slot_start_time text NOT NULL,
  slot_end_time text NOT NULL,
  timezone text NOT NULL,
  start_at timestamptz NOT NULL,
  end_at timestamptz NOT NULL,
  -- buffers included, as a booking's occupied range
  occupied tstzrange NOT NULL,
  expires_at timestamptz NOT NULL,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'released', 'used', 'expired')),
  -- the booking that used it, written in the same transaction just before that booking's row
  booking_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT holds_no_overlap EXCLUDE USING gist (staff_id WITH =, occupied WITH &&) WHERE (status = 'active')
);
CREATE INDEX holds_business_idx ON holds (business_id, created_at);

CREATE FUNCTION holds_check_staff_time() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status <> 'active' THEN RETURN NEW; END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended('booking-staff:' || NEW.staff_id, 0));
  IF EXISTS (SELECT 1 FROM bookings b
              WHERE b.occupied_staff_id = NEW.staff_id AND b.session_id IS NULL
                AND b.status IN ('requested', 'confirmed', 'rescheduleProposed')
                AND b.occupied && NEW.occupied)
     OR EXISTS (SELECT 1 FROM group_sessions g
              WHERE g.staff_id = NEW.staff_id
                AND g.start_at < upper(NEW.occupied) AND g.end_at > lower(NEW.occupied)) THEN
    RAISE EXCEPTION 'the staff member is not free at that time'
      USING ERRCODE = 'exclusion_violation', CONSTRAINT = 'holds_staff_overlap';
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER holds_staff_overlap
  BEFORE INSERT OR UPDATE OF staff_id, occupied, status ON holds
  FOR EACH ROW EXECUTE FUNCTION holds_check_staff_time();

CREATE FUNCTION bookings_check_staff_holds() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.occupied_staff_id IS NULL OR NEW.session_id IS NOT NULL
     OR NEW.status NOT IN ('requested', 'confirmed', 'rescheduleProposed') THEN
    RETURN NEW;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended('booking-staff:' || NEW.occupied_staff_id, 0));
  IF EXISTS (SELECT 1 FROM holds h
              WHERE h.staff_id = NEW.occupied_staff_id AND h.status = 'active' AND h.expires_at > now()
                AND h.occupied && NEW.occupied) THEN
    RAISE EXCEPTION 'a guest holds that time of the staff member'
      USING ERRCODE = 'exclusion_violation', CONSTRAINT = 'bookings_no_hold_overlap';
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER bookings_no_hold_overlap
  BEFORE INSERT OR UPDATE OF occupied, occupied_staff_id, status, session_id ON bookings
  FOR EACH ROW EXECUTE FUNCTION bookings_check_staff_holds();

CREATE FUNCTION group_sessions_check_staff_holds() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('booking-staff:' || NEW.staff_id, 0));
  IF EXISTS (SELECT 1 FROM holds h
              WHERE h.staff_id = NEW.staff_id AND h.status = 'active' AND h.expires_at > now()
                AND h.occupied && tstzrange(NEW.start_at, NEW.end_at, '[)')) THEN
    RAISE EXCEPTION 'a guest holds part of that time of the staff member'
      USING ERRCODE = 'exclusion_violation', CONSTRAINT = 'group_sessions_hold_overlap';
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER group_sessions_hold_overlap
  BEFORE INSERT OR UPDATE OF staff_id, start_at, end_at ON group_sessions
  FOR EACH ROW EXECUTE FUNCTION group_sessions_check_staff_holds();

-- A hold changes which time is offered, as a booking does: it moves the occupancy version.
CREATE CONSTRAINT TRIGGER holds_occupancy_version AFTER INSERT OR UPDATE OR DELETE ON holds
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_occupancy_version();
`;
