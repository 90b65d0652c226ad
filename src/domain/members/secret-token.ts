import { randomBytes } from 'node:crypto';
import { hashSecret } from '../api-key-secret.ts';

/**
 * Session cookie values and invitation tokens: 32 random bytes (256 bits), base64url. Only the
 * SHA-256 is stored, so a database dump signs nobody in.
 */
export function newSecretToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

/** The stored form of a token: the same SHA-256 (hex) as an API key's (api-key-secret.ts). */
export const hashToken = hashSecret;

/** A value that could be one of ours: 43 base64url characters. Anything else is refused unread. */
export function isWellFormedToken(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}

/** Emails compare case-insensitively; stored lower-cased and trimmed. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}
