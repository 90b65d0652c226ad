import { Type } from 'typebox';
import { BusinessBookingRef } from './booking.ts';

const listFields = {
  id: Type.String({ examples: ['cli_3f9a1c7e5b2d4a6c8e0f'] }),
  name: Type.String({ description: 'the name the client was first seen with, until a member changes it' }),
  phone: Type.Union([Type.String(), Type.Null()], { description: 'E.164' }),
  email: Type.Union([Type.String(), Type.Null()]),
  visits: Type.Integer({ description: '`completed` bookings' }),
  noShows: Type.Integer({ description: '`noShow` bookings' }),
  lastVisitAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'the start of the latest completed booking',
  }),
  nextVisitAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'the start of the earliest future booking that occupies time (requested, confirmed, reschedule proposed)',
  }),
  tags: Type.Array(Type.String()),
};

export const ClientListItem = Type.Object(listFields, { description: 'A client of the business, as the list shows it' });

export const ClientView = Type.Object(
  {
    ...listFields,
    notes: Type.String(),
    erased: Type.Boolean({ description: 'true once the client has been erased' }),
    bookings: Type.Array(BusinessBookingRef, { description: "the client's bookings, newest appointment first (at most 200)" }),
  },
  { description: 'A client with notes and history' },
);

export const ClientParams = Type.Object({
  clientId: Type.String({ minLength: 1, maxLength: 100, description: 'The id of the client.' }),
});

export const ClientListQuery = Type.Object({
  q: Type.Optional(
    Type.String({
      minLength: 2,
      maxLength: 100,
      description: 'part of a name (any case, with or without accents), an email, or a phone number (its digits)',
    }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50, description: 'page size' })),
  cursor: Type.Optional(Type.String({ maxLength: 2048, description: 'meta.cursor of the previous page' })),
});

export const PatchClientBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' })),
    notes: Type.Optional(Type.String({ maxLength: 5000 })),
    tags: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 40, pattern: '\\S' }), { maxItems: 20 })),
  },
  { additionalProperties: false },
);

export const ClientExport = Type.Object(
  {
    exportedAt: Type.String({ format: 'date-time' }),
    client: Type.Object({ ...listFields, notes: Type.String(), erased: Type.Boolean() }),
    bookings: Type.Array(
      Type.Object(
        {},
        {
          additionalProperties: true,
          description:
            'each booking as the business sees it (the BusinessBooking fields), with `consent` (as the guest gave it, or null) and `events` (each `{ actor, event }`, the event as its webhook carries it)',
        },
      ),
    ),
    messages: Type.Array(
      Type.Object({
        id: Type.String(),
        bookingId: Type.Union([Type.String(), Type.Null()]),
        waitlistEntryId: Type.Union([Type.String(), Type.Null()]),
        kind: Type.String(),
        channel: Type.String(),
        recipient: Type.String(),
        lang: Type.String(),
        status: Type.String(),
        scheduledAt: Type.String({ format: 'date-time' }),
        sentAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
      }),
      { description: 'the messages to the client (guest messages of its bookings and waitlist entries), earliest first' },
    ),
    waitlistEntries: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), phone: Type.String(), email: Type.String() })),
  },
  { description: 'Everything stored about the client' },
);
