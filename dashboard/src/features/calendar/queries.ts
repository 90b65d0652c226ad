import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api.ts';
import { agendaKeys } from '../../lib/query-keys.ts';

async function fetchAgenda(slug: string, locationSlug: string, date: string) {
  return unwrap(
    await api.GET('/admin/v1/businesses/{slug}/agenda', {
      params: { path: { slug }, query: { locationSlug, date } },
    }),
  ).agenda;
}

/** The day view of one location: staff, their hours and time off, and the day's bookings. */
export function useAgenda(slug: string, locationSlug: string | undefined, date: string | undefined) {
  return useQuery({
    queryKey: agendaKeys.day(slug, locationSlug, date),
    enabled: locationSlug !== undefined && date !== undefined,
    queryFn: async () => fetchAgenda(slug, locationSlug!, date!),
    placeholderData: keepPreviousData,
    // The front desk keeps this page open: bookings made elsewhere show up without a reload.
    refetchInterval: 30_000,
  });
}

/**
 * Several days of one location (the week view, the next free time): one agenda query per day, under
 * the day view's own keys, so a day already drawn is not read twice and every write that re-reads
 * the calendar re-reads these too.
 */
export function useAgendaDays(slug: string, locationSlug: string | undefined, dates: readonly string[]) {
  return useQueries({
    queries: dates.map((date) => ({
      queryKey: agendaKeys.day(slug, locationSlug, date),
      enabled: locationSlug !== undefined,
      queryFn: async () => fetchAgenda(slug, locationSlug!, date),
      refetchInterval: 30_000,
    })),
  });
}

export interface MoveTo {
  date: string;
  startTime: string;
  staffId?: string;
}
