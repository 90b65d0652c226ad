import type { EventActor } from '../../domain/bookings/event-row.ts';
import { ERASED_NAME, needlesOf, scrubJson, scrubText } from '../../domain/clients/erasure.ts';
import { AppError } from '../../domain/errors.ts';
import {
  clientBookingGuests,
  eraseClientRows,
  futureOpenBookingIds,
  lockClient,
  rewriteStoredTexts,
  skipPendingMessagesOf,
  waitlistEntriesOf,
} from '../../store/client-erasure.ts';
import type { Db, Queryable } from '../../store/db.ts';
import { transactionWithRetry } from '../../store/tx-retry.ts';
import { changeBooking } from '../bookings/lifecycle.ts';
import { withdrawEntryIn } from '../waitlist/withdraw.ts';
import { clientView, requireClient } from './read.ts';
import type { ClientView } from './views.ts';

/** Texts stored as JSON documents; the others are plain text. */
const JSON_COLUMNS = new Set(['booking_events.payload', 'idempotency_records.response_body', 'jobs.payload', 'messages.data']);

/** What one erasure did, in counts only (it is logged and audited; never the values). */
export interface ErasureCounts {
  cancelled: number;
  waitlistEntries: number;
  messagesSkipped: number;
  rewritten: Record<string, number>;
}

/**
 * The erasure, in the caller's transaction (clients-and-reports.md "Erasure"): the client's
 * future bookings are cancelled first, each as the business's own cancel (its event and webhook
 * as usual); its open waitlist entries are withdrawn; guest messages not yet sent are skipped;
 * then every stored copy of its names, phones and emails (each booking's guest fields, event and
 * webhook payloads, idempotent answers, jobs, messages, waitlist entries, errors) is rewritten,
 * and the client row keeps only `Erased client`. Time, service, staff, price, status and reference
 * of every booking stay. An erased client is answered as it is (erasure is final, and a second one
 * changes nothing).
 */
export async function eraseClientIn(
  tx: Queryable,
  a: { clientId: string; now: Date; actor: EventActor },
): Promise<ErasureCounts | undefined> {
  const client = await lockClient(tx, a.clientId);
  if (!client) throw new AppError('client.not_found', `No client with id "${a.clientId}".`);
  if (client.erasedAt) return undefined;

  const future = await futureOpenBookingIds(tx, client.id, a.now);
  for (const bookingId of future) {
    await changeBooking(tx, { businessId: client.businessId, bookingId, action: 'cancel', now: a.now, actor: a.actor });
  }
  const guests = await clientBookingGuests(tx, client.id);
  const phones = [client.phone, ...guests.map((g) => g.phone)].filter((p): p is string => !!p);
  const emails = [client.email, ...guests.map((g) => g.email)].filter((e): e is string => !!e);
  const entries = await waitlistEntriesOf(tx, client.businessId, phones, emails);
  for (const e of entries) await withdrawEntryIn(tx, e.id, a.now);
  const messagesSkipped = await skipPendingMessagesOf(tx, client.id);

  const needles = needlesOf([client, ...guests, ...entries]);
  // A stored text is the client's when it holds one of its contacts or names one of its bookings
  // or waitlist entries (ids are unique); only there is the name replaced too: a name alone (a
  // staff member may share it) does not make another guest's record the client's.
  const ids = [...guests.map((g) => g.bookingId), ...entries.map((e) => e.id)];
  const rewritten = await rewriteStoredTexts(tx, client.businessId, [...needles.contacts, ...ids], ids, (column, text) =>
    JSON_COLUMNS.has(column) ? scrubJson(text, needles) : scrubText(text, needles),
  );
  await eraseClientRows(tx, { clientId: client.id, erasedName: ERASED_NAME, waitlistEntryIds: entries.map((e) => e.id), now: a.now });
  return { cancelled: future.length, waitlistEntries: entries.length, messagesSkipped, rewritten };
}

/** POST /admin/v1/clients/{clientId}/erase → the client as it now is. */
export async function eraseClient(db: Db, a: { clientId: string; now: Date; actor: EventActor }): Promise<ClientView> {
  return transactionWithRetry(db, async (tx) => {
    await eraseClientIn(tx, a);
    return clientView(tx, await requireClient(tx, a.clientId, a.now));
  });
}
