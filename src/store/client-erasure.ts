import type { Queryable } from './db.ts';

/** A stored text that may hold a client's details, found and rewritten by its row's key. */
interface TextColumn {
  /** for messages: which table and column */
  name: string;
  /**
   * the matching rows' key (as text) and the text, of one business; $1 the business, $2 the
   * patterns, and with `byIds` $3 the ids of the client's bookings and waitlist entries
   */
  find: string;
  byIds?: boolean;
  /** $1 the key, $2 the new text */
  write: string;
}

// Each store of a client's details beyond the bookings, clients and waitlist rows themselves:
// the event payloads kept for the log (and sent as webhooks), the answers kept for idempotent
// replays, the jobs' payloads and errors, the messages' data, recipient and error, and the webhook
// attempts' errors (an endpoint may echo a payload back).
const TEXT_COLUMNS: readonly TextColumn[] = [
  {
    name: 'booking_events.payload',
    find: `SELECT booking_id || ':' || sequence AS key, payload AS text FROM booking_events WHERE business_id = $1 AND (payload ILIKE ANY($2::text[]) OR booking_id = ANY($3::text[]))`,
    byIds: true,
    write: `UPDATE booking_events SET payload = $2 WHERE booking_id || ':' || sequence = $1`,
  },
  {
    name: 'booking_events.reason',
    find: `SELECT booking_id || ':' || sequence AS key, reason AS text FROM booking_events WHERE business_id = $1 AND (reason ILIKE ANY($2::text[]) OR booking_id = ANY($3::text[]))`,
    byIds: true,
    write: `UPDATE booking_events SET reason = $2 WHERE booking_id || ':' || sequence = $1`,
  },
  {
    name: 'idempotency_records.response_body',
    find: `SELECT business_id || ' ' || idempotency_key AS key, response_body AS text FROM idempotency_records WHERE business_id = $1 AND response_body ILIKE ANY($2::text[])`,
    write: `UPDATE idempotency_records SET response_body = $2 WHERE business_id || ' ' || idempotency_key = $1`,
  },
  {
    name: 'jobs.payload',
    find: `SELECT id::text AS key, payload::text AS text FROM jobs WHERE business_id = $1 AND payload::text ILIKE ANY($2::text[])`,
    write: `UPDATE jobs SET payload = $2::jsonb WHERE id::text = $1`,
  },
  {
    name: 'jobs.last_error',
    find: `SELECT id::text AS key, last_error AS text FROM jobs WHERE business_id = $1 AND last_error ILIKE ANY($2::text[])`,
    write: `UPDATE jobs SET last_error = $2 WHERE id::text = $1`,
  },
  {
    name: 'job_attempts.error',
    find: `SELECT a.job_id::text || ':' || a.attempt AS key, a.error AS text FROM job_attempts a JOIN jobs j ON j.id = a.job_id
            WHERE j.business_id = $1 AND a.error ILIKE ANY($2::text[])`,
    write: `UPDATE job_attempts SET error = $2 WHERE job_id::text || ':' || attempt = $1`,
  },
  {
    name: 'messages.data',
    find: `SELECT id AS key, data::text AS text FROM messages WHERE business_id = $1
            AND (data::text ILIKE ANY($2::text[]) OR booking_id = ANY($3::text[]) OR waitlist_entry_id = ANY($3::text[]))`,
    byIds: true,
    write: `UPDATE messages SET data = $2::jsonb WHERE id = $1`,
  },
  {
    name: 'messages.recipient',
    find: `SELECT id AS key, recipient AS text FROM messages WHERE business_id = $1
            AND (recipient ILIKE ANY($2::text[]) OR booking_id = ANY($3::text[]) OR waitlist_entry_id = ANY($3::text[]))`,
    byIds: true,
    write: `UPDATE messages SET recipient = $2 WHERE id = $1`,
  },
  {
    // the key that keeps a message from being planned twice names its recipient
    name: 'messages.unique_key',
    find: `SELECT id AS key, unique_key AS text FROM messages WHERE business_id = $1
            AND (unique_key ILIKE ANY($2::text[]) OR booking_id = ANY($3::text[]) OR waitlist_entry_id = ANY($3::text[]))`,
    byIds: true,
    write: `UPDATE messages SET unique_key = $2 WHERE id = $1`,
  },
  {
    name: 'messages.last_error',
    find: `SELECT id AS key, last_error AS text FROM messages WHERE business_id = $1
            AND (last_error ILIKE ANY($2::text[]) OR booking_id = ANY($3::text[]) OR waitlist_entry_id = ANY($3::text[]))`,
    byIds: true,
    write: `UPDATE messages SET last_error = $2 WHERE id = $1`,
  },
  {
    name: 'webhook_attempts.error',
    find: `SELECT a.delivery_id || ':' || a.attempt AS key, a.error AS text FROM webhook_attempts a
             JOIN webhook_deliveries d ON d.delivery_id = a.delivery_id
            WHERE d.business_id = $1 AND a.error ILIKE ANY($2::text[])`,
    write: `UPDATE webhook_attempts SET error = $2 WHERE delivery_id || ':' || attempt = $1`,
  },
];

/** A LIKE pattern for `s` anywhere, its own wildcards matched as themselves. */
function anywhere(s: string): string {
  return `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Rewrites every stored text of the business that holds one of `marks` (in any case) with
 * `rewrite`; answers how many values changed, by column (what the erasure reports, without the
 * values).
 */
export async function rewriteStoredTexts(
  q: Queryable,
  businessId: string,
  marks: readonly string[],
  ids: readonly string[],
  rewrite: (column: string, text: string) => string,
): Promise<Record<string, number>> {
  const changed: Record<string, number> = {};
  if (marks.length === 0) return changed;
  const patterns = marks.map(anywhere);
  for (const column of TEXT_COLUMNS) {
    const params = column.byIds ? [businessId, patterns, [...ids]] : [businessId, patterns];
    const rows = await q.query<{ key: string; text: string | null }>(column.find, params);
    for (const row of rows.rows) {
      if (row.text === null) continue;
      const next = rewrite(column.name, row.text);
      if (next === row.text) continue;
      await q.query(column.write, [row.key, next]);
      changed[column.name] = (changed[column.name] ?? 0) + 1;
    }
  }
  return changed;
}

export interface ErasableClient {
  id: string;
  businessId: string;
  name: string;
  phone: string | null;
  email: string | null;
  erasedAt: Date | null;
}

export async function lockClient(q: Queryable, clientId: string): Promise<ErasableClient | undefined> {
  const r = await q.query<{
    id: string;
    business_id: string;
    name: string;
    phone: string | null;
    email: string | null;
    erased_at: Date | null;
  }>('SELECT id, business_id, name, phone, email, erased_at FROM clients WHERE id = $1 FOR UPDATE', [clientId]);
  const row = r.rows[0];
  return row && { id: row.id, businessId: row.business_id, name: row.name, phone: row.phone, email: row.email, erasedAt: row.erased_at };
}

/** The guest details each booking of the client was made with. */
export async function clientBookingGuests(
  q: Queryable,
  clientId: string,
): Promise<Array<{ bookingId: string; name: string; phone: string; email: string | null }>> {
  const r = await q.query<{ id: string; guest_name: string; guest_phone: string; guest_email: string | null }>(
    'SELECT id, guest_name, guest_phone, guest_email FROM bookings WHERE client_id = $1',
    [clientId],
  );
  return r.rows.map((b) => ({ bookingId: b.id, name: b.guest_name, phone: b.guest_phone, email: b.guest_email }));
}

/** The client's bookings still to start that occupy time (cancelled before an erasure). */
export async function futureOpenBookingIds(q: Queryable, clientId: string, now: Date): Promise<string[]> {
  const r = await q.query<{ id: string }>(
    `SELECT id FROM bookings WHERE client_id = $1 AND start_at > $2 AND status IN ('requested', 'confirmed', 'rescheduleProposed')
      ORDER BY start_at, id`,
    [clientId, now],
  );
  return r.rows.map((b) => b.id);
}

/** The waitlist entries of the business with one of these phones or emails. */
export async function waitlistEntriesOf(
  q: Queryable,
  businessId: string,
  phones: readonly string[],
  emails: readonly string[],
): Promise<Array<{ id: string; name: string; phone: string; email: string }>> {
  const r = await q.query<{ id: string; name: string; phone: string; email: string }>(
    `SELECT id, name, phone, email FROM waitlist_entries
      WHERE business_id = $1 AND (phone = ANY($2::text[]) OR lower(email) = ANY($3::text[]))`,
    [businessId, [...phones], emails.map((e) => e.toLowerCase())],
  );
  return r.rows;
}

/**
 * The stored details themselves: each booking's guest fields (its time, service, staff, price,
 * status and reference stay), the waitlist entries (withdrawn first by the caller) and the client row.
 */
export async function eraseClientRows(
  q: Queryable,
  a: { clientId: string; erasedName: string; waitlistEntryIds: readonly string[]; now: Date },
): Promise<void> {
  await q.query(`UPDATE bookings SET guest_name = $2, guest_phone = '', guest_email = NULL, note = NULL WHERE client_id = $1`, [
    a.clientId,
    a.erasedName,
  ]);
  if (a.waitlistEntryIds.length > 0) {
    await q.query(`UPDATE waitlist_entries SET name = $2, phone = '', email = '' WHERE id = ANY($1::text[])`, [
      [...a.waitlistEntryIds],
      a.erasedName,
    ]);
  }
  await q.query(
    `UPDATE clients SET name = $2, phone = NULL, email = NULL, notes = '', tags = '{}', erased_at = $3, updated_at = $3 WHERE id = $1`,
    [a.clientId, a.erasedName, a.now],
  );
}

/** Messages still to send to the erased client: never sent (their recipient is gone). */
export async function skipPendingMessagesOf(q: Queryable, clientId: string): Promise<number> {
  const r = await q.query(
    `UPDATE messages m SET status = 'skipped', last_error = 'client erased'
       FROM bookings b
      WHERE b.id = m.booking_id AND b.client_id = $1 AND m.status = 'pending' AND m.audience = 'guest'`,
    [clientId],
  );
  return r.rowCount ?? 0;
}
