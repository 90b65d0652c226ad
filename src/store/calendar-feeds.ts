import type { BookingRecord } from '../domain/bookings/record.ts';
import type { FeedScope, FeedSubject, FeedTimeOff } from '../domain/calendar-feeds/subject.ts';
import { BOOKING_COLUMNS, toRecord } from './bookings.ts';
import type { Queryable } from './db.ts';

/**
 * Ends the live feed of the scope's staff member or location, if any, and stores the new one, in
 * the caller's transaction. The advisory lock makes two issues for one subject take turns, so the
 * second ends the first's feed instead of breaking the one-live-feed index.
 */
export async function replaceCalendarFeed(
  q: Queryable,
  f: { id: string; businessId: string; scope: FeedScope; tokenHash: string },
): Promise<void> {
  const [column, subjectId] = f.scope.kind === 'staff' ? ['staff_id', f.scope.staffId] : ['location_id', f.scope.locationId];
  await q.query(`SELECT pg_advisory_xact_lock(hashtextextended('calendar-feed:' || $1::text, 0))`, [subjectId]);
  await q.query(`UPDATE calendar_feeds SET ended_at = now() WHERE ${column} = $1 AND ended_at IS NULL`, [subjectId]);
  await q.query(`INSERT INTO calendar_feeds (id, business_id, ${column}, token_hash) VALUES ($1, $2, $3, $4)`, [
    f.id,
    f.businessId,
    subjectId,
    f.tokenHash,
  ]);
}

/** The live feed a token's hash names, with what its window and title need; undefined when none. */
export async function findLiveCalendarFeed(q: Queryable, tokenHash: string): Promise<FeedSubject | undefined> {
  const r = await q.query<{
    id: string;
    business_id: string;
    business_name: string;
    staff_id: string | null;
    staff_name: string | null;
    location_id: string;
    location_name: string;
    timezone: string;
    horizon_days: number;
  }>(
    `SELECT f.id, f.business_id, b.name AS business_name, f.staff_id, s.name AS staff_name,
            l.id AS location_id, l.name AS location_name, l.timezone, l.horizon_days
       FROM calendar_feeds f
       JOIN businesses b ON b.id = f.business_id
       LEFT JOIN staff s ON s.id = f.staff_id
       JOIN locations l ON l.id = COALESCE(f.location_id, s.location_id)
      WHERE f.token_hash = $1 AND f.ended_at IS NULL`,
    [tokenHash],
  );
  const row = r.rows[0];
  if (!row) return undefined;
  return {
    feedId: row.id,
    businessId: row.business_id,
    businessName: row.business_name,
    scope: row.staff_id !== null ? { kind: 'staff', staffId: row.staff_id } : { kind: 'location', locationId: row.location_id },
    name: row.staff_name ?? row.location_name,
    timezone: row.timezone,
    horizonDays: row.horizon_days,
  };
}

/**
 * The bookings in these statuses of the scope whose appointment overlaps [from, to), and the open
 * proposals whose proposed time does (a proposal holds that time, of the staff member it names);
 * the domain decides which of them a feed shows, and when. Each branch has its own index
 * (migration 019).
 */
export async function listFeedBookings(
  q: Queryable,
  scope: FeedScope,
  statuses: readonly string[],
  from: Date,
  to: Date,
): Promise<BookingRecord[]> {
  const [column, id] = scope.kind === 'staff' ? ['staff_id', scope.staffId] : ['location_id', scope.locationId];
  const proposedColumn = scope.kind === 'staff' ? 'proposed_staff_id' : 'location_id';
  const r = await q.query<Parameters<typeof toRecord>[0]>(
    // One SELECT with OR, not a UNION: the resource units are json, which has no equality to deduplicate by.
    `SELECT ${BOOKING_COLUMNS} FROM bookings
      WHERE (${column} = $1 AND status = ANY($2::text[]) AND start_at < $4 AND end_at > $3)
         OR (${proposedColumn} = $1 AND status = 'rescheduleProposed' AND proposed_start_at < $4 AND proposed_end_at > $3)
     ORDER BY start_at, id`,
    [id, [...statuses], from, to],
  );
  return r.rows.map(toRecord);
}

/** The time off of the scope's staff member, or of every staff member of its location, overlapping [from, to). */
export async function listFeedTimeOff(q: Queryable, scope: FeedScope, from: Date, to: Date): Promise<FeedTimeOff[]> {
  const who = scope.kind === 'staff' ? 's.id = $1' : 's.location_id = $1';
  const r = await q.query<{ id: string; staff_id: string; staff_name: string; start_at: Date; end_at: Date; created_at: Date }>(
    `SELECT t.id, t.staff_id, s.name AS staff_name, t.start_at, t.end_at, t.created_at
       FROM time_off t JOIN staff s ON s.id = t.staff_id
      WHERE ${who} AND t.start_at < $3 AND t.end_at > $2
      ORDER BY t.start_at, t.id`,
    [scope.kind === 'staff' ? scope.staffId : scope.locationId, from, to],
  );
  return r.rows.map((t) => ({
    id: t.id,
    staffId: t.staff_id,
    staffName: t.staff_name,
    startAt: t.start_at,
    endAt: t.end_at,
    createdAt: t.created_at,
  }));
}
