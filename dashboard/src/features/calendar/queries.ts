import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api.ts';
import { agendaKeys } from '../../lib/query-keys.ts';

/** The day view of one location: staff, their hours and time off, and the day's bookings. */
export function useAgenda(slug: string, locationSlug: string | undefined, date: string | undefined) {
  return useQuery({
    queryKey: agendaKeys.day(slug, locationSlug, date),
    enabled: locationSlug !== undefined && date !== undefined,
    queryFn: async () =>
      unwrap(
        await api.GET('/admin/v1/businesses/{slug}/agenda', {
          params: { path: { slug }, query: { locationSlug: locationSlug!, date: date! } },
        }),
      ).agenda,
    placeholderData: keepPreviousData,
    // The front desk keeps this page open: bookings made elsewhere show up without a reload.
    refetchInterval: 30_000,
  });
}
