import { useQuery } from '@tanstack/react-query';
import { api, type BusinessBooking, unwrap } from '../../lib/api.ts';
import { bookingKeys } from '../../lib/query-keys.ts';

/** New requests show up without a reload: the inbox is read again every 5 s (docs/dashboard.md). */
export const REQUESTS_POLL_MS = 5_000;

async function bookingsWithStatus(slug: string, status: 'requested' | 'rescheduleProposed'): Promise<BusinessBooking[]> {
  const out: BusinessBooking[] = [];
  let cursor: string | undefined;
  // Every page: an inbox is short, and one the desk does not empty must still show all of it.
  for (let i = 0; i < 20; i++) {
    const r = await api.GET('/admin/v1/businesses/{slug}/bookings', {
      params: { path: { slug }, query: { status, limit: 100, ...(cursor ? { cursor } : {}) } },
    });
    out.push(...unwrap(r).bookings);
    cursor = r.data?.meta.cursor;
    if (!cursor) break;
  }
  return out;
}

export function useRequests(slug: string) {
  return useQuery({
    queryKey: bookingKeys.requests(slug),
    queryFn: async () => {
      const [requested, proposed] = await Promise.all([
        bookingsWithStatus(slug, 'requested'),
        bookingsWithStatus(slug, 'rescheduleProposed'),
      ]);
      return [...requested, ...proposed].sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
    },
    refetchInterval: REQUESTS_POLL_MS,
    refetchIntervalInBackground: false,
  });
}
