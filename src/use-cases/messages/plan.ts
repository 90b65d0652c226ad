import type { EventActor } from '../../domain/bookings/event-row.ts';
import type { EventPayload } from '../../domain/bookings/event-payload.ts';
import { effectiveSettings } from '../../domain/guest-settings/merge.ts';
import { guestLangOf, planEventMessages } from '../../domain/messages/policy.ts';
import { eventSnapshot } from '../../domain/messages/snapshot.ts';
import { effectiveFeatures } from '../../domain/plans.ts';
import type { StoredEvent } from '../../store/booking-events.ts';
import { findBooking } from '../../store/bookings.ts';
import type { Db } from '../../store/db.ts';
import { findStoredGuestSettings } from '../../store/guest-settings.ts';
import { databaseNow, findBookingContact, findEventHead, listBusinessRecipients } from '../../store/message-context.ts';
import { planMessages } from '../../store/messages.ts';
import { getSubscription } from '../../store/subscriptions.ts';

/**
 * The messages one booking event causes (domain/messages/policy.ts), planned in one transaction:
 * what the policy reads and the rows it plans, each row at most once by its unique key, so a
 * follow-up run again after a crash plans nothing twice. Returns the ids planned now.
 */
export async function planBookingEventMessages(db: Db, event: StoredEvent): Promise<string[]> {
  return db.transaction(async (tx) => {
    // One after another: a transaction is one connection, which runs one statement at a time.
    const booking = await findBooking(tx, event.businessId, event.bookingId);
    const contact = await findBookingContact(tx, event.bookingId);
    if (!booking || !contact) return [];
    const stored = await findStoredGuestSettings(tx, event.businessId);
    const subscription = await getSubscription(tx, event.businessId);
    const recipients = await listBusinessRecipients(tx, event.businessId);
    const now = await databaseNow(tx);
    const next = event.event === 'booking.requested' ? await findEventHead(tx, event.bookingId, event.sequence + 1) : undefined;
    const payload = JSON.parse(event.payloadJson) as EventPayload;
    const features = subscription ? effectiveFeatures(subscription.plan, subscription.featureOverrides) : undefined;
    const snapshot = eventSnapshot(booking, payload.booking);
    const rows = planEventMessages(
      {
        name: event.event,
        sequence: event.sequence,
        actor: event.actor as EventActor | null,
        bookingId: event.bookingId,
        booking: snapshot,
        confirmedInSameWrite: next?.event === 'booking.confirmed' && next.occurredAt.getTime() === event.occurredAt.getTime(),
      },
      {
        businessId: event.businessId,
        settings: effectiveSettings(stored),
        source: contact.source,
        guest: { email: contact.email, phone: contact.phone },
        lang: guestLangOf(contact.locale),
        smsFeature: features?.smsNotifications ?? false,
        businessRecipients: recipients,
        now,
      },
    );
    return planMessages(tx, rows);
  });
}
