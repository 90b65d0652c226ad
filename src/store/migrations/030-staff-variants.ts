// Stylist variants (salon-scheduling.md "Stylist variants"): per staff member a service may last,
// cost and process differently. Kept on the service row as a jsonb list
// `[{ staffId, durationMinutes?, priceMinor?, segments? }]` (an empty list: none), because a variant
// is only ever read with its service and is replaced as a whole by a PATCH; a table of its own would
// add a join to every catalogue read and a version trigger for no query that needs it.
// Cached answers move with it without a new trigger: `services_version` (migration 011) fires on
// every update of a services row whatever column changes, so a changed variant bumps the business
// version like a changed duration; `pricing_version` is written by the use case from the variants too.
// A staff member deleted later leaves an inert entry (it names no one who can be booked); staff are
// deactivated rather than deleted in practice.
export default /* sql */ `
ALTER TABLE services
  ADD COLUMN staff_variants jsonb NOT NULL DEFAULT '[]'::jsonb
    CONSTRAINT services_staff_variants_list CHECK (jsonb_typeof(staff_variants) = 'array');
`;
