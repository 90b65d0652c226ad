// When a key was last presented, for the operator's key list. The auth lookup sets it at most once
// a minute per key (findUsableKey), so it is accurate to a minute and costs a write per key per
// minute, not per request.
export default /* sql */ `
ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz;
`;
