// The dashboard's language is the member's own (issue 27): stored with the account, so it follows
// them to every browser and every business they belong to. English is what every existing account saw.
export default /* sql */ `
ALTER TABLE users ADD COLUMN language text NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'hu'));
`;
