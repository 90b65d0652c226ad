import { signatureHeader } from '../domain/webhooks/signing-secret.ts';
import type { Channel, Outgoing } from './channel.ts';

/**
 * The generic SMS gateway (guest-side.md "Notifications"): `POST SMS_GATEWAY_URL` with
 * `{ to, text, messageId }`, signed as webhooks are (`X-Service-Signature: sha256=<hex HMAC of the
 * body under SMS_GATEWAY_SECRET>`). A 2xx is accepted; anything else, or no answer within NOTIFICATION_TIMEOUT_MS, fails
 * the attempt. The gateway dedupes on `messageId`, which a repeat after a crash carries again.
 */
export function createSmsGatewayChannel(url: string, secret: string, timeoutMs: number): Channel {
  return {
    kind: 'sms',
    async send(m: Outgoing): Promise<void> {
      const body = JSON.stringify({ to: m.to, text: m.text, messageId: m.messageId });
      let res: Response;
      try {
        res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-service-signature': signatureHeader(secret, body) },
          body,
          signal: AbortSignal.timeout(timeoutMs),
          redirect: 'manual',
        });
      } catch (err) {
        // The cause's code only: a fetch error's text may hold the URL, which may hold a credential.
        const code = (err as { cause?: { code?: unknown } }).cause?.code;
        throw new Error(`SMS gateway unreachable${typeof code === 'string' ? ` (${code})` : ''}`);
      }
      await res.body?.cancel().catch(() => {});
      if (res.status < 200 || res.status >= 300) throw new Error(`SMS gateway answered ${res.status}`);
    },
    async close(): Promise<void> {},
  };
}
