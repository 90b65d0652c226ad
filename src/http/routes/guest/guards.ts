import type { FastifyRequest } from 'fastify';
import type { AccountLimiter } from '../../../rate-limit/account-limiter.ts';

/** guest-side.md: per client address, at most 20 holds and 5 bookings an hour. */
export const GUEST_LIMITS = { hold: 20, book: 5 } as const;
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
  const refused = await limits.hitAll([[`guest:${what}:${request.ip}`, GUEST_LIMITS[what]]], HOUR_MS);
  return refused ? Math.max(1, Math.ceil(refused.resetMs / 60_000)) : undefined;
}

/**
 * Whether a form post comes from this site: a browser names the page's origin in `Origin` (and
 * says `Sec-Fetch-Site`); one from another site, or a sandboxed frame's `null`, is refused. A client
 * that names neither (curl, a test) is let through: the form token still binds it to a rendered form.
 */
export function isCrossSitePost(request: FastifyRequest, publicBaseUrl: string): boolean {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== '' && site !== 'same-origin' && site !== 'none') return true;
  const origin = request.headers.origin;
  if (typeof origin === 'string' && origin !== '') return origin !== new URL(publicBaseUrl).origin;
  return false;
}
