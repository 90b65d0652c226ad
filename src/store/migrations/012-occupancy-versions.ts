// The occupancy version of a business: bumped by every committed write that changes which of its
// staff's time is taken (a booking's state, time or staff; a group session), so the availability
// cache (docs/architecture.md "Caches and their invalidation") keeps the busy times it read only
// while no booking moved. It lives in business_versions under the id "occ:<business id>", apart
// from the business's own version: a booking must not invalidate the cached keys and catalogue.
// Same mechanics as migration 011 (deferred to commit, recorded in booking.bumped for the adapters
// to publish); a booking's other columns (contact, notes, deposit) take no time and bump nothing.
export default /* sql */ `
INSERT INTO business_versions (business_id, version) SELECT 'occ:' || id, 1 FROM businesses;

CREATE FUNCTION bump_occupancy_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM bump_business_version('occ:' || OLD.business_id); END IF;
  IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR OLD.business_id IS DISTINCT FROM NEW.business_id) THEN
    PERFORM bump_business_version('occ:' || NEW.business_id);
  END IF;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER bookings_occupancy_version AFTER INSERT OR DELETE
    OR UPDATE OF business_id, status, occupied, occupied_staff_id, session_id ON bookings
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_occupancy_version();
CREATE CONSTRAINT TRIGGER group_sessions_occupancy_version AFTER INSERT OR UPDATE OR DELETE ON group_sessions
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_occupancy_version();
`;
