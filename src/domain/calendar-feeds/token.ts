import { hashToken, isWellFormedToken, newSecretToken } from '../members/secret-token.ts';

/**
 * A feed's secret is the one token form of sessions and invitations: 256 random bits, base64url,
 * only its SHA-256 stored. The URL is all a calendar app holds, so the token is the credential.
 */
export const newFeedToken = newSecretToken;
export const feedTokenHash = hashToken;
export const isWellFormedFeedToken = isWellFormedToken;

const SUFFIX = '.ics';

/** `{PUBLIC_BASE_URL}/ical/{token}.ics`, the address a calendar subscribes to. */
export function feedUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl}/ical/${token}${SUFFIX}`;
}

/** The token of the last path segment `{token}.ics`; undefined for anything else. */
export function tokenOfFeedFile(file: string): string | undefined {
  if (!file.endsWith(SUFFIX)) return undefined;
  const token = file.slice(0, -SUFFIX.length);
  return isWellFormedFeedToken(token) ? token : undefined;
}
