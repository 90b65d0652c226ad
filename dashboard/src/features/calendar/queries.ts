import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api.ts';
import { agendaKeys, bookingKeys } from '../../lib/query-keys.ts';

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

/**
 * A drag or a keyboard move, confirmed: the booking detail's `Reschedule` (POST …/reschedule), with
 * its words. Written here rather than imported because a feature does not import another.
 */
export function useMove(bookingId: string) {
  const qc = useQueryClient();
  return useMutation({
    meta: { done: 'Moved.' },
    mutationFn: async (to: MoveTo) =>
      unwrap(
        await api.POST('/admin/v1/bookings/{bookingId}/reschedule', {
          params: { path: { bookingId } },
          body: { date: to.date, startTime: to.startTime, ...(to.staffId ? { staffId: to.staffId } : {}) },
        }),
      ).booking,
    onSuccess: async (booking) => {
      qc.setQueryData(bookingKeys.detail(bookingId), booking);
      await Promise.all([
        qc.invalidateQueries({ queryKey: bookingKeys.events(bookingId) }),
        qc.invalidateQueries({ queryKey: agendaKeys.all }),
        qc.invalidateQueries({ queryKey: bookingKeys.requestsAll }),
      ]);
    },
  });
}
