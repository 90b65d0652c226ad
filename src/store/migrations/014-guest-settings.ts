// A business's guest settings (guest-side.md "Guest settings of a business", docs/guest-settings.md):
// one row per business holding only the fields it changed, merged over the defaults in code; no row
// means every default. The booking page and holds read them through the caches, so a change moves
// the business version like the catalogue tables (migration 011).
export default /* sql */ `
CREATE TABLE guest_settings (
  business_id text PRIMARY KEY REFERENCES businesses(id) ON DELETE CASCADE,
  settings jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(settings) = 'object'),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE CONSTRAINT TRIGGER guest_settings_version AFTER INSERT OR UPDATE OR DELETE ON guest_settings
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_business_version_by_business_id();
`;
