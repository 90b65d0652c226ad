// An operator's redelivery is a new attempt of the same delivery record, after the three automatic
// ones if need be (business-side.md): an attempt number is no longer at most 3.
export default /* sql */ `
ALTER TABLE webhook_attempts DROP CONSTRAINT webhook_attempts_attempt_check;
ALTER TABLE webhook_attempts ADD CONSTRAINT webhook_attempts_attempt_check CHECK (attempt >= 1);
`;
