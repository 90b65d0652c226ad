// A group session takes its staff member's time: no standard booking that occupies time, and no
// other session of theirs, may overlap it. The two sides live in different tables, so one exclusion
// constraint cannot cover them; these triggers check across under the per-staff advisory lock that
// every booking write takes (lockStaffCalendars before an update; for an insert, this trigger), so
// two concurrent writers cannot both pass the check. A clash raises exclusion_violation (23P01), exactly like bookings_no_overlap, so
// every caller maps it to the same 409.
export default /* sql */ `
CREATE INDEX group_sessions_staff_idx ON group_sessions (staff_id, start_at);

CREATE FUNCTION bookings_check_staff_sessions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.occupied_staff_id IS NULL OR NEW.session_id IS NOT NULL
     OR NEW.status NOT IN ('requested', 'confirmed', 'rescheduleProposed') THEN
    RETURN NEW;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended('booking-staff:' || NEW.occupied_staff_id, 0));
  IF EXISTS (SELECT 1 FROM group_sessions g
              WHERE g.staff_id = NEW.occupied_staff_id
                AND g.start_at < upper(NEW.occupied) AND g.end_at > lower(NEW.occupied)) THEN
    RAISE EXCEPTION 'the staff member runs a group session at that time'
      USING ERRCODE = 'exclusion_violation', CONSTRAINT = 'bookings_no_session_overlap';
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER bookings_no_session_overlap
  BEFORE INSERT OR UPDATE OF occupied, occupied_staff_id, status, session_id ON bookings
  FOR EACH ROW EXECUTE FUNCTION bookings_check_staff_sessions();

CREATE FUNCTION group_sessions_check_staff_time() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('booking-staff:' || NEW.staff_id, 0));
  IF EXISTS (SELECT 1 FROM group_sessions g
              WHERE g.staff_id = NEW.staff_id AND g.id <> NEW.id
                AND g.start_at < NEW.end_at AND g.end_at > NEW.start_at)
     OR EXISTS (SELECT 1 FROM bookings b
              WHERE b.occupied_staff_id = NEW.staff_id AND b.session_id IS NULL
                AND b.status IN ('requested', 'confirmed', 'rescheduleProposed')
                AND b.occupied && tstzrange(NEW.start_at, NEW.end_at, '[)')) THEN
    RAISE EXCEPTION 'the staff member is not free for the whole session'
      USING ERRCODE = 'exclusion_violation', CONSTRAINT = 'group_sessions_staff_overlap';
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER group_sessions_staff_overlap
  BEFORE INSERT OR UPDATE OF staff_id, start_at, end_at ON group_sessions
  FOR EACH ROW EXECUTE FUNCTION group_sessions_check_staff_time();
`;
