import { AppError } from '../domain/errors.ts';
import type { HoldRecord, HoldStatus, VisitHold } from '../domain/holds/record.ts';
import { multirangeLiteral } from './multirange.ts';
import type { Queryable } from './db.ts';
import { isExclusionViolation } from './db-errors.ts';
import { lockStaffCalendars } from './bookings.ts';

interface HoldRow {
  id: string;
  business_id: string;
  location_id: string;
  service_id: string;
  staff_id: string;
  staff_name: string;
  slot_date: string;
  slot_start_time: string;
  slot_end_time: string;
  timezone: string;
  start_at: Date;
  end_at: Date;
  held_from: Date;
  held_to: Date;
  expires_at: Date;
  status: HoldStatus;
  service_ids: string[] | null;
  visit_hold_id: string | null;
  /** the database's clock when the row was read: liveness is the database's to decide (migration 017) */
  live: boolean;
}

const COLUMNS = `id, business_id, location_id, service_id, staff_id, staff_name, to_char(slot_date, 'YYYY-MM-DD') AS slot_date,
  slot_start_time, slot_end_time, timezone, start_at, end_at, lower(occupied) AS held_from, upper(occupied) AS held_to, expires_at, status,
  service_ids, visit_hold_id`;

function toRecord(r: HoldRow): HoldRecord {
  return {
    id: r.id,
    businessId: r.business_id,
    locationId: r.location_id,
    serviceId: r.service_id,
    staffId: r.staff_id,
    staffName: r.staff_name,
    slot: { date: r.slot_date, startTime: r.slot_start_time, endTime: r.slot_end_time },
    timezone: r.timezone,
    startAt: r.start_at,
    endAt: r.end_at,
    held: { from: r.held_from, to: r.held_to },
    expiresAt: r.expires_at,
    // An active row whose time has come is expired, whether or not a later hold has marked it yet.
    status: r.status === 'active' && !r.live ? 'expired' : r.status,
    ...(r.service_ids ? { serviceIds: r.service_ids } : {}),
    ...(r.visit_hold_id ? { visitHoldId: r.visit_hold_id } : {}),
  };
}

export interface NewHold {
  id: string;
  businessId: string;
  locationId: string;
  serviceId: string;
  staffId: string;
  staffName: string;
  slot: { date: string; startTime: string; endTime: string };
  timezone: string;
  startAt: Date;
  endAt: Date;
  occupiedFrom: Date;
  occupiedTo: Date;
  /** the processing parts of the held range, during which the staff member is free */
  processing: Array<{ from: Date; to: Date }>;
  /** the resources it needs a unit of (the trigger of migration 026 assigns the units) */
  resourceIds: string[];
  minutes: number;
  /** a visit's hold: on its first part, the visit's services in order */
  serviceIds?: string[] | undefined;
  /** a visit's later part: the first part's id */
  visitHoldId?: string | undefined;
}

/**
 * Writes a hold in one transaction: first the active holds of this staff member on this time whose
 * time has come are marked expired (so the exclusion constraint sees only live ones), then the new
 * row, whose trigger checks bookings and group sessions under the staff member's lock. A clash is
 * 409 booking.slot_unavailable. The expiry is the database's clock plus `minutes`.
 */
export async function insertHold(tx: Queryable, h: NewHold): Promise<HoldRecord> {
  try {
    // The staff member's lock before any hold row, as every booking write takes it: a create using
    // a hold takes the same two in the same order (lockHoldForUse), so the two never wait in a cycle.
    await lockStaffCalendars(tx, [h.staffId]);
    await tx.query(
      `UPDATE holds SET status = 'expired'
        WHERE staff_id = $1 AND status = 'active' AND expires_at <= now() AND occupied && tstzrange($2, $3, '[)')`,
      [h.staffId, h.occupiedFrom, h.occupiedTo],
    );
    const r = await tx.query<HoldRow>(
      `INSERT INTO holds (id, business_id, location_id, service_id, staff_id, staff_name, slot_date, slot_start_time,
                          slot_end_time, timezone, start_at, end_at, occupied, expires_at, processing, resource_ids,
                          service_ids, visit_hold_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, tstzrange($13, $14, '[)'), now() + make_interval(mins => $15),
               $16::tstzmultirange, $17::text[], $18::text[], $19)
       RETURNING ${COLUMNS}, true AS live`,
      [
        h.id,
        h.businessId,
        h.locationId,
        h.serviceId,
        h.staffId,
        h.staffName,
        h.slot.date,
        h.slot.startTime,
        h.slot.endTime,
        h.timezone,
        h.startAt,
        h.endAt,
        h.occupiedFrom,
        h.occupiedTo,
        h.minutes,
        multirangeLiteral(h.processing),
        h.resourceIds,
        h.serviceIds ?? null,
        h.visitHoldId ?? null,
      ],
    );
    return toRecord(r.rows[0]!);
  } catch (err) {
    if (isExclusionViolation(err)) throw new AppError('booking.slot_unavailable');
    throw err;
  }
}

/** A hold of the business, as it stands. */
export async function findHold(q: Queryable, businessId: string, holdId: string): Promise<HoldRecord | undefined> {
  const r = await q.query<HoldRow>(`SELECT ${COLUMNS}, expires_at > now() AS live FROM holds WHERE id = $1 AND business_id = $2`, [
    holdId,
    businessId,
  ]);
  return r.rows[0] ? toRecord(r.rows[0]) : undefined;
}

/**
 * A hold locked for a create that uses it, for the rest of the transaction: its staff member's lock
 * first (the order of every booking write and insertHold), then the row, read again under both.
 */
export async function lockHoldForUse(tx: Queryable, businessId: string, hold: HoldRecord): Promise<HoldRecord | undefined> {
  await lockStaffCalendars(tx, [hold.staffId]);
  const r = await tx.query<HoldRow>(
    `SELECT ${COLUMNS}, expires_at > now() AS live FROM holds WHERE id = $1 AND business_id = $2 FOR UPDATE`,
    [hold.id, businessId],
  );
  return r.rows[0] ? toRecord(r.rows[0]) : undefined;
}

/**
 * Whether the hold's staff member may still take it: active, still performing the service at the
 * location, and without time off over the held time since. The hold kept the time from other
 * guests, not from the business's own changes to its staff.
 */
export async function staffStillTakesHold(tx: Queryable, hold: HoldRecord): Promise<boolean> {
  const r = await tx.query(
    `SELECT 1 FROM staff s JOIN staff_services ss ON ss.staff_id = s.id AND ss.service_id = $2
      WHERE s.id = $1 AND s.active AND s.location_id = $3
        AND NOT EXISTS (SELECT 1 FROM time_off t WHERE t.staff_id = s.id AND t.start_at < $5 AND t.end_at > $4)`,
    [hold.staffId, hold.serviceId, hold.locationId, hold.held.from, hold.held.to],
  );
  return r.rows.length > 0;
}

/**
 * Marks a locked live hold used by the booking about to be written in the same transaction; before
 * that booking's row, so its trigger no longer counts the hold against it.
 */
export async function useHold(tx: Queryable, holdId: string, bookingId: string): Promise<void> {
  await tx.query(`UPDATE holds SET status = 'used', booking_id = $2 WHERE id = $1`, [holdId, bookingId]);
}

/**
 * Releases a live hold of the business; one that already ended is returned as it is (a DELETE
 * repeated is not an error). Unknown, or another business's: undefined.
 */
export async function releaseHoldRow(q: Queryable, businessId: string, holdId: string): Promise<HoldRecord | undefined> {
  // A visit's later parts are released with it (migration 031); a part is never released alone.
  const r = await q.query<HoldRow>(
    `UPDATE holds SET status = 'released'
      WHERE (id = $1 OR visit_hold_id = $1) AND business_id = $2 AND status = 'active' AND expires_at > now()
      RETURNING ${COLUMNS}, true AS live`,
    [holdId, businessId],
  );
  const released = r.rows.find((row) => row.id === holdId);
  if (released) return toRecord(released);
  // A second statement, so a release that waited for a create using the hold sees it used (a
  // read in the UPDATE's statement would see the row as it was before that create committed).
  return findHold(q, businessId, holdId);
}

/**
 * Housekeeping (the worker's hourly run): holds that ended more than a day ago. Kept until then so
 * a late create answers booking.hold_expired; after a day nobody is still typing.
 */
export async function purgeEndedHolds(q: Queryable): Promise<number> {
  const r = await q.query(`DELETE FROM holds WHERE expires_at < now() - interval '1 day'`);
  return r.rowCount;
}

/** A visit's hold by its first part's id, with every part in order; undefined when unknown or not a visit's. */
export async function findVisitHold(q: Queryable, businessId: string, holdId: string, forUpdate = false): Promise<VisitHold | undefined> {
  const r = await q.query<HoldRow>(
    `SELECT ${COLUMNS}, expires_at > now() AS live FROM holds
      WHERE (id = $1 OR visit_hold_id = $1) AND business_id = $2 ORDER BY start_at, id${forUpdate ? ' FOR UPDATE' : ''}`,
    [holdId, businessId],
  );
  const parts = r.rows.map(toRecord);
  const hold = parts.find((p) => p.id === holdId);
  return hold?.serviceIds ? { hold, parts } : undefined;
}
