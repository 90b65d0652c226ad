// Accounts, roles, sign-in sessions and invitations (business-side.md "Accounts and sessions").
// Users created before this migration (by issuing a personal key) have no email and no password:
// they keep their keys but cannot sign in. Their memberships get the least role, frontDesk.
// Emails are stored lower-cased (the use case normalises), so uniqueness is a plain index.
// Session and invitation secrets are never stored, only their SHA-256.
export default /* sql */ `
ALTER TABLE users ADD COLUMN email text CHECK (email = lower(email));
ALTER TABLE users ADD COLUMN name text;
ALTER TABLE users ADD COLUMN password_hash text;
CREATE UNIQUE INDEX users_email_key ON users (email) WHERE email IS NOT NULL;

ALTER TABLE memberships ADD COLUMN role text NOT NULL DEFAULT 'frontDesk'
  CHECK (role IN ('owner', 'manager', 'frontDesk'));
CREATE INDEX memberships_user_idx ON memberships (user_id);

CREATE TABLE member_sessions (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  ended_at timestamptz
);
CREATE INDEX member_sessions_user_idx ON member_sessions (user_id) WHERE ended_at IS NULL;

CREATE TABLE invitations (
  id text PRIMARY KEY,
  business_id text NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
  email text NOT NULL CHECK (email = lower(email)),
  role text NOT NULL CHECK (role IN ('owner', 'manager', 'frontDesk')),
  token_hash text NOT NULL UNIQUE,
  invited_by text REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  accepted_at timestamptz,
  accepted_by text REFERENCES users(id) ON DELETE SET NULL,
  withdrawn_at timestamptz,
  CHECK (accepted_at IS NULL OR withdrawn_at IS NULL)
);
CREATE INDEX invitations_open_idx ON invitations (business_id, created_at)
  WHERE accepted_at IS NULL AND withdrawn_at IS NULL;
`;
