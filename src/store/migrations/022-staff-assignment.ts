// Who gets an "any staff" booking (salon-scheduling.md): a location's staff_assignment, "ordered"
// (the staff members' display order: position, then name) or "balanced" (the free staff member
// with the fewest booked minutes that local day); a staff member's optional position. Both tables
// already carry their business's version trigger (migration 011), so cached answers follow.
export default /* sql */ `
ALTER TABLE staff ADD COLUMN position integer CHECK (position IS NULL OR position BETWEEN 0 AND 10000);
ALTER TABLE locations ADD COLUMN staff_assignment text NOT NULL DEFAULT 'ordered'
  CHECK (staff_assignment IN ('ordered', 'balanced'));
`;
