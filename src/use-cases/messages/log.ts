import { AppError } from '../../domain/errors.ts';
import { newId } from '../../domain/ids.ts';
import { keysetPage } from '../../domain/keyset-page.ts';
import type { MessageStatus } from '../../domain/messages/kinds.ts';
import { type LogCaller, notificationView, type NotificationView, requireLogAccess, resendMessage } from '../../domain/messages/log.ts';
import type { MemberRole } from '../../domain/members/roles.ts';
import { findBooking } from '../../store/bookings.ts';
import type { Db } from '../../store/db.ts';
import { findMessage, listLoggedMessages, type LogPosition } from '../../store/message-log.ts';
import { planMessages } from '../../store/messages.ts';
import { requireBusiness } from '../operator/businesses.ts';

/** Who calls: the platform operator, or a member and the roles of their memberships. */
export type Caller = 'platform' | { memberships: ReadonlyArray<{ businessId: string; role: MemberRole }> };

function callerIn(caller: Caller, businessId: string): LogCaller {
  if (caller === 'platform') return 'platform';
  const role = caller.memberships.find((m) => m.businessId === businessId)?.role;
  // The auth hook let only members of the business through; anything else is a wiring fault.
  if (!role) throw new AppError('auth.scope_mismatch');
  return role;
}

export interface LogQuery {
  bookingId?: string | undefined;
  status?: MessageStatus | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
}

/** GET /admin/v1/businesses/{slug}/notifications: a page of the messages log, recipients masked. */
export async function listNotifications(
  db: Db,
  secret: Buffer,
  slug: string,
  query: LogQuery,
  caller: Caller,
): Promise<{ notifications: NotificationView[]; cursor: string | undefined }> {
  const business = await requireBusiness(db, slug);
  requireLogAccess(callerIn(caller, business.id), query.bookingId);
  if (query.bookingId !== undefined && !(await findBooking(db, business.id, query.bookingId))) {
    throw new AppError('booking.not_found');
  }
  const limit = query.limit ?? 50;
  const page = await keysetPage(
    {
      secret,
      list: 'operator-notifications',
      businessId: business.id,
      filters: { bookingId: query.bookingId, status: query.status, limit },
      limit,
      cursor: query.cursor,
    },
    (after: LogPosition | undefined, fetchLimit) =>
      listLoggedMessages(db, { businessId: business.id, bookingId: query.bookingId, status: query.status, after, limit: fetchLimit }),
    // Every writer of messages gives scheduled_at as a JS Date: milliseconds hold the whole value.
    (last) => ({ scheduledAt: last.scheduledAt.toISOString(), id: last.id }),
  );
  return { notifications: page.rows.map(notificationView), cursor: page.cursor };
}

/**
 * POST /admin/v1/notifications/{id}/resend: a new message copying the one named, due now, sent by
 * the worker like any other (so a reminder of a booking cancelled since is skipped, not sent).
 * Whatever the original's status: the front desk resends what a guest says never arrived.
 */
export async function resendNotification(db: Db, messageId: string, caller: Caller, now: Date): Promise<NotificationView> {
  return db.transaction(async (tx) => {
    const original = await findMessage(tx, messageId);
    if (!original) throw new AppError('request.not_found', 'No message with this id.');
    requireLogAccess(callerIn(caller, original.businessId), original.bookingId);
    const resent = resendMessage(original, newId('msg'), now);
    await planMessages(tx, [resent]);
    const stored = await findMessage(tx, resent.id);
    if (!stored) throw new Error('a resend planned under a fresh unique key was not written');
    return notificationView(stored);
  });
}
