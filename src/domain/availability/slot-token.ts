import { signToken, verifyToken } from '../signed-token.ts';

export const SLOT_TOKEN_TTL_MS = 10 * 60_000;

interface SlotTokenBody {
  s: string; // session id
  r: number; // remaining seats when signed
  e: number; // expiry, epoch ms
}

/** Signed over the session, the seats left at signing and a 10-minute expiry. */
export function signSlotToken(secret: Buffer, sessionId: string, remainingSeats: number, now: Date): string {
  return signToken(secret, 'slot', { s: sessionId, r: remainingSeats, e: now.getTime() + SLOT_TOKEN_TTL_MS } satisfies SlotTokenBody);
}

/** True when the token is genuine, unexpired and was made for this session. */
export function verifySlotToken(secret: Buffer, token: string, sessionId: string, now: Date): boolean {
  const body = verifyToken<SlotTokenBody>(secret, 'slot', token);
  return body !== undefined && body.s === sessionId && typeof body.e === 'number' && body.e > now.getTime();
}
