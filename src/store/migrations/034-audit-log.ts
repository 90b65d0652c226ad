// The audit log (clients-and-reports.md "Audit log"): who changed what, when, through which
// request; the names of the fields, never their values. Kept 12 months (housekeeping).
export default /* sql */ `
CREATE TABLE audit_log (
  id text PRIMARY KEY,
  business_id text NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
  at timestamptz NOT NULL,
  actor_type text NOT NULL CHECK (actor_type IN ('operator', 'member', 'guest')),
  actor_id text,
  actor_name text,
  actor_role text,
  action text NOT NULL,
  target_type text NOT NULL,
  target_id text,
  request_id text,
  fields text[] NOT NULL DEFAULT '{}'
);
CREATE INDEX audit_log_business_idx ON audit_log (business_id, at DESC, id DESC);
CREATE INDEX audit_log_at_idx ON audit_log (at);
`;
