import { createHash } from 'node:crypto';

/**
 * Deterministic identity of one business event: the same (event, booking, sequence) always gives
 * the same 32 hex characters, on every attempt, replay and read of the event log.
 */
export function deliveryIdFor(event: string, bookingId: string, sequence: number): string {
  return createHash('sha256').update(`${event}\u0000${bookingId}\u0000${sequence}`).digest('hex').slice(0, 32);
}
