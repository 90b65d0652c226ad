import type { BookingStatus } from '../domain/bookings/states.ts';
import { currencyExponent, toMajor } from '../domain/money.ts';
import type { PaymentPageRow } from '../store/deposits.ts';

/**
 * The deposit payment page a guest's payment link opens (decisions.md "The deposit payment
 * page"): plain server-rendered HTML, no script, no external resource, every value escaped. It
 * shows the amount, the due time in the location's time zone, the salon's payment instructions
 * and the state of the booking and its deposit; nothing about the guest, and no more about the
 * booking than its state.
 */

/** No script, no image, no frame, no form, no external anything; only the inline style below. */
export const PAY_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The link is a bearer secret: it must not leak through a Referer or a shared cache. */
export const PAY_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': PAY_PAGE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
};

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

const BOOKING_STATE: Record<BookingStatus, string> = {
  requested: 'Requested: waiting for the salon to confirm',
  confirmed: 'Confirmed',
  rescheduleProposed: 'The salon proposed a new time',
  declined: 'Declined by the salon',
  cancelled: 'Cancelled',
  completed: 'Completed',
  noShow: 'Marked as missed',
};

const OPEN: ReadonlySet<BookingStatus> = new Set(['requested', 'confirmed', 'rescheduleProposed']);

const STYLE = `body{font-family:system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b;line-height:1.5}
h1{font-size:1.4rem}dl{display:grid;grid-template-columns:max-content 1fr;gap:.4rem 1rem}dt{font-weight:600}dd{margin:0}
.note{padding:.75rem 1rem;border-radius:.4rem;background:#f1f4f8}.instructions{white-space:pre-wrap}`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

function amountText(minor: number | null, currency: string): string {
  if (minor === null) return 'As agreed with the salon';
  const digits = currencyExponent(currency);
  try {
    return new Intl.NumberFormat('en-GB', {
      style: 'currency',
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(toMajor(minor, currency));
  } catch {
    return `${toMajor(minor, currency)} ${currency}`;
  }
}

function dueText(at: Date, timezone: string): string {
  const local = new Intl.DateTimeFormat('en-GB', { timeZone: timezone, dateStyle: 'full', timeStyle: 'short' }).format(at);
  return `${local} (${timezone})`;
}

export function renderDepositPage(p: PaymentPageRow): string {
  const d = p.deposit!;
  const open = OPEN.has(p.bookingStatus);
  let state: string;
  if (d.status === 'paid') state = 'Received by the salon. Thank you: there is nothing more to pay.';
  else if (d.status === 'waived') state = 'Waived by the salon: there is nothing to pay.';
  else if (open) state = 'Not received yet.';
  else state = 'Not received; the booking is no longer open, so ask the salon before paying anything.';
  const showInstructions = d.status === 'pending' && open;
  const instructions = p.paymentInstructions?.trim()
    ? `<p class="instructions">${escapeHtml(p.paymentInstructions)}</p>`
    : '<p>The salon has not published payment instructions; please contact the salon.</p>';
  return page(
    `Deposit – ${p.salonName}`,
    `<main>
<h1>Deposit for your booking at ${escapeHtml(p.salonName)}</h1>
<dl>
<dt>Amount</dt><dd>${escapeHtml(amountText(d.amountMinor, d.currency))}</dd>
<dt>Due</dt><dd>${escapeHtml(dueText(d.dueAt, p.timezone))}</dd>
<dt>Booking</dt><dd>${escapeHtml(BOOKING_STATE[p.bookingStatus])}</dd>
<dt>Deposit</dt><dd>${escapeHtml(state)}</dd>
</dl>
${showInstructions ? `<section class="note"><h2>How to pay</h2>\n${instructions}</section>` : ''}
</main>`,
  );
}

export function renderNotFoundPage(): string {
  return page(
    'Page not found',
    '<main>\n<h1>Page not found</h1>\n<p>This payment link is not valid. Please use the link exactly as the salon or the booking site gave it to you.</p>\n</main>',
  );
}
