import { Type } from 'typebox';
import { BOOKING_STATUSES } from '../../domain/bookings/states.ts';
import { SOURCE_KINDS } from '../../domain/bookings/source.ts';
import { DateString, Slug } from './common.ts';

const Rate = (description: string) =>
  Type.Union([Type.Number(), Type.Null()], { description: `${description}; to 4 decimals, null when the divisor is 0` });
const Money = (description: string) => Type.Number({ description: `${description}, in major units of the business currency` });
const counts = (keys: readonly string[], description: string) =>
  Type.Object(Object.fromEntries(keys.map((k) => [k, Type.Integer({ minimum: 0 })])), { description, additionalProperties: false });

const RevenueFields = {
  name: Type.String({ description: 'the name it has now' }),
  booked: Money('prices of confirmed and completed bookings'),
  completed: Money('prices of completed bookings'),
};

const UtilisationFields = {
  bookedMinutes: Type.Integer({ description: 'work minutes (no processing, no buffers) of confirmed, completed and noShow bookings' }),
  workingMinutes: Type.Integer({ description: 'working-hour minutes less time off, counted per local day' }),
  ratio: Rate('bookedMinutes ÷ workingMinutes'),
};

export const ReportQuery = Type.Object({
  from: DateString('first local day of the period'),
  to: DateString('last local day of the period, inclusive; at most 366 days from `from`, both included'),
  locationSlug: Type.Optional(Slug('only this location; every location when absent')),
});

export const Report = Type.Object(
  {
    from: DateString(),
    to: DateString(),
    currency: Type.String({ description: 'the business currency' }),
    bookings: Type.Object({
      total: Type.Integer({ description: 'bookings whose start falls in the period (local date at their location)' }),
      byStatus: counts(BOOKING_STATUSES, 'every status, zeros included'),
      bySource: counts(SOURCE_KINDS, 'who made them'),
    }),
    revenue: Type.Object({
      booked: Money('prices at booking time of confirmed and completed bookings (a negotiable price counts 0)'),
      completed: Money('prices at booking time of completed bookings'),
      byStaff: Type.Array(Type.Object({ staffId: Type.String(), ...RevenueFields }), { description: 'largest booked first' }),
      byService: Type.Array(Type.Object({ serviceId: Type.String(), ...RevenueFields }), { description: 'largest booked first' }),
    }),
    utilisation: Type.Object({
      overall: Type.Object(UtilisationFields, { description: 'every staff member counted' }),
      byStaff: Type.Array(Type.Object({ staffId: Type.String(), name: Type.String(), ...UtilisationFields }), {
        description: 'the active staff of the location(s) and anyone with a booking in the period, by name',
      }),
    }),
    noShowRate: Rate('noShow ÷ (completed + noShow)'),
    cancellationRate: Rate('cancelled ÷ bookings not declined'),
    lateCancellationRate: Rate('bookings cancelled less than guestCancel.noticeMinutes before the start ÷ bookings not declined'),
    clients: Type.Object({
      new: Type.Integer({
        description: 'clients with a non-declined booking in the period whose first non-declined booking at the business falls in it',
      }),
      returning: Type.Integer({ description: 'other clients with a non-declined booking in the period' }),
    }),
    rebookingRate: Rate('completed bookings whose client had booked a later time by the end of the visit’s local day ÷ completed bookings'),
  },
  { description: 'The figures of a period; docs/reports.md defines each' },
);
