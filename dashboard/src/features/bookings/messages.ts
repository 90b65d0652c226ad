import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api.ts';
import type { operations } from '../../lib/api-types.ts';
import { currentMessages } from '../../lib/i18n/index.ts';
import { bookingKeys } from '../../lib/query-keys.ts';

type ListAnswer = operations['operatorListNotifications']['responses'][200]['content']['application/json']['data'];
export type Notification = ListAnswer['notifications'][number];

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
    meta: { done: () => currentMessages().confirmations.sentAgain },
    mutationFn: async (notificationId: string) =>
      unwrap(await api.POST('/admin/v1/notifications/{notificationId}/resend', { params: { path: { notificationId } } })).notification,
    onSuccess: () => qc.invalidateQueries({ queryKey: bookingKeys.messages(slug, bookingId) }),
  });
}
