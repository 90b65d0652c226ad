import type { MessageChannel } from './kinds.ts';

/**
 * How the messages log shows a recipient (guest-side.md "Notifications"): enough for a receptionist
 * to recognise whom a message went to (`p***@example.com`, `+36 30 *** **67`), never enough to
 * write to them. The full address stays in the messages table for the sender alone.
 */
export function maskRecipient(channel: MessageChannel, recipient: string): string {
  return channel === 'email' ? maskEmail(recipient) : maskPhone(recipient);
}

/** The local part's first character, `***`, and the domain: `p***@example.com`. */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf('@');
  const local = at < 0 ? address : address.slice(0, at);
  // The first code point, not the first UTF-16 unit: half a surrogate pair prints as garbage.
  const first = Array.from(local)[0] ?? '';
  return at < 0 ? `${first}***` : `${first}***@${address.slice(at + 1)}`;
}

/** The characters a number keeps as written; anything else (letters, `ext.`) is dropped. */
const PHONE_SEPARATORS = new Set([' ', '+', '-', '(', ')', '.', '/']);

/** The last digits shown, as in `+36 30 *** **67`. */
const SHOWN_TAIL = 2;

/**
 * A phone number as written with its digits masked but the country code and first group (`+36 30`)
 * and the last two. Short or unseparated numbers show less: at least half of the digits, and never
 * fewer than three, stay hidden (`+36301234567` → `+3630*****67`; a number of four digits or fewer
 * shows none).
 */
export function maskPhone(number: string): string {
  const chars = Array.from(number).filter((c) => isDigit(c) || PHONE_SEPARATORS.has(c));
  const digits = chars.filter(isDigit).length;
  const hidden = digits <= 4 ? digits : Math.max(3, Math.floor(digits / 2));
  const tail = digits - SHOWN_TAIL >= hidden ? SHOWN_TAIL : 0;
  const head = Math.min(leadingGroupDigits(chars), digits - tail - hidden);
  let seen = 0;
  return chars
    .map((c) => {
      if (!isDigit(c)) return c;
      const index = seen++;
      return index < head || index >= digits - tail ? c : '*';
    })
    .join('');
}

/** The digits of the country code and the first group (`+36 30`), or of the first group alone (`06`, `(30)`). */
function leadingGroupDigits(chars: readonly string[]): number {
  const groups = chars
    .join('')
    .split(/[^0-9]+/)
    .filter((g) => g.length > 0);
  const international = chars.find((c) => c !== ' ' && c !== '(') === '+';
  const kept = groups.slice(0, international ? 2 : 1);
  return kept.reduce((n, g) => n + g.length, 0);
}

function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}

const EMAIL_SHAPED = /[^\s<>()[\]"',;:\uE000\uE001]+@[^\s<>()[\]"',;:\uE000\uE001]+/g;
// A `+` or digit, then digits and separators, ending on a digit: candidates, kept when they hold 7 digits or more.
const PHONE_SHAPED = /\+?\d[\d ()./-]*\d/g;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A sender's error as the log shows it: a mail server or SMS gateway often quotes the address it
 * refused (`550 <peter@example.com>: no such user`), or only its local part, so the recipient, its
 * local part, every address and every number of seven digits or more in the text are masked as
 * recipients are.
 */
export function maskErrorText(text: string, channel: MessageChannel, recipient: string): string {
  const masked = maskRecipient(channel, recipient);
  // Placeholders first, so the masks are not masked again (the text's own private-use characters U+E000 and U+E001 are dropped).
  let out = text.replace(/[\uE000\uE001]/g, '');
  if (recipient.length > 0) out = replaceAllIgnoringCase(out, recipient, PLACEHOLDER);
  const local = channel === 'email' ? recipient.slice(0, Math.max(0, recipient.lastIndexOf('@'))) : '';
  if (local.length >= 3) out = replaceAllIgnoringCase(out, local, LOCAL_PLACEHOLDER);
  out = out.replace(EMAIL_SHAPED, (m) => maskEmail(m));
  out = out.replace(PHONE_SHAPED, (m) => {
    const digits = m.replace(/\D/g, '').length;
    return digits >= 7 && !ISO_DATE.test(m) ? maskPhone(m) : m;
  });
  return out.split(PLACEHOLDER).join(masked).split(LOCAL_PLACEHOLDER).join(maskEmail(local));
}

const PLACEHOLDER = '\uE000';
const LOCAL_PLACEHOLDER = '\uE001';

function replaceAllIgnoringCase(text: string, needle: string, by: string): string {
  const lower = text.toLowerCase();
  const n = needle.toLowerCase();
  // toLowerCase keeps the length for every address and number this holds (ASCII); otherwise skip.
  if (lower.length !== text.length || n.length !== needle.length) return text.split(needle).join(by);
  let out = '';
  let from = 0;
  for (let at = lower.indexOf(n); at >= 0; at = lower.indexOf(n, from)) {
    out += text.slice(from, at) + by;
    from = at + n.length;
  }
  return out + text.slice(from);
}
