import type { OfferStatus, WaitlistEntry, WaitlistOffer, WaitlistStatus } from '../domain/waitlist/entry.ts';
import type { Queryable } from './db.ts';

interface EntryRow {
  id: string;
  business_id: string;
  location_id: string;
  service_id: string;
  staff_id: string | null;
  name: string;
  phone: string;
  email: string;
  lang: string;
  from_date: string;
  to_date: string;
  earliest_time: string;
  latest_time: string;
  status: WaitlistStatus;
  booking_id: string | null;
  created_at: Date;
}

// An entry still waiting after its last date (in its location's zone) reads as expired before
// housekeeping writes it so: the database's clock and the location's zone decide.
const ENTRY_COLUMNS = `e.id, e.business_id, e.location_id, e.service_id, e.staff_id, e.name, e.phone, e.email, e.lang,
  to_char(e.from_date, 'YYYY-MM-DD') AS from_date, to_char(e.to_date, 'YYYY-MM-DD') AS to_date, e.earliest_time, e.latest_time,
  CASE WHEN e.status = 'waiting' AND e.to_date < (now() AT TIME ZONE l.timezone)::date THEN 'expired' ELSE e.status END AS status,
  e.booking_id, e.created_at`;

function toEntry(r: EntryRow): WaitlistEntry {
  return {
    id: r.id,
    businessId: r.business_id,
    locationId: r.location_id,
    serviceId: r.service_id,
    staffId: r.staff_id,
    name: r.name,
    phone: r.phone,
    email: r.email,
    lang: r.lang,
    fromDate: r.from_date,
    toDate: r.to_date,
    earliestTime: r.earliest_time,
    latestTime: r.latest_time,
    status: r.status,
    bookingId: r.booking_id,
    createdAt: new Date(r.created_at),
  };
}

export interface NewEntry {
  id: string;
  businessId: string;
  locationId: string;
  serviceId: string;
  staffId: string | null;
  name: string;
  phone: string;
  email: string;
  lang: string;
  fromDate: string;
  toDate: string;
  earliestTime: string;
  latestTime: string;
  withdrawNonce: string;
  withdrawTokenHash: string;
}

export async function insertEntry(q: Queryable, e: NewEntry): Promise<void> {
  await q.query(
    `INSERT INTO waitlist_entries (id, business_id, location_id, service_id, staff_id, name, phone, email, lang, from_date, to_date,
        earliest_time, latest_time, withdraw_nonce, withdraw_token_hash, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, date_trunc('milliseconds', clock_timestamp()))`,
    [
      e.id,
      e.businessId,
      e.locationId,
      e.serviceId,
      e.staffId,
      e.name,
      e.phone,
      e.email,
      e.lang,
      e.fromDate,
      e.toDate,
      e.earliestTime,
      e.latestTime,
      e.withdrawNonce,
      e.withdrawTokenHash,
    ],
  );
}

/**
 * The waiting entries a freed time may go to, oldest first, locked for this transaction: another
 * matching run skips them (SKIP LOCKED) rather than offering them a second time. Entries past their
 * last date are left out.
 */
export async function lockWaitingEntries(
  tx: Queryable,
  m: { locationId: string; serviceId: string | undefined; staffId: string | undefined; fromDate: string; toDate: string },
): Promise<WaitlistEntry[]> {
  const r = await tx.query<EntryRow>(
    `SELECT ${ENTRY_COLUMNS} FROM waitlist_entries e JOIN locations l ON l.id = e.location_id
      WHERE e.location_id = $1 AND e.status = 'waiting'
        AND ($2::text IS NULL OR e.service_id = $2)
        AND ($3::text IS NULL OR e.staff_id IS NULL OR e.staff_id = $3)
        AND e.from_date <= $5::date AND e.to_date >= $4::date
        AND e.to_date >= (now() AT TIME ZONE l.timezone)::date
      ORDER BY e.created_at, e.id
      FOR UPDATE OF e SKIP LOCKED`,
    [m.locationId, m.serviceId ?? null, m.staffId ?? null, m.fromDate, m.toDate],
  );
  return r.rows.map(toEntry);
}

/** The times this entry was offered and let pass ("YYYY-MM-DD HH:MM"). */
export async function passedTimesOf(q: Queryable, entryId: string): Promise<Set<string>> {
  const r = await q.query<{ t: string }>(
    `SELECT to_char(slot_date, 'YYYY-MM-DD') || ' ' || slot_start_time AS t FROM waitlist_offers
      WHERE entry_id = $1 AND status IN ('passed', 'cancelled')`,
    [entryId],
  );
  return new Set(r.rows.map((row) => row.t));
}

/** Moves an entry from one of `from` to `to`; false when it was in none of them (another run moved it). */
export async function moveEntry(
  q: Queryable,
  entryId: string,
  from: readonly WaitlistStatus[],
  to: WaitlistStatus,
  bookingId?: string,
): Promise<boolean> {
  const r = await q.query(
    `UPDATE waitlist_entries SET status = $3, booking_id = COALESCE($4, booking_id), updated_at = now()
      WHERE id = $1 AND status = ANY($2::text[])`,
    [entryId, from, to, bookingId ?? null],
  );
  return r.rowCount > 0;
}

interface OfferRow {
  id: string;
  business_id: string;
  entry_id: string;
  hold_id: string;
  staff_id: string;
  slot_date: string;
  slot_start_time: string;
  cause: string;
  claim_nonce: string;
  expires_at: Date;
  status: OfferStatus;
  booking_id: string | null;
}

const OFFER_COLUMNS = `o.id, o.business_id, o.entry_id, o.hold_id, o.staff_id, to_char(o.slot_date, 'YYYY-MM-DD') AS slot_date,
  o.slot_start_time, o.cause, o.claim_nonce, o.expires_at, o.status, o.booking_id`;

function toOffer(r: OfferRow): WaitlistOffer {
  return {
    id: r.id,
    businessId: r.business_id,
    entryId: r.entry_id,
    holdId: r.hold_id,
    staffId: r.staff_id,
    date: r.slot_date,
    startTime: r.slot_start_time,
    cause: r.cause,
    claimNonce: r.claim_nonce,
    expiresAt: new Date(r.expires_at),
    status: r.status,
    bookingId: r.booking_id,
  };
}

export interface NewOffer {
  id: string;
  businessId: string;
  entryId: string;
  holdId: string;
  staffId: string;
  date: string;
  startTime: string;
  cause: string;
  claimNonce: string;
  claimTokenHash: string;
  expiresAt: Date;
}

export async function insertOffer(q: Queryable, o: NewOffer): Promise<void> {
  await q.query(
    `INSERT INTO waitlist_offers (id, business_id, entry_id, hold_id, staff_id, slot_date, slot_start_time, cause, claim_nonce,
        claim_token_hash, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [o.id, o.businessId, o.entryId, o.holdId, o.staffId, o.date, o.startTime, o.cause, o.claimNonce, o.claimTokenHash, o.expiresAt],
  );
}

/** Whether a cause already made its offer (a matching run repeated after a crash). */
export async function causeHandled(q: Queryable, cause: string): Promise<boolean> {
  const r = await q.query('SELECT 1 FROM waitlist_offers WHERE cause = $1', [cause]);
  return r.rows.length > 0;
}

/** An offer locked for a change of its status, with its hold's state as the database's clock sees it. */
export async function lockOffer(
  tx: Queryable,
  offerId: string,
): Promise<{ offer: WaitlistOffer; due: boolean; holdStatus: string | null; holdBookingId: string | null } | undefined> {
  const r = await tx.query<OfferRow & { due: boolean; hold_status: string | null; hold_booking_id: string | null }>(
    `SELECT ${OFFER_COLUMNS}, o.expires_at <= now() AS due, h.status AS hold_status, h.booking_id AS hold_booking_id
       FROM waitlist_offers o LEFT JOIN holds h ON h.id = o.hold_id
      WHERE o.id = $1 FOR UPDATE OF o`,
    [offerId],
  );
  const row = r.rows[0];
  return row ? { offer: toOffer(row), due: row.due, holdStatus: row.hold_status, holdBookingId: row.hold_booking_id } : undefined;
}

export async function setOfferStatus(q: Queryable, offerId: string, status: OfferStatus, bookingId?: string): Promise<void> {
  await q.query('UPDATE waitlist_offers SET status = $2, booking_id = COALESCE($3, booking_id) WHERE id = $1', [
    offerId,
    status,
    bookingId ?? null,
  ]);
}

/** The open offer of an entry, if any. */
export async function openOfferOf(q: Queryable, entryId: string): Promise<WaitlistOffer | undefined> {
  const r = await q.query<OfferRow>(`SELECT ${OFFER_COLUMNS} FROM waitlist_offers o WHERE o.entry_id = $1 AND o.status = 'open'`, [
    entryId,
  ]);
  return r.rows[0] ? toOffer(r.rows[0]) : undefined;
}

/** The offer behind a claim link, with its entry and whether it is still live by the database's clock. */
export async function findOfferByClaimHash(
  q: Queryable,
  hash: string,
): Promise<{ offer: WaitlistOffer; entry: WaitlistEntry; live: boolean } | undefined> {
  const r = await q.query<OfferRow & { live: boolean; entry: EntryRow }>(
    `SELECT ${OFFER_COLUMNS}, o.expires_at > now() AS live,
            (SELECT row_to_json(x) FROM (SELECT ${ENTRY_COLUMNS} FROM waitlist_entries e JOIN locations l ON l.id = e.location_id
              WHERE e.id = o.entry_id) x) AS entry
       FROM waitlist_offers o WHERE o.claim_token_hash = $1`,
    [hash],
  );
  const row = r.rows[0];
  if (!row) return undefined;
  const entry = typeof row.entry === 'string' ? (JSON.parse(row.entry) as EntryRow) : row.entry;
  return { offer: toOffer(row), entry: toEntry(entry), live: row.live };
}

export async function findEntryByWithdrawHash(q: Queryable, hash: string): Promise<(WaitlistEntry & { serviceName: string }) | undefined> {
  const r = await q.query<EntryRow & { service_name: string }>(
    `SELECT ${ENTRY_COLUMNS}, s.name AS service_name
       FROM waitlist_entries e JOIN locations l ON l.id = e.location_id JOIN services s ON s.id = e.service_id
      WHERE e.withdraw_token_hash = $1`,
    [hash],
  );
  return r.rows[0] ? { ...toEntry(r.rows[0]), serviceName: r.rows[0].service_name } : undefined;
}

export async function lockEntry(tx: Queryable, entryId: string): Promise<WaitlistEntry | undefined> {
  const r = await tx.query<EntryRow>(
    `SELECT ${ENTRY_COLUMNS} FROM waitlist_entries e JOIN locations l ON l.id = e.location_id WHERE e.id = $1 FOR UPDATE OF e`,
    [entryId],
  );
  return r.rows[0] ? toEntry(r.rows[0]) : undefined;
}

/** Housekeeping: waiting entries past their last date (in their location's zone) end `expired`. */
export async function expirePastEntries(q: Queryable): Promise<number> {
  const r = await q.query(
    `UPDATE waitlist_entries e SET status = 'expired', updated_at = now()
       FROM locations l
      WHERE l.id = e.location_id AND e.status = 'waiting' AND e.to_date < (now() AT TIME ZONE l.timezone)::date`,
  );
  return r.rowCount;
}

/** The operator read: newest first, keyset on (created_at, id). */
export async function listEntries(
  q: Queryable,
  businessId: string,
  f: { status?: WaitlistStatus | undefined; after?: { c: string; i: string } | undefined; limit: number },
): Promise<Array<WaitlistEntry & { serviceName: string; staffName: string | null }>> {
  const r = await q.query<EntryRow & { service_name: string; staff_name: string | null }>(
    `SELECT * FROM (SELECT ${ENTRY_COLUMNS}, s.name AS service_name, st.name AS staff_name
       FROM waitlist_entries e JOIN locations l ON l.id = e.location_id JOIN services s ON s.id = e.service_id
       LEFT JOIN staff st ON st.id = e.staff_id
       WHERE e.business_id = $1
         AND ($3::timestamptz IS NULL OR (e.created_at, e.id) < ($3::timestamptz, $4::text))) x
      WHERE ($2::text IS NULL OR x.status = $2)
      ORDER BY x.created_at DESC, x.id DESC LIMIT $5`,
    [businessId, f.status ?? null, f.after?.c ?? null, f.after?.i ?? null, f.limit],
  );
  return r.rows.map((row) => ({ ...toEntry(row), serviceName: row.service_name, staffName: row.staff_name }));
}

/** The nonce the entry's withdraw link is written from (each offer message carries the link). */
export async function entryWithdrawNonce(q: Queryable, entryId: string): Promise<string> {
  const r = await q.query<{ withdraw_nonce: string }>('SELECT withdraw_nonce FROM waitlist_entries WHERE id = $1', [entryId]);
  return r.rows[0]!.withdraw_nonce;
}

/** Whether an offer can still be claimed: open, and its time not yet ended by the database's clock. */
export async function offerStillOpen(q: Queryable, offerId: string): Promise<boolean> {
  const r = await q.query<{ open: boolean }>(`SELECT (status = 'open' AND expires_at > now()) AS open FROM waitlist_offers WHERE id = $1`, [
    offerId,
  ]);
  return r.rows[0]?.open === true;
}
