import { isIP } from 'node:net';
import { classifyAddress, type AddressClass } from './ip-ranges.ts';

/**
 * The rules a webhook URL must pass when it is configured (spec, "Webhook configuration"). Each
 * broken rule has a stable name, returned to the client as `details.rule` of 422 webhook.invalid_url:
 *
 * - `length`: more than 500 characters (checked first, on the text as sent)
 * - `format`: not a URL the WHATWG parser accepts, or it contains whitespace or control characters
 *   (the parser would silently drop them, so what is stored would not be what is used)
 * - `scheme`: not `https:`
 * - `credentials`: a user name or password (`user:pass@`, `user@`, even an empty `@`)
 * - `loopback`: localhost and `*.localhost`, 127.0.0.0/8, ::1, and the unspecified 0.0.0.0/8 and ::
 * - `private`: 10/8, 172.16/12, 192.168/16, 100.64/10 (carrier-grade NAT), fc00::/7
 * - `link-local`: 169.254/16 (cloud metadata lives there), fe80::/10
 * - `reserved`: every other literal address that is not public unicast: multicast, documentation,
 *   benchmarking, 240/4 and broadcast, 6to4, NAT64, IPv4-compatible (::/96) and
 *   IPv4-translated (::ffff:0:0:0/96) IPv6 and the like
 *
 * The WHATWG parser already turns every spelling of an address into one form (decimal, octal and
 * hex IPv4, short forms like 127.1, percent-encoding, full-width digits, IPv6 zero runs), so the
 * checks see canonical addresses; IPv4-mapped IPv6 is unwrapped by classifyAddress. Host names are
 * checked without trailing dots. Other names are not resolved here: the worker checks every address
 * a name resolves to when it connects.
 *
 * With `allowPrivateTargets` (WEBHOOK_ALLOW_PRIVATE_TARGETS, development only) `http:` and
 * loopback, private and link-local targets are allowed; every other rule still holds.
 */
export type UrlRule = 'length' | 'format' | 'scheme' | 'credentials' | 'loopback' | 'private' | 'link-local' | 'reserved';

export type UrlCheck = { ok: true } | { ok: false; rule: UrlRule };

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
// eslint-disable-next-line no-control-regex
const CONTROL_OR_SPACE = /[\u0000-\u0020\u007f]/;

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

export function checkWebhookUrl(input: string, opts: { allowPrivateTargets: boolean }): UrlCheck {
  const broken = firstBrokenRule(input, opts.allowPrivateTargets);
  return broken === undefined ? { ok: true } : { ok: false, rule: broken };
}

function firstBrokenRule(input: string, allowPrivate: boolean): UrlRule | undefined {
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
  if (rule !== undefined && allowPrivate && LIFTED_BY_ALLOW_PRIVATE.has(rule)) return undefined;
  return rule;
}
