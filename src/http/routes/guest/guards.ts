import type { FastifyRequest } from 'fastify';
import type { AccountLimiter } from '../../../rate-limit/account-limiter.ts';

/**
 * guest-side.md: per client address, at most 20 holds and 5 bookings an hour; 20 changes on manage
 * pages (cancel, reschedule, answers to a proposal: a guest makes one or two); 5 waitlist joins
 * (docs/waitlist.md).
 */
export const GUEST_LIMITS = { hold: 20, book: 5, manage: 20, waitlist: 5 } as const;
const HOUR_MS = 3_600_000;

/**
 * Counts one hold or booking attempt of the request's client address (`request.ip`, which
 * TRUST_PROXY decides) in the shared rate-limit store (Redis when configured, so every instance
 * counts together; in process while it fails: these never fail open). Answers the minutes until a
 * place frees when over the limit, else undefined.
 */
export async function overGuestLimit(
  limits: AccountLimiter,
  request: FastifyRequest,
  what: keyof typeof GUEST_LIMITS,
): Promise<number | undefined> {
  const { refused } = await limits.hitAll([[`guest:${what}:${limitAddress(request.ip)}`, GUEST_LIMITS[what]]], HOUR_MS);
  return refused ? Math.max(1, Math.ceil(refused.resetMs / 60_000)) : undefined;
}

/**
 * What one client is, for the limits: an IPv4 address, or an IPv6 address's /64, the block one
 * household or phone is given (counting whole IPv6 addresses, one client could rotate through
 * 2^64 of them and hold every time of a salon).
 */
export function limitAddress(ip: string): string {
  const address = ip.replace(/%.*$/, '');
  if (!address.includes(':')) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  const [head = '', tail] = address.split('::');
  const part = (s: string) => (s === '' ? [] : s.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])));
  const h = part(head);
  const t = tail === undefined ? [] : part(tail);
  const groups = tail === undefined ? h : [...h, ...Array<string>(Math.max(0, 8 - h.length - t.length)).fill('0'), ...t];
  return `${groups
    .slice(0, 4)
    .map((g) => (Number.parseInt(g, 16) || 0).toString(16))
    .join(':')}::/64`;
}

/**
 * Whether a form post comes from this site: a browser says so in `Sec-Fetch-Site`; one too old
 * for it names the page's origin in `Origin`, and another site's, or a sandboxed frame's `null`, is
 * refused. A client that names neither (curl, a test) is let through: the form token still binds
 * it to a rendered form.
 */
export function isCrossSitePost(request: FastifyRequest, publicBaseUrl: string): boolean {
  const site = request.headers['sec-fetch-site'];
  // The browser's own verdict decides when it gives one: a post from a no-referrer page (the manage
  // page) carries `Origin: null` though it is same-origin.
  if (typeof site === 'string' && site !== '') return site !== 'same-origin' && site !== 'none';
  const origin = request.headers.origin;
  if (typeof origin === 'string' && origin !== '') return origin !== new URL(publicBaseUrl).origin;
  return false;
}
