/** business-side.md: sessions end after 12 hours without a request, and 30 days after sign-in at most. */
export const SESSION_IDLE_SECONDS = 12 * 60 * 60;
export const SESSION_MAX_SECONDS = 30 * 24 * 60 * 60;

/**
 * The cookie's name. On https it carries the `__Host-` prefix, which browsers accept only with
 * `Secure`, `Path=/` and no `Domain`: no subdomain and no plain-http page can plant or shadow it.
 */
export function sessionCookieName(publicBaseUrl: string): string {
  return isHttps(publicBaseUrl) ? '__Host-bk_session' : 'bk_session';
}

export function isHttps(publicBaseUrl: string): boolean {
  return new URL(publicBaseUrl).protocol === 'https:';
}

/**
 * CSRF rule: a cookie-authenticated write must name our own origin in `Origin` (or, without it,
 * `Referer`). `present: false` when the request names no origin at all (curl, a server), which a
 * cookie write may not do but a sign-in may.
 */
export function originCheck(
  headers: { origin?: string | undefined; referer?: string | undefined },
  publicBaseUrl: string,
): { present: boolean; same: boolean } {
  const own = new URL(publicBaseUrl).origin;
  const origin = headers.origin;
  if (origin !== undefined && origin !== '') return { present: true, same: origin === own };
  const referer = headers.referer;
  if (referer !== undefined && referer !== '') {
    try {
      return { present: true, same: new URL(referer).origin === own };
    } catch {
      return { present: true, same: false };
    }
  }
  return { present: false, same: false };
}
