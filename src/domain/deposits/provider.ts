import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The payment-link port. A real payment provider plugs in here; the built-in one issues signed,
 * unguessable links under PUBLIC_BASE_URL so the flow works end to end without one.
 */
export interface DepositProvider {
  /** a bearer link for the guest to pay the deposit; throws when it cannot be made right now */
  createPaymentLink(input: { bookingId: string; amountMinor: number | null; currency: string }): Promise<string>;
}

export class DepositUnavailableError extends Error {
  constructor(message = 'deposit provider unavailable') {
    super(message);
    this.name = 'DepositUnavailableError';
  }
}

export class SignedLinkDepositProvider implements DepositProvider {
  constructor(
    private readonly baseUrl: string,
    private readonly secret: Buffer,
  ) {}

  async createPaymentLink(input: { bookingId: string }): Promise<string> {
    const nonce = randomBytes(16).toString('base64url');
    return `${this.baseUrl}/pay/deposit/${encodeURIComponent(input.bookingId)}/${nonce}.${linkMac(this.secret, input.bookingId, nonce)}`;
  }
}

function linkMac(secret: Buffer, bookingId: string, nonce: string): string {
  return createHmac('sha256', secret).update(`deposit.${bookingId}.${nonce}`).digest('base64url');
}

/** Whether `token` (the last path segment, `<nonce>.<mac>`) is one SignedLinkDepositProvider made for the booking. */
export function verifyPaymentLink(secret: Buffer, bookingId: string, token: string): boolean {
  const dot = token.indexOf('.');
  if (dot <= 0) return false;
  const nonce = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1), 'utf8');
  const expected = Buffer.from(linkMac(secret, bookingId, nonce), 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
