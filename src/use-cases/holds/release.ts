import { AppError } from '../../domain/errors.ts';
import type { HoldRecord } from '../../domain/holds/record.ts';
import type { Db } from '../../store/db.ts';
import { releaseHoldRow } from '../../store/holds.ts';

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
