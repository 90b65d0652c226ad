import type { AttemptGate } from '../../concurrency/attempt-gate.ts';
import type { LocationRecord, ServiceRecord } from '../../domain/catalog-records.ts';
import type { HoldRecord } from '../../domain/holds/record.ts';
import type { Db } from '../../store/db.ts';
import { createHold } from '../holds/create.ts';
import type { BookingPage } from './page.ts';

/**
 * Step 4: the chosen time is held for the business's `holdMinutes`, through the same use case as
 * POST /v1/holds; a taken time is its 409 booking.slot_unavailable.
 */
export async function holdPageTime(
  db: Db,
  a: {
    page: BookingPage;
    location: LocationRecord;
    service: ServiceRecord;
    staffId: string | undefined;
    date: string;
    startTime: string;
    now: Date;
    gate: AttemptGate;
  },
): Promise<HoldRecord> {
  const ctx = {
    businessId: a.page.business.id,
    location: a.location,
    service: a.service,
    holdMinutes: a.page.settings.holdMinutes,
    now: a.now,
    gate: a.gate,
  };
  return createHold(db, ctx, { staffId: a.staffId, slot: { date: a.date, startTime: a.startTime } });
}
