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
  /** the database's clock: a reminder is never sent once its booking has started */
  dbNow: Date;
}

export async function findMessageToSend(q: Queryable, id: string): Promise<MessageToSend | undefined> {
  const r = await q.query<MessageDbRow & { business_name: string | null; manage_nonce: string | null; db_now: Date }>(
    `SELECT ${MESSAGE_COLUMNS},
            (SELECT name FROM businesses b WHERE b.id = m.business_id) AS business_name,
            (SELECT nonce FROM manage_tokens t WHERE t.booking_id = m.booking_id AND t.ended_at IS NULL) AS manage_nonce,
            now() AS db_now
       FROM messages m WHERE m.id = $1`,
    [id],
  );
  const row = r.rows[0];
  if (!row) return undefined;
  return { ...toMessageRow(row), businessName: row.business_name, manageNonce: row.manage_nonce, dbNow: new Date(row.db_now) };
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

/**
 * Records one attempt's end while the row is still pending (a row already ended by another run
 * stays as it ended). `error` is short and holds no address (the caller scrubs it).
 */
export async function recordAttempt(
  q: Queryable,
  id: string,
  end: { status: MessageStatus; error: string | null; attempted: boolean },
): Promise<void> {
  await q.query(
    `UPDATE messages
        SET status = $2, last_error = $3, attempts = attempts + $4::int,
            sent_at = CASE WHEN $2 = 'sent' THEN now() ELSE sent_at END
      WHERE id = $1 AND status = 'pending'`,
    [id, end.status, end.error, end.attempted ? 1 : 0],
  );
}
