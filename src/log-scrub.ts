/**
 * What a log line may hold of the values handed to the logger. Raw bytes are never logged: Node
 * attaches the raw request (API key, guest phone and e-mail) to its parser errors as `rawPacket`,
 * and a Buffer that reached JSON would print as a byte array. Errors keep their kind and text, not
 * the data drivers hang on them (PGlite puts the query's parameters on its errors, PostgreSQL the
 * offending values in `detail`). Keys that name a secret or contact data are masked at any depth.
 */

const MAX_DEPTH = 8;

/** Masked wherever they appear in a logged object, whatever the case. */
const SECRET_KEYS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'idempotency-key',
  'x-api-key',
  'apikey',
  'admintoken',
  'token',
  'password',
  'secret',
  'accepturl',
  'signingsecret',
  'phone',
  'email',
]);

/** The fields an error keeps: what it is and where it came from, never what it was handling. */
const ERROR_FIELDS = ['code', 'statusCode', 'errno', 'syscall', 'reason', 'severity', 'routine', 'constraint', 'table', 'column', 'schema'];

function binaryLength(value: object): number | undefined {
  if (ArrayBuffer.isView(value)) return value.byteLength;
  if (value instanceof ArrayBuffer || value instanceof SharedArrayBuffer) return value.byteLength;
  // A Buffer that already went through JSON (`toJSON`): { type: 'Buffer', data: [80, 79, ...] }
  const v = value as { type?: unknown; data?: unknown };
  if (v.type === 'Buffer' && Array.isArray(v.data)) return v.data.length;
  return undefined;
}

function isPlain(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function scrubError(err: Error, depth: number, seen: WeakSet<object>): Record<string, unknown> {
  const out: Record<string, unknown> = { type: err.constructor?.name ?? err.name, message: err.message, stack: err.stack };
  const fields = err as unknown as Record<string, unknown>;
  for (const key of ERROR_FIELDS) {
    const v = fields[key];
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[key] = v;
  }
  if (err.cause !== undefined) out.cause = scrubValue(err.cause, depth + 1, seen);
  if (err instanceof AggregateError) out.aggregateErrors = scrubValue(err.errors, depth + 1, seen);
  return out;
}

/**
 * A copy of `value` fit for a log line. Plain objects, arrays and errors are walked; other class
 * instances (Fastify's request and reply) are left to their serializers.
 */
export function scrubValue(value: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
  if (value === null || typeof value !== 'object') return value;
  const bytes = binaryLength(value);
  if (bytes !== undefined) return `[${bytes} bytes]`;
  if (seen.has(value)) return '[circular]';
  if (depth >= MAX_DEPTH) return '[too deep]';
  if (!(value instanceof Error) && !Array.isArray(value) && !isPlain(value)) return value;
  // `seen` holds the values on the path from the top, so a shared value is copied twice, a cycle cut.
  seen.add(value);
  try {
    if (value instanceof Error) return scrubError(value, depth, seen);
    if (Array.isArray(value)) return value.map((v) => scrubValue(v, depth + 1, seen));
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      const masked = SECRET_KEYS.has(key.toLowerCase()) && v !== undefined && v !== null;
      out[key] = masked ? '[redacted]' : scrubValue(v, depth + 1, seen);
    }
    return out;
  } finally {
    seen.delete(value);
  }
}

/** An API key wherever it appears in a finished line (a message, a URL): `bka_` and 32+ base62 characters. */
const API_KEY = /bka_[0-9A-Za-z]{32,}/g;

/**
 * A `token` query parameter in a logged URL: the invitation link's single-use token arrives that
 * way when the invited person opens `/dashboard/accept-invitation?token=…`, and the request line
 * is logged.
 */
const TOKEN_PARAM = /([?&]token=)[^&#\s"]+/gi;

/** A deposit payment link's signed part (`/pay/deposit/<booking>/<token>`): a bearer secret too. */
const PAY_LINK = /(\/pay\/deposit\/[^/\s"?#]+\/)[^\s"?#]+/g;

/** A calendar feed's address (`/ical/<token>.ics`): whoever holds it reads a staff member's appointments. */
const ICAL_FEED = /(\/ical\/)[^\s"?#/]+/g;

/** A guest's manage link (`/manage/<token>`): whoever holds it sees, and soon changes, the booking. */
const MANAGE_LINK = /(\/manage\/)[^\s"?#/]+/g;

/** A waitlist offer's claim link and an entry's withdraw link: each books or withdraws for the guest. */
const WAITLIST_LINK = /(\/(?:claim|waitlist\/withdraw)\/)[^\s"?#/]+/g;

/**
 * The booking page's signed query values (`/book/…?b=…`, `c=…`): the done page's and the calendar
 * file's booking token (with a deposit's payment link inside), and the chosen time's token.
 */
const GUEST_TOKEN_PARAM = /(\/book\/[^\s"]*?[?&](?:b|c)=)[^&#\s"]+/g;

/** API keys, URL tokens, payment links, calendar feeds and guest links wherever they appear in a finished line. */
export function maskLineSecrets(line: string): string {
  let out = line.includes('bka_') ? line.replace(API_KEY, 'bka_[redacted]') : line;
  if (/token=/i.test(out)) out = out.replace(TOKEN_PARAM, '$1[redacted]');
  if (out.includes('/ical/')) out = out.replace(ICAL_FEED, '$1[redacted]');
  if (out.includes('/manage/')) out = out.replace(MANAGE_LINK, '$1[redacted]');
  if (out.includes('/claim/') || out.includes('/waitlist/withdraw/')) out = out.replace(WAITLIST_LINK, '$1[redacted]');
  // Twice: a line may carry one of each (…?c=…&b=…); each pass masks the first it finds per URL.
  if (out.includes('/book/')) out = out.replace(GUEST_TOKEN_PARAM, '$1[redacted]').replace(GUEST_TOKEN_PARAM, '$1[redacted]');
  return out.includes('/pay/deposit/') ? out.replace(PAY_LINK, '$1[redacted]') : out;
}
