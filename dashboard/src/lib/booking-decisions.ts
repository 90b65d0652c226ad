import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type BusinessBooking, unwrap } from './api.ts';
import { currentMessages } from './i18n/index.ts';
import { agendaKeys, bookingKeys } from './query-keys.ts';

/**
 * A business decision on a booking: the booking detail's and the inbox's buttons, and the
 * calendar's drag and keyboard move (a `reschedule`), all through this one mutation.
 */
export type Decision =
  | { action: 'accept' | 'complete' | 'noShow' }
  | { action: 'decline' | 'cancel'; reason?: string }
  | { action: 'propose' | 'reschedule'; date: string; startTime: string; staffId?: string };

async function decide(bookingId: string, d: Decision): Promise<BusinessBooking> {
  const params = { path: { bookingId } };
  switch (d.action) {
    case 'accept':
      return unwrap(await api.POST('/admin/v1/bookings/{bookingId}/accept', { params })).booking;
    case 'complete':
      return unwrap(await api.POST('/admin/v1/bookings/{bookingId}/complete', { params })).booking;
    case 'noShow':
      return unwrap(await api.POST('/admin/v1/bookings/{bookingId}/no-show', { params })).booking;
    case 'decline':
      return unwrap(await api.POST('/admin/v1/bookings/{bookingId}/decline', { params, body: d.reason ? { reason: d.reason } : {} }))
        .booking;
    case 'cancel':
      return unwrap(await api.POST('/admin/v1/bookings/{bookingId}/cancel', { params, body: d.reason ? { reason: d.reason } : {} }))
        .booking;
    case 'propose':
    case 'reschedule': {
      const body = { date: d.date, startTime: d.startTime, ...(d.staffId ? { staffId: d.staffId } : {}) };
      const path = d.action === 'propose' ? '/admin/v1/bookings/{bookingId}/propose' : '/admin/v1/bookings/{bookingId}/reschedule';
      return unwrap(await api.POST(path, { params, body })).booking;
    }
  }
}

/** One business decision on a booking; the booking, its history and every day view are read again. */
export function useDecision(bookingId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (d: Decision) => decide(bookingId, d),
    // the words of the member's language when the decision is made
    meta: { done: (d) => currentMessages().confirmations[(d as Decision).action] },
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
