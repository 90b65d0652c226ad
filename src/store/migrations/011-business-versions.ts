// A per-business version: bumped by every committed write that changes what a cached answer of the
// business depends on (its keys, members, plan, catalogue, hours and time off). The caches of
// docs/architecture.md ("Caches and their invalidation") keep an answer only while the version it was
// read under is still the published one. Triggers make the bump part of the writing transaction
// whatever code writes; they are deferred to commit so the version row is the last lock a writer
// takes (no lock-order deadlock with the rows it wrote). No foreign key: a deleted business keeps
// its version, so a key of a deleted business is not served from memory either.
// Each bump also appends "<business id>=<version> " to the transaction-local setting
// booking.bumped, which the adapters read before commit and publish after it (db.ts).
export default /* sql */ `
CREATE TABLE business_versions (
  business_id text PRIMARY KEY,
  version bigint NOT NULL
);
INSERT INTO business_versions (business_id, version) SELECT id, 1 FROM businesses;

CREATE FUNCTION bump_business_version(bid text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE v bigint;
BEGIN
  IF bid IS NULL THEN RETURN; END IF;
  INSERT INTO business_versions AS bv (business_id, version) VALUES (bid, 1)
    ON CONFLICT (business_id) DO UPDATE SET version = bv.version + 1
    RETURNING bv.version INTO v;
  PERFORM set_config('booking.bumped', coalesce(current_setting('booking.bumped', true), '') || bid || '=' || v || ' ', true);
END $$;

CREATE FUNCTION bump_business_version_by_business_id() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN PERFORM bump_business_version(OLD.business_id);
  ELSE
    PERFORM bump_business_version(NEW.business_id);
    IF TG_OP = 'UPDATE' AND OLD.business_id IS DISTINCT FROM NEW.business_id THEN PERFORM bump_business_version(OLD.business_id); END IF;
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION bump_business_version_by_id() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN PERFORM bump_business_version(OLD.id); ELSE PERFORM bump_business_version(NEW.id); END IF;
  RETURN NULL;
END $$;

-- Rows that name a staff member, not a business: the staff row's business (a cascade from a deleted
-- staff row finds none; the staff row's own trigger has bumped then).
CREATE FUNCTION bump_business_version_by_staff_id() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM bump_business_version((SELECT business_id FROM staff WHERE id = OLD.staff_id)); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM bump_business_version((SELECT business_id FROM staff WHERE id = NEW.staff_id)); END IF;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER businesses_version AFTER INSERT OR UPDATE OR DELETE ON businesses
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_business_version_by_id();
-- Not the booking quota columns: a booking does not change what auth reads.
CREATE CONSTRAINT TRIGGER subscriptions_version AFTER INSERT OR DELETE OR UPDATE OF business_id, plan, status, feature_overrides ON subscriptions
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_business_version_by_business_id();
CREATE CONSTRAINT TRIGGER memberships_version AFTER INSERT OR UPDATE OR DELETE ON memberships
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_business_version_by_business_id();
-- Not last_used_at: the key lookup stamps it once a minute.
CREATE CONSTRAINT TRIGGER api_keys_version AFTER INSERT OR DELETE
    OR UPDATE OF business_id, type, kind, capabilities, tier, secret_hash, user_id, expires_at, revoked_at ON api_keys
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_business_version_by_business_id();
CREATE CONSTRAINT TRIGGER locations_version AFTER INSERT OR UPDATE OR DELETE ON locations
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_business_version_by_business_id();
CREATE CONSTRAINT TRIGGER services_version AFTER INSERT OR UPDATE OR DELETE ON services
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_business_version_by_business_id();
CREATE CONSTRAINT TRIGGER staff_version AFTER INSERT OR UPDATE OR DELETE ON staff
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_business_version_by_business_id();
CREATE CONSTRAINT TRIGGER staff_services_version AFTER INSERT OR UPDATE OR DELETE ON staff_services
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_business_version_by_staff_id();
CREATE CONSTRAINT TRIGGER working_hours_version AFTER INSERT OR UPDATE OR DELETE ON working_hours
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_business_version_by_staff_id();
CREATE CONSTRAINT TRIGGER time_off_version AFTER INSERT OR UPDATE OR DELETE ON time_off
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_business_version_by_staff_id();
`;
