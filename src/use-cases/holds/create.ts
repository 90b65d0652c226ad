import type { AttemptGate } from '../../concurrency/attempt-gate.ts';
import type { LocationRecord, ServiceRecord } from '../../domain/catalog-records.ts';
import type { HoldRecord } from '../../domain/holds/record.ts';
import type { Db } from '../../store/db.ts';

export interface HoldContext {
  businessId: string;
  location: LocationRecord;
  service: ServiceRecord;
  /** the business's guest settings' holdMinutes (1 to 30) */
  holdMinutes: number;
  now: Date;
  gate: AttemptGate;
}

export interface HoldInput {
  staffId?: string | undefined;
  slot: { date: string; startTime: string };
}

/**
 * Holds one time of one staff member (any free one without staffId, as a create picks) for
 * holdMinutes. A taken time is 409 booking.slot_unavailable.
 */
export async function createHold(_db: Db, _ctx: HoldContext, _input: HoldInput): Promise<HoldRecord> {
  throw new Error('createHold: landing in this issue');
}
