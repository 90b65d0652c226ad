import type { BookingRecord } from '../domain/bookings/record.ts';
import type { ClientRecord, ClientSearch, ClientSummary } from '../domain/clients/client.ts';
import { BOOKING_COLUMNS, type BookingRow, toRecord } from './bookings.ts';
import type { Queryable } from './db.ts';

interface ClientRow {
  id: string;
  business_id: string;
  name: string;
  phone: string | null;
  email: string | null;
  notes: string;
  tags: string[];
  erased_at: Date | null;
}

interface SummaryRow extends ClientRow {
  search_text: string;
  visits: number;
  no_shows: number;
  last_visit_at: Date | null;
  next_visit_at: Date | null;
}

const CLIENT_COLUMNS = 'c.id, c.business_id, c.name, c.phone, c.email, c.notes, c.tags, c.erased_at';

function toClient(r: ClientRow): ClientRecord {
  return {
    id: r.id,
    businessId: r.business_id,
    name: r.name,
    phone: r.phone,
    email: r.email,
    notes: r.notes,
    tags: r.tags ?? [],
    erasedAt: r.erased_at,
  };
}

function toSummary(r: SummaryRow): ClientSummary {
  return {
    ...toClient(r),
    visits: Number(r.visits),
    noShows: Number(r.no_shows),
    lastVisitAt: r.last_visit_at,
    nextVisitAt: r.next_visit_at,
  };
}

/** The list's figures of each client, from its bookings in one pass (bookings_client_idx). */
const FIGURES = `
  LEFT JOIN LATERAL (
    SELECT count(*) FILTER (WHERE b.status = 'completed')::int AS visits,
           count(*) FILTER (WHERE b.status = 'noShow')::int AS no_shows,
           max(b.start_at) FILTER (WHERE b.status = 'completed') AS last_visit_at,
           min(b.start_at) FILTER (WHERE b.status IN ('requested', 'confirmed', 'rescheduleProposed') AND b.start_at > $2) AS next_visit_at
      FROM bookings b WHERE b.client_id = c.id) f ON true`;

/** A LIKE pattern that finds `text` anywhere: its own %, _ and \ are matched as themselves. */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export interface ClientListQuery {
  search: ClientSearch;
  now: Date;
  /** the (search_text, id) the previous page ended at */
  after: { s: string; i: string } | undefined;
  limit: number;
}

/** A business's clients by name (folded), then id; erased clients are not listed. */
export async function listClients(
  q: Queryable,
  businessId: string,
  f: ClientListQuery,
): Promise<Array<ClientSummary & { sortKey: string }>> {
  const params: unknown[] = [businessId, f.now];
  const where = ['c.business_id = $1', 'c.erased_at IS NULL'];
  if (f.search.kind === 'phone') {
    params.push(containing(f.search.digits));
    where.push(`c.phone_digits LIKE $${params.length}`);
  } else if (f.search.kind === 'text') {
    // folded as search_text is, by the database's unaccent, once: as a constant the pattern can use
    // the trigram index (unaccent in the WHERE would be run for every client)
    const folded = (await q.query<{ f: string }>('SELECT lower(unaccent($1)) AS f', [f.search.text])).rows[0]!.f;
    params.push(containing(folded));
    where.push(`c.search_text LIKE $${params.length}`);
  }
  if (f.after) {
    params.push(f.after.s, f.after.i);
    where.push(`(c.search_text, c.id) > ($${params.length - 1}, $${params.length})`);
  }
  params.push(f.limit);
  const r = await q.query<SummaryRow>(
    // The page first, then the figures of its rows only. A search is matched first on its own
    // (MATERIALIZED): through the trigram indexes, rather than by reading the whole list in name
    // order until a page of matches is found, which a search matching few clients would make slow.
    `SELECT ${CLIENT_COLUMNS}, c.search_text, f.visits, f.no_shows, f.last_visit_at, f.next_visit_at
       FROM (${
         f.search.kind === 'all'
           ? `SELECT * FROM clients c WHERE ${where.join(' AND ')}`
           : `WITH m AS MATERIALIZED (SELECT * FROM clients c WHERE ${where.join(' AND ')}) SELECT * FROM m c`
       } ORDER BY c.search_text, c.id LIMIT $${params.length}) c ${FIGURES}
      ORDER BY c.search_text, c.id`,
    params,
  );
  return r.rows.map((row) => ({ ...toSummary(row), sortKey: row.search_text }));
}

export async function findClient(q: Queryable, clientId: string, now: Date): Promise<ClientSummary | undefined> {
  const r = await q.query<SummaryRow>(
    `SELECT ${CLIENT_COLUMNS}, c.search_text, f.visits, f.no_shows, f.last_visit_at, f.next_visit_at FROM clients c ${FIGURES} WHERE c.id = $1`,
    [clientId, now],
  );
  return r.rows[0] ? toSummary(r.rows[0]) : undefined;
}

/** The client's bookings, newest appointment first. */
export async function listClientBookings(q: Queryable, clientId: string, limit: number): Promise<BookingRecord[]> {
  const r = await q.query<BookingRow>(
    `SELECT ${BOOKING_COLUMNS} FROM bookings WHERE client_id = $1 ORDER BY start_at DESC, id DESC LIMIT $2`,
    [clientId, limit],
  );
  return r.rows.map(toRecord);
}

export interface ClientChange {
  name?: string | undefined;
  notes?: string | undefined;
  tags?: string[] | undefined;
}

export async function updateClient(q: Queryable, clientId: string, c: ClientChange): Promise<void> {
  await q.query(
    `UPDATE clients SET name = coalesce($2, name), notes = coalesce($3, notes), tags = coalesce($4::text[], tags), updated_at = now()
      WHERE id = $1`,
    [clientId, c.name ?? null, c.notes ?? null, c.tags ?? null],
  );
}

/** The consent each booking of the client was made with (as the guest gave it), by booking id. */
export async function clientConsents(q: Queryable, clientId: string): Promise<Map<string, unknown>> {
  const r = await q.query<{ id: string; consent: unknown }>(
    'SELECT id, consent FROM bookings WHERE client_id = $1 AND consent IS NOT NULL',
    [clientId],
  );
  return new Map(r.rows.map((row) => [row.id, row.consent]));
}

/**
 * Clients past their business's retention: not erased, and no booking of theirs starts or was made
 * within `client_retention_months` before `now` (a booking still to come is recent by its start).
 */
export async function clientsPastRetention(q: Queryable, now: Date, limit: number): Promise<string[]> {
  const r = await q.query<{ id: string }>(
    `SELECT c.id FROM clients c JOIN businesses b ON b.id = c.business_id
      WHERE b.client_retention_months IS NOT NULL AND c.erased_at IS NULL
        AND NOT EXISTS (
          SELECT 1 FROM bookings x
           WHERE x.client_id = c.id
             AND greatest(x.start_at, x.created_at) >= $1::timestamptz - make_interval(months => b.client_retention_months))
      ORDER BY c.id LIMIT $2`,
    [now, limit],
  );
  return r.rows.map((row) => row.id);
}
