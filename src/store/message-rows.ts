import type { MessageChannel, MessageKind, MessageStatus } from '../domain/messages/kinds.ts';
import type { Queryable } from './db.ts';

/** One message row as its send reads it. */
export interface MessageRow {
  id: string;
  businessId: string;
  bookingId: string | null;
  kind: MessageKind;
  channel: MessageChannel;
  audience: 'guest' | 'business';
  recipient: string;
  lang: string;
  stateVersion: number | null;
  reminderMinutes: number | null;
  data: Record<string, unknown>;
  status: MessageStatus;
  attempts: number;
  scheduledAt: Date;
}

/** What a send needs beside the row, read in the same statement: each statement counts in a burst of reminders. */
export interface MessageToSend extends MessageRow {
  businessName: string | null;
  /** the booking's live manage link nonce, when it has one */
  manageNonce: string | null;
  /** the booking as it is now (null: gone): a reminder goes only to a confirmed booking at its planned time */
  booking: { status: string; startAt: Date } | null;
  /** the database's clock: a reminder is never sent once its booking has started */
  dbNow: Date;
}

/** The rows of a batch of sends with what each needs, in one statement (rows not found are missing). */
export async function findMessagesToSend(q: Queryable, ids: readonly string[]): Promise<MessageToSend[]> {
  const r = await q.query<
    MessageDbRow & {
      business_name: string | null;
      manage_nonce: string | null;
      booking_status: string | null;
      booking_start_at: Date | null;
      db_now: Date;
    }
  >(
    `SELECT ${MESSAGE_COLUMNS},
            (SELECT name FROM businesses b WHERE b.id = m.business_id) AS business_name,
            (SELECT nonce FROM manage_tokens t WHERE t.booking_id = m.booking_id AND t.ended_at IS NULL) AS manage_nonce,
            bk.status AS booking_status, bk.start_at AS booking_start_at,
            now() AS db_now
       FROM messages m
       LEFT JOIN bookings bk ON bk.id = m.booking_id AND bk.business_id = m.business_id
      WHERE m.id = ANY($1::text[])`,
    [ids],
  );
  return r.rows.map((row) => ({
    ...toMessageRow(row),
    businessName: row.business_name,
    manageNonce: row.manage_nonce,
    booking: row.booking_status === null ? null : { status: row.booking_status, startAt: new Date(row.booking_start_at!) },
    dbNow: new Date(row.db_now),
  }));
}

const MESSAGE_COLUMNS = `m.id, m.business_id, m.booking_id, m.kind, m.channel, m.audience, m.recipient, m.lang, m.state_version,
  m.reminder_minutes, m.data, m.status, m.attempts, m.scheduled_at`;

interface MessageDbRow {
  id: string;
  business_id: string;
  booking_id: string | null;
  kind: MessageKind;
  channel: MessageChannel;
  audience: 'guest' | 'business';
  recipient: string;
  lang: string;
  state_version: number | null;
  reminder_minutes: number | null;
  data: Record<string, unknown> | string;
  status: MessageStatus;
  attempts: number;
  scheduled_at: Date;
}

function toMessageRow(row: MessageDbRow): MessageRow {
  return {
    id: row.id,
    businessId: row.business_id,
    bookingId: row.booking_id,
    kind: row.kind,
    channel: row.channel,
    audience: row.audience,
    recipient: row.recipient,
    lang: row.lang,
    stateVersion: row.state_version,
    reminderMinutes: row.reminder_minutes,
    data: typeof row.data === 'string' ? (JSON.parse(row.data) as Record<string, unknown>) : row.data,
    status: row.status,
    attempts: row.attempts,
    scheduledAt: new Date(row.scheduled_at),
  };
}

export async function findMessage(q: Queryable, id: string): Promise<MessageRow | undefined> {
  const r = await q.query<{
    id: string;
    business_id: string;
    booking_id: string | null;
    kind: MessageKind;
    channel: MessageChannel;
    audience: 'guest' | 'business';
    recipient: string;
    lang: string;
    state_version: number | null;
    reminder_minutes: number | null;
    data: Record<string, unknown> | string;
    status: MessageStatus;
    attempts: number;
    scheduled_at: Date;
  }>(
    `SELECT id, business_id, booking_id, kind, channel, audience, recipient, lang, state_version, reminder_minutes, data,
            status, attempts, scheduled_at
       FROM messages WHERE id = $1`,
    [id],
  );
  const row = r.rows[0];
  if (!row) return undefined;
  return {
    id: row.id,
    businessId: row.business_id,
    bookingId: row.booking_id,
    kind: row.kind,
    channel: row.channel,
    audience: row.audience,
    recipient: row.recipient,
    lang: row.lang,
    stateVersion: row.state_version,
    reminderMinutes: row.reminder_minutes,
    data: typeof row.data === 'string' ? (JSON.parse(row.data) as Record<string, unknown>) : row.data,
    status: row.status,
    attempts: row.attempts,
    scheduledAt: new Date(row.scheduled_at),
  };
}

/** How one attempt at a message row ended. `error` is short and holds no address (the caller scrubs it). */
export interface AttemptEnd {
  id: string;
  status: MessageStatus;
  error: string | null;
  /** whether the channel was tried (a skip before sending is no attempt) */
  attempted: boolean;
}

/**
 * Records a batch of attempts' ends in one statement, each while its row is still pending (a row
 * already ended by another run stays as it ended).
 */
export async function recordAttempts(q: Queryable, ends: readonly AttemptEnd[]): Promise<void> {
  if (ends.length === 0) return;
  await q.query(
    `UPDATE messages m
        SET status = e.status, last_error = e.error, attempts = m.attempts + e.attempted,
            sent_at = CASE WHEN e.status = 'sent' THEN now() ELSE m.sent_at END
       FROM unnest($1::text[], $2::text[], $3::text[], $4::int[]) AS e(id, status, error, attempted)
      WHERE m.id = e.id AND m.status = 'pending'`,
    [ends.map((e) => e.id), ends.map((e) => e.status), ends.map((e) => e.error), ends.map((e) => (e.attempted ? 1 : 0))],
  );
}
