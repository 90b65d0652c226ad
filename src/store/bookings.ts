import type { BookingChange as DomainBookingChange } from '../domain/bookings/change.ts';
import type { BookingRecord } from '../domain/bookings/record.ts';
import type { BookingDeposit } from '../domain/deposits/status.ts';
import type { BookingStatus } from '../domain/bookings/states.ts';
import type { SourceRow } from '../domain/bookings/source.ts';
import type { BookedPrice } from '../domain/bookings/price.ts';
import { type RawBuilder, sql } from 'kysely';
import { appendEventsCtes, eventParams, type NewEvent } from './booking-events.ts';
import type { Queryable } from './db.ts';
import { isExclusionViolation, isQuotaExceeded } from './db-errors.ts';
import { completionParams, settledKeyCtes, type KeyCompletion } from './idempotency.ts';
import { multirangeLiteral } from './multirange.ts';
import { takeQuotaCte } from './quota.ts';
import { queryBuilder, selectList } from './sql-builder.ts';

export interface BookingRow {
  id: string;
  business_id: string;
  location_id: string;
  service_id: string;
  staff_id: string | null;
  session_id: string | null;
  public_reference: string;
  status: BookingStatus;
  state_version: number;
  acceptance_mode: 'manual' | 'automatic';
  service_name: string;
  staff_name: string | null;
  location_snapshot: BookingRecord['locationSnapshot'];
  timezone: string;
  requested_date: string | null;
  requested_start_time: string | null;
  start_at: Date;
  end_at: Date;
  slot_date: string;
  slot_start_time: string;
  slot_end_time: string;
  proposed_staff_id: string | null;
  proposed_start_at: Date | null;
  proposed_end_at: Date | null;
  proposed_date: string | null;
  proposed_start_time: string | null;
  proposed_end_time: string | null;
  guest_name: string;
  note: string | null;
  service_location: BookingRecord['serviceLocation'];
  created_at: Date;
  updated_at: Date;
  processing_minutes: string | null;
  resource_units: Array<{ resourceId: string; name: string; unit: number }> | null;
  visit_id: string | null;
}

// Guest phone and email are written but never selected: nothing read here can leak them.
export const BOOKING_COLUMNS = `id, business_id, location_id, service_id, staff_id, session_id, public_reference, status,
  state_version, acceptance_mode, service_name, staff_name, location_snapshot, timezone, requested_date,
  requested_start_time, start_at, end_at, slot_date, slot_start_time, slot_end_time, proposed_staff_id,
  proposed_start_at, proposed_end_at, proposed_date, proposed_start_time, proposed_end_time, guest_name, note,
  service_location, created_at, updated_at, visit_id,
  -- the processing parts as minutes from the start of the time they belong to (the proposal's while one is open)
  (SELECT string_agg(date_part('epoch', lower(r) - anchor.at) / 60 || ' ' || date_part('epoch', upper(r) - anchor.at) / 60, ' ')
     FROM unnest(processing) AS r,
          (SELECT CASE WHEN status = 'rescheduleProposed' AND proposed_start_at IS NOT NULL THEN proposed_start_at ELSE start_at END AS at) AS anchor
  ) AS processing_minutes,
  -- jsonb, not json: json has no equality, and the calendar feed's UNION compares whole rows
  (SELECT jsonb_agg(jsonb_build_object('resourceId', o.resource_id, 'name', r.name, 'unit', o.unit) ORDER BY r.name, o.resource_id)
     FROM occupancy o JOIN resources r ON r.id = o.resource_id WHERE o.booking_id = bookings.id) AS resource_units`;

export function toRecord(r: BookingRow): BookingRecord {
  return {
    id: r.id,
    businessId: r.business_id,
    locationId: r.location_id,
    serviceId: r.service_id,
    staffId: r.staff_id,
    sessionId: r.session_id,
    publicReference: r.public_reference,
    status: r.status,
    stateVersion: r.state_version,
    acceptanceMode: r.acceptance_mode,
    serviceName: r.service_name,
    staffName: r.staff_name,
    locationSnapshot: r.location_snapshot,
    timezone: r.timezone,
    requestedDate: r.requested_date,
    requestedStartTime: r.requested_start_time,
    startAt: r.start_at,
    endAt: r.end_at,
    slot: { date: r.slot_date, startTime: r.slot_start_time, endTime: r.slot_end_time },
    proposed:
      r.proposed_staff_id && r.proposed_start_at && r.proposed_end_at
        ? {
            staffId: r.proposed_staff_id,
            startAt: r.proposed_start_at,
            endAt: r.proposed_end_at,
            slot: { date: r.proposed_date!, startTime: r.proposed_start_time!, endTime: r.proposed_end_time! },
          }
        : null,
    guestName: r.guest_name,
    note: r.note,
    serviceLocation: r.service_location,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    processing: parseMinutePairs(r.processing_minutes),
    resources: typeof r.resource_units === 'string' ? JSON.parse(r.resource_units) : (r.resource_units ?? []),
    ...(r.visit_id ? { visitId: r.visit_id } : {}),
  };
}

function parseMinutePairs(text: string | null): Array<{ fromMinute: number; toMinute: number }> {
  if (text === null || text === '') return [];
  const n = text.split(' ').map(Number);
  const out: Array<{ fromMinute: number; toMinute: number }> = [];
  for (let i = 0; i + 1 < n.length; i += 2) out.push({ fromMinute: Math.round(n[i]!), toMinute: Math.round(n[i + 1]!) });
  return out;
}

export interface NewBooking {
  record: BookingRecord;
  guestPhone: string;
  guestEmail: string | null;
  consent: unknown;
  depositTerms: unknown;
  /** what a deposit booking owes (it starts pending); null for every other booking */
  deposit: Omit<BookingDeposit, 'status' | 'recordedAt'> | null;
  /** who made it (domain/bookings/source.ts): shown to the business only */
  source: SourceRow;
  /** what it costs as made (domain/bookings/price.ts); kept when the service's price changes */
  price: BookedPrice | null;
  /** the held range, buffers included */
  occupiedFrom: Date;
  occupiedTo: Date;
  /** the processing parts of the held range, during which the staff member is free */
  processing: Array<{ from: Date; to: Date }>;
  /** the resources it needs a unit of (the trigger of migration 026 assigns the units) */
  resourceIds: string[];
}

/** What a public create writes with its booking row, in the same statement. */
export interface CreateWrites {
  /** count the booking against this business's monthly quota (`quota_exceeded` when used up) */
  quotaBusinessId: string;
  /**
   * the idempotency key's stored response; absent for a visit's parts before its last, whose
   * statement stores it (the parts share one transaction, so the answer commits with all of them)
   */
  completion?: KeyCompletion | undefined;
}

/**
 * Inserts the booking together with its first events (and their outbox rows) — and for a public
 * create its quota count and idempotency response — in one statement, which outside a
 * transaction is a transaction of its own. The answer:
 * - `inserted`;
 * - `reference_taken`: the public reference is already taken (nothing is written: draw another
 *   one and build the events again, they carry the reference);
 * - `key_settled`: the idempotency key is no longer this request's claim (settledKeyCtes); nothing
 *   is written;
 * - `time_taken`: the staff member's time overlaps a booking or a session of theirs;
 * - `quota_exceeded`: the business's monthly booking quota is used up.
 * The reference clash is absorbed by ON CONFLICT instead of an error; an overlap raises the
 * exclusion violation (23P01) and the quota BKQ01, which undo the statement (see db-errors.ts). The
 * insert trigger takes the staff member's calendar lock (migration 003) before the constraint is
 * checked.
 */
export async function insertBooking(
  q: Queryable,
  n: NewBooking,
  events: readonly NewEvent[],
  create?: CreateWrites,
): Promise<'inserted' | 'reference_taken' | 'key_settled' | 'time_taken' | 'quota_exceeded'> {
  // The insert is compiled first, so its parameters are $1..$k and each CTE after it numbers its
  // own from the next free one: a column added to the row cannot shift a neighbour's parameters.
  const completion = create?.completion;
  const insert = bookingInsert(bookingColumns(n), completion !== undefined).compile();
  const params: unknown[] = [...insert.parameters];
  const eventsAt = params.length + 1;
  params.push(...eventParams(events));
  const quotaAt = params.length + 1;
  const key = completion ? settledKeyCtes(quotaAt + 1, 'booking') : undefined;
  if (create) params.push(create.quotaBusinessId);
  if (completion) params.push(...completionParams(completion));
  const counts = key
    ? '(SELECT count(*) FROM held)::int AS held, (SELECT count(*) FROM quota) AS counted, (SELECT count(*) FROM settled)::int AS settled'
    : create
      ? '1 AS held, (SELECT count(*) FROM quota) AS counted, 0 AS settled'
      : '1 AS held, 0 AS settled';
  const statement = q.query<{ inserted: number; held: number; settled: number }>(
    `WITH ${key ? `${key.held}, ` : ''}booking AS (${insert.sql}), ${appendEventsCtes(eventsAt, 'booking')}${create ? `, ${takeQuotaCte(quotaAt, 'booking')}` : ''}${key ? `, ${key.settled}` : ''}
     SELECT (SELECT count(*) FROM booking)::int AS inserted, (SELECT count(*) FROM wake) AS woken, ${counts}`,
    params,
  );
  let r: Awaited<typeof statement>;
  try {
    r = await statement;
  } catch (err) {
    if (isExclusionViolation(err)) return 'time_taken';
    if (isQuotaExceeded(err)) return 'quota_exceeded';
    throw err;
  }
  const row = r.rows[0]!;
  if (row.held === 0) return 'key_settled';
  if (row.inserted === 0) return 'reference_taken';
  if (completion && row.settled > 0) completion.written = true;
  return 'inserted';
}

/** Every column insertBooking writes, by name: a row that leaves one out does not compile. */
interface BookingInsertRow {
  id: string;
  business_id: string;
  location_id: string;
  service_id: string;
  staff_id: string | null;
  session_id: string | null;
  public_reference: string;
  status: BookingStatus;
  state_version: number;
  acceptance_mode: 'manual' | 'automatic';
  service_name: string;
  staff_name: string | null;
  location_snapshot: string;
  timezone: string;
  requested_date: string | null;
  requested_start_time: string | null;
  start_at: Date;
  end_at: Date;
  slot_date: string;
  slot_start_time: string;
  slot_end_time: string;
  occupied: RawBuilder<unknown>;
  occupied_staff_id: string | null;
  guest_name: string;
  guest_phone: string;
  guest_email: string | null;
  note: string | null;
  service_location: string | null;
  consent: string | null;
  deposit_terms: string | null;
  api_source_key_id: string | null;
  created_at: Date;
  updated_at: Date;
  deposit_status: 'pending' | null;
  deposit_amount_minor: number | null;
  deposit_currency: string | null;
  deposit_due_at: Date | null;
  source: SourceRow['kind'];
  source_member_id: string | null;
  price_type: BookedPrice['type'] | null;
  price_minor: number | null;
  price_currency: string | null;
  processing: RawBuilder<unknown>;
  resource_ids: string[];
  visit_id: string | null;
}

function bookingColumns(n: NewBooking): BookingInsertRow {
  const b = n.record;
  return {
    id: b.id,
    business_id: b.businessId,
    location_id: b.locationId,
    service_id: b.serviceId,
    staff_id: b.staffId,
    session_id: b.sessionId,
    public_reference: b.publicReference,
    status: b.status,
    state_version: b.stateVersion,
    acceptance_mode: b.acceptanceMode,
    service_name: b.serviceName,
    staff_name: b.staffName,
    location_snapshot: JSON.stringify(b.locationSnapshot),
    timezone: b.timezone,
    requested_date: b.requestedDate,
    requested_start_time: b.requestedStartTime,
    start_at: b.startAt,
    end_at: b.endAt,
    slot_date: b.slot.date,
    slot_start_time: b.slot.startTime,
    slot_end_time: b.slot.endTime,
    occupied: sql`tstzrange(${n.occupiedFrom}, ${n.occupiedTo}, '[)')`,
    occupied_staff_id: b.staffId,
    guest_name: b.guestName,
    guest_phone: n.guestPhone,
    guest_email: n.guestEmail,
    note: b.note,
    service_location: b.serviceLocation ? JSON.stringify(b.serviceLocation) : null,
    consent: n.consent === null ? null : JSON.stringify(n.consent),
    deposit_terms: n.depositTerms === null ? null : JSON.stringify(n.depositTerms),
    api_source_key_id: n.source.apiKeyId,
    created_at: b.createdAt,
    updated_at: b.updatedAt,
    deposit_status: n.deposit ? 'pending' : null,
    deposit_amount_minor: n.deposit?.amountMinor ?? null,
    deposit_currency: n.deposit?.currency ?? null,
    deposit_due_at: n.deposit?.dueAt ?? null,
    source: n.source.kind,
    source_member_id: n.source.memberId,
    price_type: n.price?.type ?? null,
    price_minor: n.price?.amountMinor ?? null,
    price_currency: n.price?.currency ?? null,
    processing: sql`${multirangeLiteral(n.processing)}::tstzmultirange`,
    resource_ids: n.resourceIds,
    visit_id: n.record.visitId ?? null,
  };
}

const qb = queryBuilder<{ bookings: BookingInsertRow; held: Record<string, never> }>();

/**
 * `INSERT … SELECT` rather than VALUES so that, with an idempotency claim, the row is written only
 * when the CTE `held` (settledKeyCtes) has the claim. A reference clash inserts nothing (ON CONFLICT)
 * instead of raising, so the caller can draw another reference.
 */
function bookingInsert(row: BookingInsertRow, whenHeld: boolean) {
  const select = whenHeld ? qb.selectFrom('held').select(selectList(row)) : qb.selectNoFrom(selectList(row));
  return qb
    .insertInto('bookings')
    .columns(Object.keys(row) as Array<keyof BookingInsertRow>)
    .expression(select)
    .onConflict((oc) => oc.column('public_reference').doNothing())
    .returning(sql<number>`1`.as('one'));
}

/**
 * Serialises the updates whose result occupies time of these staff members; an insert takes the
 * same lock in its trigger (migration 003), before the constraint is checked. Without it, two transactions writing clashing rows at the same moment can
 * each find the other's uncommitted row in the exclusion constraint's index and wait for each other:
 * a deadlock that PostgreSQL resolves only after deadlock_timeout (1 s) by aborting one of them.
 * Under this lock a writer only ever meets committed rows and gets its 23P01 at once. Locks are
 * taken in one fixed order (sorted ids), so two writers never wait for each other crosswise.
 */
export async function lockStaffCalendars(q: Queryable, staffIds: ReadonlyArray<string | null | undefined>): Promise<void> {
  const ids = [...new Set(staffIds.filter((id): id is string => typeof id === 'string'))].sort();
  if (ids.length === 0) return;
  // unnest yields the ids in array order, so the locks are taken in that order
  await q.query(`SELECT pg_advisory_xact_lock(hashtextextended('booking-staff:' || id, 0)) FROM unnest($1::text[]) AS t(id)`, [ids]);
}

/** Locks the row: every state change reads the booking FOR UPDATE first, so changes serialise. */
export async function findBookingForUpdate(q: Queryable, businessId: string | null, bookingId: string): Promise<BookingRecord | undefined> {
  const r = await q.query<BookingRow>(
    `SELECT ${BOOKING_COLUMNS} FROM bookings WHERE id = $1 AND ($2::text IS NULL OR business_id = $2) FOR UPDATE`,
    [bookingId, businessId],
  );
  return r.rows[0] ? toRecord(r.rows[0]) : undefined;
}

export async function findBooking(q: Queryable, businessId: string | null, bookingId: string): Promise<BookingRecord | undefined> {
  const r = await q.query<BookingRow>(`SELECT ${BOOKING_COLUMNS} FROM bookings WHERE id = $1 AND ($2::text IS NULL OR business_id = $2)`, [
    bookingId,
    businessId,
  ]);
  return r.rows[0] ? toRecord(r.rows[0]) : undefined;
}

/** The domain decides the change (domain/bookings/plan-change.ts); the store only writes it. */
export type BookingChange = DomainBookingChange;

/** `time_taken`: the new time overlaps another booking or a session of the staff member. */
export async function updateBooking(q: Queryable, id: string, c: BookingChange): Promise<'updated' | 'time_taken'> {
  const statement = q.query(
    `UPDATE bookings SET status = $2, state_version = $3, acceptance_mode = $4, staff_id = $5, staff_name = $6,
        start_at = $7, end_at = $8, slot_date = $9, slot_start_time = $10, slot_end_time = $11,
        proposed_staff_id = $12, proposed_start_at = $13, proposed_end_at = $14, proposed_date = $15,
        proposed_start_time = $16, proposed_end_time = $17, occupied_staff_id = $18,
        occupied = tstzrange($19, $20, '[)'), updated_at = $21, processing = $22::tstzmultirange,
        resource_ids = $23::text[]
      WHERE id = $1`,
    [
      id,
      c.status,
      c.stateVersion,
      c.acceptanceMode,
      c.staffId,
      c.staffName,
      c.startAt,
      c.endAt,
      c.slot.date,
      c.slot.startTime,
      c.slot.endTime,
      c.proposed?.staffId ?? null,
      c.proposed?.startAt ?? null,
      c.proposed?.endAt ?? null,
      c.proposed?.slot.date ?? null,
      c.proposed?.slot.startTime ?? null,
      c.proposed?.slot.endTime ?? null,
      c.occupiedStaffId,
      c.occupiedFrom,
      c.occupiedTo,
      c.updatedAt,
      multirangeLiteral(c.processing),
      c.resourceIds,
    ],
  );
  try {
    await statement;
    return 'updated';
  } catch (err) {
    if (isExclusionViolation(err)) return 'time_taken';
    throw err;
  }
}

export interface BookingListFilter {
  businessId: string;
  status?: BookingStatus | undefined;
  locationId?: string | undefined;
  fromDate?: string | undefined;
  toDate?: string | undefined;
  /** keyset position: the last row of the previous page */
  after?: { createdAt: string; id: string } | undefined;
  limit: number;
}

/** Newest created first; keyset pagination on (created_at, id) so pages never skip or repeat. */
export async function listBookings(q: Queryable, f: BookingListFilter): Promise<BookingRecord[]> {
  const r = await q.query<BookingRow>(
    `SELECT ${BOOKING_COLUMNS} FROM bookings
      WHERE business_id = $1
        AND ($2::text IS NULL OR status = $2)
        AND ($3::text IS NULL OR location_id = $3)
        AND ($4::date IS NULL OR slot_date >= $4::date)
        AND ($5::date IS NULL OR slot_date <= $5::date)
        AND ($6::timestamptz IS NULL OR (created_at, id) < ($6::timestamptz, $7::text))
      ORDER BY created_at DESC, id DESC
      LIMIT $8`,
    [
      f.businessId,
      f.status ?? null,
      f.locationId ?? null,
      f.fromDate ?? null,
      f.toDate ?? null,
      f.after?.createdAt ?? null,
      f.after?.id ?? null,
      f.limit,
    ],
  );
  return r.rows.map(toRecord);
}
