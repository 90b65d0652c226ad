// Password reset by mail (members-and-sessions.md "Password reset"): one row per mailed link. Only
// the token's SHA-256 is stored, as for sessions and invitations. A link is spent by `used_at`
// (set when it resets the password, or when another link of the account does); expiry is
// reckoned on the database's clock.
export default /* sql */ `
CREATE TABLE password_resets (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX password_resets_open_idx ON password_resets (user_id) WHERE used_at IS NULL;
`;
