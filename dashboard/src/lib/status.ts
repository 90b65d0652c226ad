import type { BusinessBooking } from './api.ts';
import { currentMessages } from './i18n/index.ts';

type Status = BusinessBooking['status'];
const STATUSES: Status[] = ['requested', 'confirmed', 'declined', 'rescheduleProposed', 'cancelled', 'completed', 'noShow'];

/** A booking status as the dashboard writes it, in the language the page is shown in (one getter per status). */
export const STATUS_NAMES = Object.defineProperties(
  {},
  Object.fromEntries(STATUSES.map((s) => [s, { enumerable: true, get: () => currentMessages().statuses[s] }])),
) as Readonly<Record<Status, string>>;
