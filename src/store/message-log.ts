import type { StoredMessage } from '../domain/messages/log.ts';
import type { MessageStatus } from '../domain/messages/kinds.ts';
import type { Queryable } from './db.ts';

interface MessageRow {
  id: string;
  business_id: string;
  booking_id: string | null;
  waitlist_entry_id: string | null;
  kind: StoredMessage['kind'];
  channel: StoredMessage['channel'];
  audience: StoredMessage['audience'];
  recipient: string;
  recipient_member_id: string | null;
  lang: string;
  state_version: number | null;
  reminder_minutes: number | null;
  unique_key: string;
  resend_of: string | null;
  data: Record<string, unknown> | null;
  status: MessageStatus;
  attempts: number;
  last_error: string | null;
  scheduled_at: Date;
  sent_at: Date | null;
}

const COLUMNS = `id, business_id, booking_id, waitlist_entry_id, kind, channel, audience, recipient, recipient_member_id, lang,
  state_version, reminder_minutes, unique_key, resend_of, data, status, attempts, last_error, scheduled_at, sent_at`;

function toMessage(r: MessageRow): StoredMessage {
  return {
    id: r.id,
    businessId: r.business_id,
    bookingId: r.booking_id,
    waitlistEntryId: r.waitlist_entry_id,
    kind: r.kind,
    channel: r.channel,
    audience: r.audience,
    recipient: r.recipient,
    recipientMemberId: r.recipient_member_id,
    lang: r.lang,
    stateVersion: r.state_version,
    reminderMinutes: r.reminder_minutes,
    uniqueKey: r.unique_key,
    resendOf: r.resend_of,
    data: r.data ?? {},
    status: r.status,
    attempts: r.attempts,
    lastError: r.last_error,
    scheduledAt: new Date(r.scheduled_at),
    sentAt: r.sent_at === null ? null : new Date(r.sent_at),
  };
}

/** Where a page of the log ends: the latest scheduled first, the id breaking ties. */
export interface LogPosition {
  scheduledAt: string;
  id: string;
}

export interface LogFilter {
  businessId: string;
  bookingId?: string | undefined;
  status?: MessageStatus | undefined;
  after?: LogPosition | undefined;
  limit: number;
}

/** The messages of a business (or of one of its bookings), the latest scheduled first. */
export async function listLoggedMessages(q: Queryable, f: LogFilter): Promise<StoredMessage[]> {
  const r = await q.query<MessageRow>(
    `SELECT ${COLUMNS} FROM messages
      WHERE business_id = $1
        AND ($2::text IS NULL OR booking_id = $2)
        AND ($3::text IS NULL OR status = $3)
        AND ($4::timestamptz IS NULL OR (scheduled_at, id) < ($4::timestamptz, $5::text))
      ORDER BY scheduled_at DESC, id DESC
      LIMIT $6`,
    [f.businessId, f.bookingId ?? null, f.status ?? null, f.after?.scheduledAt ?? null, f.after?.id ?? null, f.limit],
  );
  return r.rows.map(toMessage);
}

export async function findMessage(q: Queryable, id: string): Promise<StoredMessage | undefined> {
  const r = await q.query<MessageRow>(`SELECT ${COLUMNS} FROM messages WHERE id = $1`, [id]);
  return r.rows[0] ? toMessage(r.rows[0]) : undefined;
}

/** Every message of these bookings or waitlist entries, earliest first (a client's export). */
export async function listMessagesOf(q: Queryable, bookingIds: readonly string[], entryIds: readonly string[]): Promise<StoredMessage[]> {
  if (bookingIds.length === 0 && entryIds.length === 0) return [];
  const r = await q.query<MessageRow>(
    `SELECT ${COLUMNS} FROM messages WHERE booking_id = ANY($1::text[]) OR waitlist_entry_id = ANY($2::text[]) ORDER BY scheduled_at, id`,
    [[...bookingIds], [...entryIds]],
  );
  return r.rows.map(toMessage);
}
