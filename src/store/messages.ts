import type { NewMessage } from '../domain/messages/kinds.ts';
import type { Queryable } from './db.ts';
import { planJob } from './jobs.ts';

/** The job kind that sends one message row (src/jobs/handlers/message-send.ts). */
export const MESSAGE_SEND_KIND = 'message.send';

/**
 * Plans messages in the caller's transaction: each row once per unique key (a planning run again
 * after a crash writes nothing twice), and its send job due at its scheduled time. Returns the ids
 * of the rows written now.
 */
export async function planMessages(tx: Queryable, rows: readonly NewMessage[]): Promise<string[]> {
  const planned: string[] = [];
  for (const m of rows) {
    const r = await tx.query<{ id: string }>(
      `INSERT INTO messages (id, business_id, booking_id, waitlist_entry_id, kind, channel, audience, recipient,
          recipient_member_id, lang, state_version, reminder_minutes, unique_key, resend_of, data, scheduled_at, status, last_error)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15::jsonb, $16,
               CASE WHEN $17::text IS NULL THEN 'pending' ELSE 'skipped' END, $17)
       ON CONFLICT (unique_key) DO NOTHING
       RETURNING id`,
      [
        m.id,
        m.businessId,
        m.bookingId,
        m.waitlistEntryId ?? null,
        m.kind,
        m.channel,
        m.audience,
        m.recipient,
        m.recipientMemberId ?? null,
        m.lang,
        m.stateVersion ?? null,
        m.reminderMinutes ?? null,
        m.uniqueKey,
        m.resendOf ?? null,
        JSON.stringify(m.data ?? {}),
        m.scheduledAt,
        m.skippedBecause ?? null,
      ],
    );
    if (r.rows.length === 0) continue;
    // Kept for the log, never sent: no job.
    if (m.skippedBecause !== undefined) continue;
    const jobId = await planJob(tx, {
      kind: MESSAGE_SEND_KIND,
      businessId: m.businessId,
      payload: { messageId: m.id },
      runAt: m.scheduledAt,
      dedupeKey: `message:${m.id}`,
    });
    await tx.query('UPDATE messages SET job_id = $2 WHERE id = $1', [m.id, jobId]);
    planned.push(m.id);
  }
  return planned;
}
