import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api.ts';
import { bookingKeys } from '../../lib/query-keys.ts';

export function useBooking(bookingId: string) {
  return useQuery({
    queryKey: bookingKeys.detail(bookingId),
    queryFn: async () => unwrap(await api.GET('/admin/v1/bookings/{bookingId}', { params: { path: { bookingId } } })).booking,
  });
}

export function useBookingEvents(bookingId: string) {
  return useQuery({
    queryKey: bookingKeys.events(bookingId),
    queryFn: async () => unwrap(await api.GET('/admin/v1/bookings/{bookingId}/events', { params: { path: { bookingId } } })).events,
  });
}
