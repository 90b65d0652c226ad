import { Type } from 'typebox';
import { DateString, TimeString } from './common.ts';

export const WAITLIST_STATUSES = ['waiting', 'offered', 'booked', 'withdrawn', 'expired'] as const;

/** One waitlist entry as the business reads it (docs/waitlist.md). */
export const WaitlistEntryView = Type.Object(
  {
    entryId: Type.String({ description: 'the entry id' }),
    status: Type.Enum(WAITLIST_STATUSES, {
      description: '`waiting` for a time; `offered` a held time now; ended: `booked`, `withdrawn`, `expired` (past its last date)',
    }),
    locationId: Type.String(),
    serviceId: Type.String(),
    serviceName: Type.String(),
    staffId: Type.Union([Type.String(), Type.Null()], { description: 'null: any staff member' }),
    staffName: Type.Union([Type.String(), Type.Null()], { description: 'null: any staff member' }),
    name: Type.String({ description: "the guest's name" }),
    phone: Type.String({ description: "the guest's phone in full (E.164): the business's own client data" }),
    email: Type.String({ description: "the guest's email in full" }),
    lang: Type.String({ description: 'the language of the messages to the guest' }),
    dateRange: Type.Object({ from: DateString('first local date'), to: DateString('last local date (inclusive)') }),
    timeWindow: Type.Object({
      earliest: TimeString('the earliest local start'),
      latest: TimeString('the latest local start (inclusive)'),
    }),
    bookingId: Type.Union([Type.String(), Type.Null()], { description: 'the booking a claimed offer made' }),
    createdAt: Type.String({ format: 'date-time', description: 'when the guest joined: the join order' }),
  },
  { additionalProperties: false },
);

export const waitlistEntryExample = {
  entryId: 'wl_3k9d2m4q8r7t6v5w1x0y',
  status: 'waiting',
  locationId: 'loc_7h2k4m6p8r0t2v4w6y8z',
  serviceId: 'svc_2b4d6f8h0k2m4p6r8t0v',
  serviceName: 'Haircut',
  staffId: null,
  staffName: null,
  name: 'Anna Kovács',
  phone: '+36301234567',
  email: 'anna@example.com',
  lang: 'hu',
  dateRange: { from: '2026-12-01', to: '2026-12-07' },
  timeWindow: { earliest: '09:00', latest: '17:00' },
  bookingId: null,
  createdAt: '2026-11-28T09:15:00.000Z',
};
