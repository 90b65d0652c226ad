import type { BusinessBooking } from './api.ts';

/** When the booking's time is: confirmed, else proposed, else requested (location-local). */
export function slotOf(b: BusinessBooking): { date: string; startTime: string; endTime?: string } | undefined {
  if (b.confirmedSlot) return b.confirmedSlot;
  if (b.proposedSlot) return b.proposedSlot;
  if (b.requestedSlot.date && b.requestedSlot.startTime) return { date: b.requestedSlot.date, startTime: b.requestedSlot.startTime };
  return undefined;
}
