// Resources (salon-scheduling.md "Resources"): what a location has a fixed number of and a service
// may need one of for its whole length (chairs, wash basins), and which services need which. Both
// change which times are offered, so both carry their business's version trigger (migration 011)
// like services and staff_services; a service_resources row names no business, so its trigger
// finds it through the service (a cascade from a deleted service finds none; the service's own
// trigger has bumped then). Names are not unique, as service and staff names are not.
export default /* sql */ `
CREATE TABLE resources (
  id text PRIMARY KEY,
  business_id text NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
  location_id text NOT NULL REFERENCES locations(id) ON DELETE CASCADE,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  quantity integer NOT NULL CHECK (quantity BETWEEN 1 AND 50),
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX resources_business_location_idx ON resources (business_id, location_id);

CREATE TABLE service_resources (
  service_id text NOT NULL REFERENCES services(id) ON DELETE CASCADE,
  resource_id text NOT NULL REFERENCES resources(id) ON DELETE CASCADE,
  PRIMARY KEY (service_id, resource_id)
);
CREATE INDEX service_resources_resource_idx ON service_resources (resource_id);

CREATE FUNCTION bump_business_version_by_service_id() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM bump_business_version((SELECT business_id FROM services WHERE id = OLD.service_id)); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM bump_business_version((SELECT business_id FROM services WHERE id = NEW.service_id)); END IF;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER resources_version AFTER INSERT OR UPDATE OR DELETE ON resources
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_business_version_by_business_id();
CREATE CONSTRAINT TRIGGER service_resources_version AFTER INSERT OR UPDATE OR DELETE ON service_resources
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_business_version_by_service_id();
`;
