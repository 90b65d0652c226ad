import { AppError } from '../../domain/errors.ts';
import type { HoldRecord, VisitHold } from '../../domain/holds/record.ts';
import type { Db } from '../../store/db.ts';
import { findVisitHold, releaseHoldRow } from '../../store/holds.ts';

/**
 * DELETE /v1/holds/{holdId}: frees a live hold's time at once. A hold that already ended (released,
 * used, expired) is answered as it is: repeating a release is not an error. Unknown, or another
 * business's: 404 booking.hold_not_found.
 */
export async function releaseHold(db: Db, businessId: string, holdId: string): Promise<HoldRecord> {
  const hold = await releaseHoldRow(db, businessId, holdId);
  if (!hold) throw new AppError('booking.hold_not_found');
  return hold;
}

/** DELETE /v1/holds/{holdId} as the API answers it: a visit's hold with its parts (all released with it). */
export async function releasePublicHold(db: Db, businessId: string, holdId: string): Promise<{ hold: HoldRecord; visit?: VisitHold }> {
  const hold = await releaseHold(db, businessId, holdId);
  if (hold.serviceIds === undefined) return { hold };
  const visit = await findVisitHold(db, businessId, holdId);
  return visit ? { hold, visit: { ...visit, hold } } : { hold };
}
