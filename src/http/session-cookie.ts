import type { FastifyReply } from 'fastify';
import type { Config } from '../config.ts';
import { isHttps, sessionCookieName } from '../domain/members/session-policy.ts';

/**
 * The session cookie as every route that signs someone in or out writes it (sign-in, invitation
 * acceptance, sign-out): HttpOnly, SameSite=Lax, Path=/, Secure on an https base URL (where the
 * name carries the `__Host-` prefix), ending with the session's absolute expiry.
 */
export function sessionCookie(config: Pick<Config, 'publicBaseUrl'>) {
  const name = sessionCookieName(config.publicBaseUrl);
  const attributes = { httpOnly: true, sameSite: 'lax', secure: isHttps(config.publicBaseUrl), path: '/' } as const;
  return {
    set(reply: FastifyReply, token: string, expiresAt: Date): void {
      void reply.setCookie(name, token, { ...attributes, expires: expiresAt });
    },
    clear(reply: FastifyReply): void {
      void reply.clearCookie(name, attributes);
    },
  };
}
