// Visits (salon-scheduling.md "Visits"): several services booked back to back in one appointment.
// Each part is an ordinary booking (or hold) row, so the occupancy triggers and exclusion
// constraints of migrations 023 and 026 keep every part from double use without anything new here.
// A visit row only ties its parts together; it has no state of its own (each part keeps its own
// status, events and webhooks), so it carries no version trigger: writing one changes no cached answer.
export default /* sql */ `
CREATE TABLE visits (
  id text PRIMARY KEY,
  business_id text NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
  location_id text NOT NULL REFERENCES locations(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX visits_business_idx ON visits (business_id, created_at);

ALTER TABLE bookings ADD COLUMN visit_id text REFERENCES visits(id) ON DELETE CASCADE;
CREATE INDEX bookings_visit_idx ON bookings (visit_id) WHERE visit_id IS NOT NULL;

-- A visit's hold is one row per part: the first part's row is the hold the guest names (its id is
-- the holdId) and lists the visit's services in order; the other parts point at it and live, are
-- released, used or expire with it.
ALTER TABLE holds ADD COLUMN service_ids text[];
ALTER TABLE holds ADD COLUMN visit_hold_id text REFERENCES holds(id) ON DELETE CASCADE;
CREATE INDEX holds_visit_hold_idx ON holds (visit_hold_id) WHERE visit_hold_id IS NOT NULL;
`;
