import { createHash } from 'node:crypto';
import type { AttemptGate } from '../../concurrency/attempt-gate.ts';
import type { LocationRecord, ServiceRecord } from '../../domain/catalog-records.ts';
import type { HoldRecord } from '../../domain/holds/record.ts';
import type { Db } from '../../store/db.ts';
import { claimKey, completeKey, releaseKey } from '../../store/idempotency.ts';
import { isAppError } from '../../domain/errors.ts';
import { createHold } from '../holds/create.ts';
import { createVisitHold } from '../holds/visit-hold.ts';
import { releaseHold } from '../holds/release.ts';
import type { BookingPage } from './page.ts';

/** What the details step needs of a hold (kept as the answer of a repeated post). */
export interface PageHold {
  id: string;
  staffName: string;
  date: string;
  startTime: string;
  expiresAt: number;
  /** a visit's hold: every part in order, the first included */
  parts?: Array<{ serviceId: string; staffName: string; startTime: string; endTime: string }>;
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
  return once(db, a.page.business.id, a.formKey, async () => {
    const ctx = {
      businessId: a.page.business.id,
      location: a.location,
      service: a.service,
      holdMinutes: a.page.settings.holdMinutes,
      now: a.now,
      gate: a.gate,
    };
    return pageHold(await createHold(db, ctx, { staffId: a.staffId, slot: { date: a.date, startTime: a.startTime } }));
  });
}

/**
 * Step 4 of a visit (salon-scheduling.md "Visits"): every part held at once through the same use
 * case as POST /v1/holds with `serviceIds`, the same double-click rule as one service's hold.
 */
export async function holdPageVisit(
  db: Db,
  a: {
    page: BookingPage;
    location: LocationRecord;
    /** the visit's services in order, each one the page offers (visitOfQuery) */
    services: ServiceRecord[];
    staffId: string | undefined;
    date: string;
    startTime: string;
    now: Date;
    formKey: string | undefined;
  },
): Promise<PageHold> {
  return once(db, a.page.business.id, a.formKey, async () => {
    const ctx = {
      businessId: a.page.business.id,
      location: a.location,
      services: a.services,
      holdMinutes: a.page.settings.holdMinutes,
      now: a.now,
    };
    const visit = await createVisitHold(db, ctx, { staffId: a.staffId, slot: { date: a.date, startTime: a.startTime } });
    return {
      ...pageHold(visit.hold),
      parts: visit.parts.map((p) => ({
        serviceId: p.serviceId,
        staffName: p.staffName,
        startTime: p.slot.startTime,
        endTime: p.slot.endTime,
      })),
    };
  });
}

/** `hold` once per form key: a repeated post of one click answers the first one's hold. */
async function once(db: Db, businessId: string, formKey: string | undefined, hold: () => Promise<PageHold>): Promise<PageHold> {
  if (formKey === undefined) return hold();
  const key = `page:hold:${formKey}`;
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

/**
 * The guest went back from the details step to choose another time: their hold is released at once
 * rather than keeping the time from everyone until it expires. One already gone is no matter.
 */
export async function releasePageHold(db: Db, businessId: string, holdId: string): Promise<void> {
  await releaseHold(db, businessId, holdId).catch((err: unknown) => {
    if (!isAppError(err) || err.code !== 'booking.hold_not_found') throw err;
  });
}
