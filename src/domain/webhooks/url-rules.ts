import { isIP } from 'node:net';
import { classifyAddress, type AddressClass } from './ip-ranges.ts';

/**
 * The rules a webhook URL must pass when it is configured (spec, "Webhook configuration"). Each
 * broken rule has a stable name, returned to the client as `details.rule` of 422 webhook.invalid_url:
 *
 * - `length`: more than 500 characters, as sent or once normalised (what would be stored)
 * - `format`: not a URL the WHATWG parser accepts, or it contains whitespace or control characters
 *   (the parser would silently drop them), or it is not written the way it is used (below)
 * - `scheme`: not `https:`
 * - `credentials`: a user name or password (`user:pass@`, `user@`, even an empty `@`)
 * - `loopback`: localhost and `*.localhost`, 127.0.0.0/8, ::1, and the unspecified 0.0.0.0/8 and ::
 * - `private`: 10/8, 172.16/12, 192.168/16, 100.64/10 (carrier-grade NAT), fc00::/7
 * - `link-local`: 169.254/16 (cloud metadata lives there), fe80::/10
 * - `reserved`: every other literal address that is not public unicast: multicast, documentation,
 *   benchmarking, 240/4 and broadcast, 6to4, NAT64, IPv4-compatible (::/96) and
 *   IPv4-translated (::ffff:0:0:0/96) IPv6 and the like
 *
 * The address rules judge the host as the WHATWG parser reads it (delivery uses that parser), so
 * every spelling of a non-public address is named by its range: decimal, octal and hex IPv4, short
 * forms like 127.1, percent-encoding, full-width digits, IPv6 zero runs; IPv4-mapped IPv6 is
 * unwrapped by classifyAddress. Host names are checked without trailing dots and not resolved here:
 * the worker checks every address a name resolves to when it connects.
 *
 * After them, `format` again: the URL must be written so that a reader other than the WHATWG
 * parser (an integrator's dashboard, a log search, RFC 3986 code) finds the same scheme, host and
 * port in it, because the URL is shown back and logged as stored. See writtenAsParsed.
 *
 * An accepted URL comes back normalised (the parser's `href`): that text is stored, returned and
 * handed to the dispatcher, and parsing it again gives it back unchanged.
 *
 * With `allowPrivateTargets` (WEBHOOK_ALLOW_PRIVATE_TARGETS, development only) `http:` and
 * loopback, private and link-local targets are allowed; every other rule still holds.
 */
export type UrlRule = 'length' | 'format' | 'scheme' | 'credentials' | 'loopback' | 'private' | 'link-local' | 'reserved';

export type UrlCheck = { ok: true; url: string } | { ok: false; rule: UrlRule };

export const MAX_WEBHOOK_URL_LENGTH = 500;

/** Rules the allow-private setting lifts. */
const LIFTED_BY_ALLOW_PRIVATE: ReadonlySet<UrlRule> = new Set(['loopback', 'private', 'link-local']);

const RULE_OF_CLASS: Record<AddressClass, UrlRule | undefined> = {
  public: undefined,
  loopback: 'loopback',
  unspecified: 'loopback',
  private: 'private',
  'link-local': 'link-local',
  multicast: 'reserved',
  reserved: 'reserved',
};

// Whitespace, C0 controls and DEL: the parser strips or rejects them.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL_OR_SPACE = /[\u0000-\u0020\u007f]/;

/**
 * Characters other readers take differently, anywhere in the URL: WHATWG reads `\` as `/` in an
 * http(s) URL (`https://evil.com\@127.0.0.1/` goes to evil.com, RFC 3986 reads host 127.0.0.1);
 * past the authority (the credentials rule has looked inside it) an `@` is where loose readers look
 * for a user (`https://good.com?@evil.com`); a fragment is never sent, so a URL with one is not the
 * URL called, and `#@` is the same trap.
 */
const READ_DIFFERENTLY = /[\\@#]/;

/** `scheme://authority` as RFC 3986 splits it: the authority ends at the first `/`, `?` or `#`. */
const SCHEME_AND_AUTHORITY = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i;

/** Host (a bracketed IPv6 literal, or anything without `:` and brackets) and an optional port. */
const HOST_AND_PORT = /^(\[[^\]]*\]|[^:[\]]*)(?::([0-9]+))?$/;

const IPV6_LITERAL = /^\[[0-9a-f:.]+\]$/i;

const DEFAULT_PORT: Record<string, string> = { 'https:': '443', 'http:': '80' };

/** The rule a literal address or host name breaks, if any. */
function hostRule(hostname: string): UrlRule | undefined {
  if (hostname.startsWith('[')) {
    return RULE_OF_CLASS[classifyAddress(hostname.slice(1, -1))];
  }
  const name = hostname.replace(/\.+$/, '').toLowerCase();
  if (isIP(name) !== 0) return RULE_OF_CLASS[classifyAddress(name)];
  if (name === '') return 'format';
  if (name === 'localhost' || name.endsWith('.localhost')) return 'loopback';
  return undefined;
}

/** The authority as written, so an empty `@` (which the parser drops) is still seen. */
function rawAuthority(input: string): string {
  const afterScheme = input.replace(/^[a-z][a-z0-9+.-]*:\/*/i, '');
  return afterScheme.split(/[/?#\\]/, 1)[0] ?? '';
}

/**
 * Lower case for A-Z only: String#toLowerCase maps some non-ASCII letters to ASCII (the Kelvin
 * sign to `k`), as IDNA does, and would let such a host pass as written in ASCII.
 */
function asciiLower(s: string): string {
  return s.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/**
 * Whether the text names the scheme, host and port the parser found, the same way, so that
 * normalising changes only spelling every reader agrees on (case, a default port, the path's
 * percent-encoding and dot segments). Refused: no `//` after the scheme (`https:evil.com`,
 * `https:/evil.com`, `https:///evil.com` all reach evil.com through WHATWG only); a host the parser
 * rewrote: percent-encoded (`evil%2ecom`), non-ASCII (full-width letters, `。` for a dot, IDN
 * not in its `xn--` form), or an IPv4 address not in dotted decimal (`134744072`, `0x8.8.8.8`, and
 * `010.0.0.1`, which WHATWG reads as octal 8.0.0.1 and others as 10.0.0.1); a port with leading
 * zeros or a `:` without one. A bracketed IPv6 literal may be written in any of its forms: all
 * readers take the same address from it, and it is stored in the parser's compressed form.
 */
function writtenAsParsed(input: string, url: URL): boolean {
  if (READ_DIFFERENTLY.test(input)) return false;
  const authority = SCHEME_AND_AUTHORITY.exec(input)?.[1];
  if (authority === undefined) return false;
  const hostAndPort = HOST_AND_PORT.exec(authority);
  if (!hostAndPort) return false;
  const [, host = '', port] = hostAndPort;
  const sameHost = url.hostname.startsWith('[') ? IPV6_LITERAL.test(host) : asciiLower(host) === url.hostname;
  const samePort = port === undefined ? url.port === '' : port === url.port || (url.port === '' && port === DEFAULT_PORT[url.protocol]);
  return sameHost && samePort;
}

export function checkWebhookUrl(input: string, opts: { allowPrivateTargets: boolean }): UrlCheck {
  const checked = parseChecked(input, opts.allowPrivateTargets);
  return typeof checked === 'string' ? { ok: false, rule: checked } : { ok: true, url: checked.href };
}

/** The parsed URL, or the first rule it breaks. */
function parseChecked(input: string, allowPrivate: boolean): URL | UrlRule {
  if (input.length > MAX_WEBHOOK_URL_LENGTH) return 'length';
  if (input.length === 0 || CONTROL_OR_SPACE.test(input)) return 'format';
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return 'format';
  }
  if (!(url.protocol === 'https:' || (allowPrivate && url.protocol === 'http:'))) return 'scheme';
  if (url.username !== '' || url.password !== '' || rawAuthority(input).includes('@')) return 'credentials';
  const rule = hostRule(url.hostname);
  if (rule !== undefined && !(allowPrivate && LIFTED_BY_ALLOW_PRIVATE.has(rule))) return rule;
  if (!writtenAsParsed(input, url)) return 'format';
  // Percent-encoding can make the stored form longer than the text sent.
  if (url.href.length > MAX_WEBHOOK_URL_LENGTH) return 'length';
  return url;
}
