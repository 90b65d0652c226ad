// The business's reason for a decline or cancel: kept with the event it explains, outside its
// payload, so the operator reads it and no webhook or public read ever carries it.
export default /* sql */ `
ALTER TABLE booking_events ADD COLUMN reason text;
`;
