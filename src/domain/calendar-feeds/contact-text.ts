// A guest's name is free text the guest typed. A feed lands in calendars synced to phones and
// shared with others, so whatever in it reads like an email address or a phone number is cut out
// (guest-side.md: no phone or email in a feed), not trusted to be a name.
const EMAIL = /[^\s@<>()]+@[^\s@<>()]+/g;
// Seven or more digits, with the spaces, dots, dashes, slashes and brackets numbers are written with.
const PHONE = /\+?\d[\d\s()./-]{5,}\d/g;

/** Free text with anything that looks like an email address or a phone number replaced by `…`. */
export function withoutContacts(text: string): string {
  return text
    .replace(EMAIL, '…')
    .replace(PHONE, (m) => (m.replace(/\D/g, '').length >= 7 ? '…' : m))
    .replace(/\s+/g, ' ')
    .trim();
}
