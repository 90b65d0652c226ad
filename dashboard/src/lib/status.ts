import type { BusinessBooking } from './api.ts';

/** A booking status as the dashboard writes it. */
export const STATUS_NAMES: Record<BusinessBooking['status'], string> = {
  requested: 'requested',
  confirmed: 'confirmed',
  declined: 'declined',
  rescheduleProposed: 'new time proposed',
  cancelled: 'cancelled',
  completed: 'completed',
  noShow: 'no-show',
};
