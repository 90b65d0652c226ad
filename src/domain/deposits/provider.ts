import { createHmac, randomBytes } from 'node:crypto';

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
    const mac = createHmac('sha256', this.secret).update(`deposit.${input.bookingId}.${nonce}`).digest('base64url');
    return `${this.baseUrl}/pay/deposit/${encodeURIComponent(input.bookingId)}/${nonce}.${mac}`;
  }
}
