import { createHash } from 'node:crypto';
import type { AttemptGate } from '../../concurrency/attempt-gate.ts';
import type { LocationRecord, ServiceRecord } from '../../domain/catalog-records.ts';
import type { HoldRecord } from '../../domain/holds/record.ts';
import type { Db } from '../../store/db.ts';
import { claimKey, completeKey, releaseKey } from '../../store/idempotency.ts';
import { createHold } from '../holds/create.ts';
import type { BookingPage } from './page.ts';

/** What the details step needs of a hold (kept as the answer of a repeated post). */
export interface PageHold {
  id: string;
  staffName: string;
  date: string;
  startTime: string;
  expiresAt: number;
}

const OPERATION = 'bookingPage.hold';
const LEASE_MS = 30_000;
const WAIT_MS = 5_000;
const POLL_MS = 150;

/**
 * Step 4: the chosen time is held for the business's `holdMinutes`, through the same use case as
 * POST /v1/holds; a taken time is its 409 booking.slot_unavailable. With a `formKey` (the time
 * step's form, per rendering, with the time chosen) a second post of the same click (a double click
 * without the script) answers the first hold instead of being refused by it.
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
    formKey: string | undefined;
  },
): Promise<PageHold> {
  const hold = async (): Promise<PageHold> => {
    const ctx = {
      businessId: a.page.business.id,
      location: a.location,
      service: a.service,
      holdMinutes: a.page.settings.holdMinutes,
      now: a.now,
      gate: a.gate,
    };
    return pageHold(await createHold(db, ctx, { staffId: a.staffId, slot: { date: a.date, startTime: a.startTime } }));
  };
  if (a.formKey === undefined) return hold();
  const businessId = a.page.business.id;
  const key = `page:hold:${a.formKey}`;
  const fingerprint = createHash('sha256').update(`${OPERATION}.${key}`).digest('hex');
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const c = await claimKey(db, { businessId, key, operation: OPERATION, fingerprint, leaseMs: LEASE_MS });
    if (c.kind === 'replay') return JSON.parse(c.body) as PageHold;
    if (c.kind === 'claimed') {
      try {
        const held = await hold();
        await completeKey(db, businessId, key, 201, JSON.stringify(held));
        return held;
      } catch (err) {
        await releaseKey(db, businessId, key, c.lease).catch(() => {});
        throw err;
      }
    }
    // The first post of the click is still holding: without its answer, hold as if alone.
    if (Date.now() >= deadline) return hold();
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function pageHold(h: HoldRecord): PageHold {
  return { id: h.id, staffName: h.staffName, date: h.slot.date, startTime: h.slot.startTime, expiresAt: h.expiresAt.getTime() };
}
