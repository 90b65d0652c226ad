// Occupancy becomes its own table (salon-scheduling.md "Processing time"): one row per part of a
// booking or a hold that takes a staff member's time. A service with processing time holds its
// staff member only during its work segments (the first widened by the buffer before, the last
// by the buffer after), so one row per booking and one range per row can no longer say what is
// taken. Bookings and holds keep their envelope (`occupied`, buffers included) and gain
// `processing`, the parts of it during which the staff member is free; the rows here are
// `occupied - processing`, written by triggers from those columns on every insert and update, so
// no path that writes a booking or a hold can forget them.
//
// The invariant moves with them: one exclusion constraint over staff rows replaces
// bookings_no_overlap, holds_no_overlap and the booking/hold triggers that checked across the
// two tables. A row exists only while its owner occupies (a booking in an occupying state that is
// not a group seat; an active hold). A hold whose time ran out is still `active` until someone
// needs its time: before writing its rows, a booking or a hold marks the stale holds in its way
// expired, under the staff member's lock, so only live holds ever refuse. Group sessions keep their
// own table and check against these rows.
//
// resource_id / unit are for resource units (a later migration assigns them); their constraint is
// here so every kind of occupancy lives under one table's exclusion constraints.
/**
 * Existing bookings and live holds (none had processing yet: one row each, the whole envelope);
 * written as the triggers write rows, so a test can rebuild today's rows with it.
 */
export const OCCUPANCY_BACKFILL = /* sql */ `
INSERT INTO occupancy (business_id, booking_id, staff_id, during)
SELECT business_id, id, occupied_staff_id, r FROM bookings, unnest(tstzmultirange(occupied) - processing) AS r
 WHERE occupied_staff_id IS NOT NULL AND session_id IS NULL AND status IN ('requested', 'confirmed', 'rescheduleProposed');
UPDATE holds SET status = 'expired' WHERE status = 'active' AND expires_at <= now();
INSERT INTO occupancy (business_id, hold_id, staff_id, during)
SELECT business_id, id, staff_id, r FROM holds, unnest(tstzmultirange(occupied) - processing) AS r WHERE status = 'active';
`;

export default /* sql */ `
ALTER TABLE services ADD COLUMN segments jsonb;
ALTER TABLE bookings ADD COLUMN processing tstzmultirange NOT NULL DEFAULT '{}';
ALTER TABLE holds ADD COLUMN processing tstzmultirange NOT NULL DEFAULT '{}';

CREATE TABLE occupancy (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id text NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
  booking_id text REFERENCES bookings(id) ON DELETE CASCADE,
  hold_id text REFERENCES holds(id) ON DELETE CASCADE,
  staff_id text REFERENCES staff(id) ON DELETE CASCADE,
  resource_id text,
  unit smallint,
  during tstzrange NOT NULL,
  CHECK (num_nonnulls(booking_id, hold_id) = 1),
  CHECK (num_nonnulls(staff_id, resource_id) = 1),
  CHECK ((resource_id IS NULL) = (unit IS NULL)),
  CONSTRAINT occupancy_staff_no_overlap EXCLUDE USING gist (staff_id WITH =, during WITH &&) WHERE (staff_id IS NOT NULL),
  CONSTRAINT occupancy_unit_no_overlap EXCLUDE USING gist (resource_id WITH =, unit WITH =, during WITH &&)
    WHERE (resource_id IS NOT NULL)
);
CREATE INDEX occupancy_booking_idx ON occupancy (booking_id) WHERE booking_id IS NOT NULL;
CREATE INDEX occupancy_hold_idx ON occupancy (hold_id) WHERE hold_id IS NOT NULL;

-- Stale holds of a staff member in the way of [lower, upper) stop occupying (their rows go with
-- them through holds_sync_occupancy). Called under the staff member's lock.
CREATE FUNCTION occupancy_expire_stale_holds(p_staff_id text, p_range tstzrange, p_except text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE holds SET status = 'expired'
   WHERE staff_id = p_staff_id AND status = 'active' AND expires_at <= now() AND occupied && p_range
     AND id IS DISTINCT FROM p_except;
END $$;

-- A group session of the staff member at that time refuses the row, as it refused the booking.
CREATE FUNCTION occupancy_check_sessions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.staff_id IS NULL THEN RETURN NEW; END IF;
  IF EXISTS (SELECT 1 FROM group_sessions g
              WHERE g.staff_id = NEW.staff_id AND g.start_at < upper(NEW.during) AND g.end_at > lower(NEW.during)) THEN
    RAISE EXCEPTION 'the staff member runs a group session at that time'
      USING ERRCODE = 'exclusion_violation', CONSTRAINT = 'occupancy_no_session_overlap';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER occupancy_no_session_overlap BEFORE INSERT ON occupancy
  FOR EACH ROW EXECUTE FUNCTION occupancy_check_sessions();

CREATE FUNCTION bookings_sync_occupancy() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF NEW.occupied = OLD.occupied AND NEW.processing = OLD.processing
       AND NEW.occupied_staff_id IS NOT DISTINCT FROM OLD.occupied_staff_id AND NEW.status = OLD.status
       AND NEW.session_id IS NOT DISTINCT FROM OLD.session_id THEN
      RETURN NULL;
    END IF;
    DELETE FROM occupancy WHERE booking_id = NEW.id;
  END IF;
  IF NEW.occupied_staff_id IS NULL OR NEW.session_id IS NOT NULL
     OR NEW.status NOT IN ('requested', 'confirmed', 'rescheduleProposed') THEN
    RETURN NULL;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended('booking-staff:' || NEW.occupied_staff_id, 0));
  PERFORM occupancy_expire_stale_holds(NEW.occupied_staff_id, NEW.occupied, NULL);
  INSERT INTO occupancy (business_id, booking_id, staff_id, during)
  SELECT NEW.business_id, NEW.id, NEW.occupied_staff_id, r
    FROM unnest(tstzmultirange(NEW.occupied) - NEW.processing) AS r;
  RETURN NULL;
END $$;
CREATE TRIGGER bookings_sync_occupancy AFTER INSERT OR UPDATE ON bookings
  FOR EACH ROW EXECUTE FUNCTION bookings_sync_occupancy();

CREATE FUNCTION holds_sync_occupancy() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF NEW.occupied = OLD.occupied AND NEW.processing = OLD.processing AND NEW.staff_id = OLD.staff_id
       AND NEW.status = OLD.status THEN
      RETURN NULL;
    END IF;
    DELETE FROM occupancy WHERE hold_id = NEW.id;
  END IF;
  IF NEW.status <> 'active' THEN RETURN NULL; END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended('booking-staff:' || NEW.staff_id, 0));
  PERFORM occupancy_expire_stale_holds(NEW.staff_id, NEW.occupied, NEW.id);
  INSERT INTO occupancy (business_id, hold_id, staff_id, during)
  SELECT NEW.business_id, NEW.id, NEW.staff_id, r FROM unnest(tstzmultirange(NEW.occupied) - NEW.processing) AS r;
  RETURN NULL;
END $$;
CREATE TRIGGER holds_sync_occupancy AFTER INSERT OR UPDATE ON holds
  FOR EACH ROW EXECUTE FUNCTION holds_sync_occupancy();

-- The checks these rows replace.
ALTER TABLE bookings DROP CONSTRAINT bookings_no_overlap;
ALTER TABLE holds DROP CONSTRAINT holds_no_overlap;
-- its index found the stale holds in a new row's way; the expiry above still needs one
CREATE INDEX holds_active_staff_idx ON holds USING gist (staff_id, occupied) WHERE status = 'active';
DROP TRIGGER bookings_no_hold_overlap ON bookings;
DROP FUNCTION bookings_check_staff_holds();
DROP TRIGGER bookings_no_session_overlap ON bookings;
DROP FUNCTION bookings_check_staff_sessions();
DROP TRIGGER holds_staff_overlap ON holds;
DROP FUNCTION holds_check_staff_time();

-- Sessions check against the rows instead of the envelopes: a session may sit in a booking's
-- processing time. A hold's row counts only while the hold lives.
CREATE OR REPLACE FUNCTION group_sessions_check_staff_time() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('booking-staff:' || NEW.staff_id, 0));
  IF EXISTS (SELECT 1 FROM group_sessions g
              WHERE g.staff_id = NEW.staff_id AND g.id <> NEW.id
                AND g.start_at < NEW.end_at AND g.end_at > NEW.start_at)
     OR EXISTS (SELECT 1 FROM occupancy o
              WHERE o.staff_id = NEW.staff_id AND o.booking_id IS NOT NULL
                AND o.during && tstzrange(NEW.start_at, NEW.end_at, '[)')) THEN
    RAISE EXCEPTION 'the staff member is not free for the whole session'
      USING ERRCODE = 'exclusion_violation', CONSTRAINT = 'group_sessions_staff_overlap';
  END IF;
  RETURN NEW;
END $$;

CREATE OR REPLACE FUNCTION group_sessions_check_staff_holds() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('booking-staff:' || NEW.staff_id, 0));
  IF EXISTS (SELECT 1 FROM occupancy o JOIN holds h ON h.id = o.hold_id
              WHERE o.staff_id = NEW.staff_id AND h.expires_at > now()
                AND o.during && tstzrange(NEW.start_at, NEW.end_at, '[)')) THEN
    RAISE EXCEPTION 'a guest holds part of that time of the staff member'
      USING ERRCODE = 'exclusion_violation', CONSTRAINT = 'group_sessions_hold_overlap';
  END IF;
  RETURN NEW;
END $$;

-- A change of processing moves which time is taken, as a change of the envelope does.
DROP TRIGGER bookings_occupancy_version ON bookings;
CREATE CONSTRAINT TRIGGER bookings_occupancy_version AFTER INSERT OR DELETE
    OR UPDATE OF business_id, status, occupied, occupied_staff_id, session_id, processing ON bookings
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_occupancy_version();


${OCCUPANCY_BACKFILL}`;
