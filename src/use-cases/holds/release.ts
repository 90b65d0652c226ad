import type { HoldRecord } from '../../domain/holds/record.ts';
import type { Db } from '../../store/db.ts';

/** Releases a live hold of the business; unknown or another business's: 404 booking.hold_not_found. */
export async function releaseHold(_db: Db, _businessId: string, _holdId: string, _now: Date): Promise<HoldRecord> {
  throw new Error('releaseHold: landing in this issue');
}
