import type { Db } from '../../store/db.ts';
import { listEventsWithActor } from '../../store/booking-events.ts';
import { waitlistEntriesOf } from '../../store/client-erasure.ts';
import { clientConsents } from '../../store/clients.ts';
import { listMessagesOf } from '../../store/message-log.ts';
import { clientView, requireClient } from './read.ts';

/**
 * GET /admin/v1/clients/{clientId}/export: everything stored about the client, as one JSON
 * document (clients-and-reports.md): the client with notes and tags, each booking as the business
 * sees it with its events and the consent it was made with, the messages sent or planned to the
 * client, and the client's waitlist entries. Read in one transaction, so it is one moment's state.
 */
export async function exportClient(db: Db, clientId: string, now: Date) {
  return db.transaction(async (tx) => {
    const summary = await requireClient(tx, clientId, now);
    const view = await clientView(tx, summary);
    const consents = await clientConsents(tx, clientId);
    const bookings = [];
    for (const b of view.bookings) {
      const events = (await listEventsWithActor(tx, b.bookingId)).map((e) => ({ actor: e.actor, event: JSON.parse(e.payload) as unknown }));
      bookings.push({ ...b, consent: consents.get(b.bookingId) ?? null, events });
    }
    const phones = [summary.phone, ...view.bookings.map((b) => b.guest.phone)].filter((p): p is string => !!p);
    const emails = [summary.email, ...view.bookings.map((b) => b.guest.email)].filter((e): e is string => !!e);
    const entries = await waitlistEntriesOf(tx, summary.businessId, phones, emails);
    const messages = (
      await listMessagesOf(
        tx,
        view.bookings.map((b) => b.bookingId),
        entries.map((e) => e.id),
      )
    )
      .filter((m) => m.audience === 'guest')
      .map((m) => ({
        id: m.id,
        bookingId: m.bookingId,
        waitlistEntryId: m.waitlistEntryId,
        kind: m.kind,
        channel: m.channel,
        recipient: m.recipient,
        lang: m.lang,
        status: m.status,
        scheduledAt: m.scheduledAt.toISOString(),
        sentAt: m.sentAt?.toISOString() ?? null,
      }));
    const { bookings: _history, ...client } = view;
    return {
      exportedAt: now.toISOString(),
      client,
      bookings,
      messages,
      waitlistEntries: entries.map((e) => ({ id: e.id, name: e.name, phone: e.phone, email: e.email })),
    };
  });
}
