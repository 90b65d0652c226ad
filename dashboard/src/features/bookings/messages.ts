import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api.ts';
import type { operations } from '../../lib/api-types.ts';
import { bookingKeys } from '../../lib/query-keys.ts';

type ListAnswer = operations['operatorListNotifications']['responses'][200]['content']['application/json']['data'];
export type Notification = ListAnswer['notifications'][number];

/** What a message says, in the words of the front desk. */
export const KIND_NAMES: Record<Notification['kind'], string> = {
  'booking.received': 'Request received',
  'booking.confirmed': 'Booking confirmed',
  'booking.declined': 'Request declined',
  'booking.cancelled': 'Booking cancelled',
  'booking.rescheduled': 'Booking moved',
  'booking.reschedule_proposed': 'New time proposed',
  'booking.reminder': 'Reminder',
  'waitlist.offer': 'Waitlist offer',
  'business.new_request': 'New request (to the team)',
  'business.guest_cancelled': 'Guest cancelled (to the team)',
};

export const CHANNEL_NAMES: Record<Notification['channel'], string> = { email: 'Email', sms: 'Text message' };

export const MESSAGE_STATUS_NAMES: Record<Notification['status'], string> = {
  pending: 'Waiting to be sent',
  sent: 'Sent',
  failed: 'Not delivered',
  skipped: 'Not sent: no longer applied',
};

/** The booking's messages, latest first, a page at a time (`Show older messages`). */
export function useBookingMessages(slug: string, bookingId: string) {
  return useInfiniteQuery({
    queryKey: bookingKeys.messages(slug, bookingId),
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam }) => {
      const r = await api.GET('/admin/v1/businesses/{slug}/notifications', {
        params: { path: { slug }, query: { bookingId, limit: 20, ...(pageParam ? { cursor: pageParam } : {}) } },
      });
      return { notifications: unwrap(r).notifications, next: r.data?.meta.cursor as string | undefined };
    },
    getNextPageParam: (last) => last.next,
  });
}

/** Sends a message again as a new message; the list is read again to show it. */
export function useResend(slug: string, bookingId: string) {
  const qc = useQueryClient();
  return useMutation({
    meta: { done: 'Sent again.' },
    mutationFn: async (notificationId: string) =>
      unwrap(await api.POST('/admin/v1/notifications/{notificationId}/resend', { params: { path: { notificationId } } })).notification,
    onSuccess: () => qc.invalidateQueries({ queryKey: bookingKeys.messages(slug, bookingId) }),
  });
}
