// Who made each booking (guest-side.md "The booking page"): `api` (an API key), `bookingPage` (a
// guest on the salon's page) or `manual` (the business: a member, whose user id is kept, or the
// platform operator). Shown in operator reads only; api_source_key_id stays the guest_partner tag.
// Existing rows: every POST /v1/bookings stored the guest's consent (required in its body), a manual
// booking never did; so consent, or a partner key, means `api`. api_source_key_id alone would call
// every owner-key booking manual: only guest_partner keys were recorded there.
// The column arrives with a constant default, which PostgreSQL 11+ (and PGlite) records without
// rewriting the table; the backfill then touches only the API rows, and the default is dropped so
// an insert that names no source fails instead of passing as manual. Old instances insert without
// it: stop them before this migration runs (as for 004).
export default /* sql */ `
ALTER TABLE bookings
  ADD COLUMN source text NOT NULL DEFAULT 'manual' CHECK (source IN ('api', 'bookingPage', 'manual')),
  ADD COLUMN source_member_id text REFERENCES users(id) ON DELETE SET NULL,
  ADD CONSTRAINT bookings_source_member_manual CHECK (source_member_id IS NULL OR source = 'manual');
UPDATE bookings SET source = 'api' WHERE consent IS NOT NULL OR api_source_key_id IS NOT NULL;
ALTER TABLE bookings ALTER COLUMN source DROP DEFAULT;
`;
