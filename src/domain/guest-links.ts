import { createHash, createHmac, randomBytes } from 'node:crypto';

/**
 * The guest's bearer links (the manage page, a waitlist offer's claim, a waitlist withdrawal;
 * guest-side.md). A link's token is never stored: it is the HMAC, under the server secret and a
 * purpose label, of its row's random nonce (128 bits), and rows are found by the token's SHA-256
 * hash. So a database dump opens no link, and a worker writing a message hours later can write the
 * link again from the nonce (docs/guest-messages.md "Links").
 */
export type LinkPurpose = 'manage' | 'claim' | 'withdraw';

export function newLinkNonce(): string {
  return randomBytes(16).toString('base64url');
}

/** 256 bits, URL-safe (43 characters). */
export function linkToken(secret: Buffer, purpose: LinkPurpose, nonce: string): string {
  return createHmac('sha256', secret).update(`guest-link.${purpose}.${nonce}`).digest('base64url');
}

/** What a row stores to be found by its token. */
export function linkTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A token as it can appear in a link: anything else is not looked up. */
export function isLinkTokenShape(token: unknown): token is string {
  return typeof token === 'string' && /^[A-Za-z0-9_-]{43}$/.test(token);
}
