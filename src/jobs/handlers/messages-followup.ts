import type { Logger } from 'pino';
import type { Db } from '../../store/db.ts';
import { planBookingEventMessages } from '../../use-cases/messages/plan.ts';
import type { BookingFollowup } from './booking-followup.ts';

/** The guest's and the business's messages of each booking event (guest-side.md "Notifications"). */
export function messagesFollowup(deps: { db: Db; logger?: Logger | undefined }): BookingFollowup {
  return {
    name: 'messages',
    async run(db, event) {
      const planned = await planBookingEventMessages(db, event);
      if (planned.length > 0)
        deps.logger?.debug({ bookingId: event.bookingId, sequence: event.sequence, planned: planned.length }, 'messages planned');
    },
  };
}
