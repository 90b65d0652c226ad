// Resource units (salon-scheduling.md "Resources"): a booking or hold of a service that needs
// resources occupies one unit of each for the whole service, processing included, buffers not
// (the guest is in the chair; cleaning it is the staff member's time). The rows live in occupancy
// (migration 023) under occupancy_unit_no_overlap. Which resources a booking needs is kept on the
// row (`resource_ids`, the service's active ones when it was placed), so the trigger can assign
// units from the columns alone, as it writes the staff rows.
//
// A unit is assigned by the database: under the resource's advisory lock (taken in id order, after
// the staff member's), the lowest unit with no row in the way, after stale holds in the way are
// marked expired. No free unit raises exclusion_violation, which every caller already maps to a
// lost time. Because of the lock, N concurrent writers for a resource of quantity Q at one time get
// exactly Q units; the exclusion constraint is the backstop should anything write rows otherwise.
export default /* sql */ `
ALTER TABLE bookings ADD COLUMN resource_ids text[] NOT NULL DEFAULT '{}';
ALTER TABLE holds ADD COLUMN resource_ids text[] NOT NULL DEFAULT '{}';
CREATE INDEX occupancy_resource_idx ON occupancy (resource_id, unit) WHERE resource_id IS NOT NULL;

CREATE FUNCTION occupancy_take_units(p_business_id text, p_booking_id text, p_hold_id text, p_resource_ids text[], p_during tstzrange)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  rid text;
  free_unit integer;
BEGIN
  FOR rid IN SELECT DISTINCT x FROM unnest(p_resource_ids) AS x ORDER BY x LOOP
    PERFORM pg_advisory_xact_lock(hashtextextended('resource:' || rid, 0));
    UPDATE holds SET status = 'expired'
     WHERE status = 'active' AND expires_at <= now() AND id IS DISTINCT FROM p_hold_id
       AND id IN (SELECT o.hold_id FROM occupancy o WHERE o.resource_id = rid AND o.during && p_during);
    SELECT n INTO free_unit
      FROM generate_series(1, coalesce((SELECT quantity FROM resources WHERE id = rid), 0)) AS n
     WHERE NOT EXISTS (SELECT 1 FROM occupancy o WHERE o.resource_id = rid AND o.unit = n AND o.during && p_during)
     ORDER BY n LIMIT 1;
    IF free_unit IS NULL THEN
      RAISE EXCEPTION 'no free unit of resource %', rid
        USING ERRCODE = 'exclusion_violation', CONSTRAINT = 'occupancy_unit_no_overlap';
    END IF;
    INSERT INTO occupancy (business_id, booking_id, hold_id, resource_id, unit, during)
    VALUES (p_business_id, p_booking_id, p_hold_id, rid, free_unit, p_during);
  END LOOP;
END $$;

CREATE OR REPLACE FUNCTION bookings_sync_occupancy() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF NEW.occupied = OLD.occupied AND NEW.processing = OLD.processing AND NEW.resource_ids = OLD.resource_ids
       AND NEW.occupied_staff_id IS NOT DISTINCT FROM OLD.occupied_staff_id AND NEW.status = OLD.status
       AND NEW.session_id IS NOT DISTINCT FROM OLD.session_id
       AND NEW.start_at = OLD.start_at AND NEW.end_at = OLD.end_at
       AND NEW.proposed_start_at IS NOT DISTINCT FROM OLD.proposed_start_at
       AND NEW.proposed_end_at IS NOT DISTINCT FROM OLD.proposed_end_at THEN
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
  -- the appointment itself (the proposal's while one is open), without buffers
  PERFORM occupancy_take_units(NEW.business_id, NEW.id, NULL, NEW.resource_ids,
    CASE WHEN NEW.status = 'rescheduleProposed' AND NEW.proposed_start_at IS NOT NULL
         THEN tstzrange(NEW.proposed_start_at, NEW.proposed_end_at, '[)')
         ELSE tstzrange(NEW.start_at, NEW.end_at, '[)') END);
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION holds_sync_occupancy() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF NEW.occupied = OLD.occupied AND NEW.processing = OLD.processing AND NEW.staff_id = OLD.staff_id
       AND NEW.status = OLD.status AND NEW.resource_ids = OLD.resource_ids THEN
      RETURN NULL;
    END IF;
    DELETE FROM occupancy WHERE hold_id = NEW.id;
  END IF;
  IF NEW.status <> 'active' THEN RETURN NULL; END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended('booking-staff:' || NEW.staff_id, 0));
  PERFORM occupancy_expire_stale_holds(NEW.staff_id, NEW.occupied, NEW.id);
  INSERT INTO occupancy (business_id, hold_id, staff_id, during)
  SELECT NEW.business_id, NEW.id, NEW.staff_id, r FROM unnest(tstzmultirange(NEW.occupied) - NEW.processing) AS r;
  PERFORM occupancy_take_units(NEW.business_id, NULL, NEW.id, NEW.resource_ids, tstzrange(NEW.start_at, NEW.end_at, '[)'));
  RETURN NULL;
END $$;

DROP TRIGGER bookings_occupancy_version ON bookings;
CREATE CONSTRAINT TRIGGER bookings_occupancy_version AFTER INSERT OR DELETE
    OR UPDATE OF business_id, status, occupied, occupied_staff_id, session_id, processing, resource_ids ON bookings
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_occupancy_version();
`;
