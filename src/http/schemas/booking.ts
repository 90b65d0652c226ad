import { Type } from 'typebox';
import { DEPOSIT_STATUSES } from '../../domain/deposits/status.ts';
import { BOOKING_STATUSES, EVENT_NAMES } from '../../domain/bookings/states.ts';
import { SOURCE_KINDS } from '../../domain/bookings/source.ts';
import { MoneyView } from './catalog.ts';
import { DateString, TimeString } from './common.ts';

const NullableDate = Type.Union([DateString(), Type.Null()]);
const NullableTime = Type.Union([TimeString(), Type.Null()]);

export const SlotTime = Type.Object(
  {
    date: DateString(),
    startTime: TimeString(),
    endTime: TimeString(),
    timezone: Type.String({ description: 'IANA zone of the location' }),
  },
  { $id: 'SlotTime' },
);

export const LocationSnapshot = Type.Object(
  {
    id: Type.String(),
    locationSlug: Type.String(),
    publicLocationName: Type.String(),
    address: Type.Object({ city: Type.String(), street: Type.String(), zip: Type.String() }),
    timezone: Type.String(),
  },
  { $id: 'LocationSnapshot' },
);

const SlotRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'SlotTime#' });

export const Booking = Type.Object(
  {
    bookingId: Type.String({ description: 'opaque id, used in paths' }),
    publicReference: Type.String({ pattern: '^BK-[34679ACDEFGHJKMNPQRTUVWXY]{8}$' }),
    status: Type.Enum(BOOKING_STATUSES),
    locationId: Type.String(),
    locationSnapshot: Type.Unsafe<Record<string, unknown>>({ $ref: 'LocationSnapshot#' }),
    serviceId: Type.String(),
    serviceName: Type.String({ description: 'name at booking time' }),
    staffId: Type.Union([Type.String(), Type.Null()]),
    staffName: Type.Union([Type.String(), Type.Null()], { description: 'falls back to the staff id' }),
    guestName: Type.String({ description: 'phone and email are never returned' }),
    requestedSlot: Type.Object({ date: NullableDate, startTime: NullableTime, timezone: Type.String() }),
    confirmedSlot: Type.Union([SlotRef, Type.Null()], {
      description: 'set in confirmed, completed and noShow; null otherwise (also after cancellation)',
    }),
    proposedSlot: Type.Optional(
      Type.Object(
        { date: DateString(), startTime: TimeString(), endTime: TimeString(), timezone: Type.String(), staffId: Type.String() },
        { description: 'only while rescheduleProposed: the time offered to the guest' },
      ),
    ),
    sessionId: Type.Optional(Type.String({ description: 'group-session bookings only' })),
    visitId: Type.Optional(
      Type.String({ description: 'the visit this booking is a part of (several services back to back); absent for a booking on its own' }),
    ),
    note: Type.Union([Type.String(), Type.Null()]),
    serviceLocation: Type.Optional(
      Type.Object({ address: Type.String(), note: Type.Optional(Type.String()) }, { description: 'on-site services only' }),
    ),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
    stateVersion: Type.Integer({ minimum: 1 }),
    acceptanceMode: Type.Enum(['manual', 'automatic']),
  },
  { $id: 'Booking' },
);

export const BookingRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'Booking#' });

/** The operator's booking: the public one plus what the salon needs to reach its guest. */
export const BusinessBooking = Type.Object(
  {
    ...Booking.properties,
    guest: Type.Object({
      name: Type.String(),
      phone: Type.String({ description: 'E.164' }),
      email: Type.Union([Type.String(), Type.Null()], { description: 'null when none was given or it was not a valid address' }),
    }),
    reason: Type.Union([Type.String(), Type.Null()], {
      description: "the business's reason given with the decline or cancel that led here; null otherwise. Never sent to integrators",
    }),
    source: Type.Enum(SOURCE_KINDS, {
      description:
        'who made the booking: `api` (an API key, `POST /v1/bookings`), `bookingPage` (a guest on the booking page), `manual` (the business: a member or the platform operator). Never sent to integrators',
      examples: ['api'],
    }),
    createdBy: Type.Union(
      [
        Type.Object({
          memberId: Type.String({ description: 'the user id of the member' }),
          name: Type.Union([Type.String(), Type.Null()], { description: "the member's name now; null when the account has none" }),
        }),
        Type.Null(),
      ],
      {
        description: 'the member who wrote a manual booking; null for every other booking and for one the platform operator wrote',
        examples: [{ memberId: 'usr_6d8f1h3k5m7p9r2t4v0x', name: 'Dóra Szabó' }],
      },
    ),
    clientId: Type.Optional(
      Type.String({
        description:
          'the client of the business the booking belongs to (`GET /admin/v1/clients/{clientId}`): found by the guest phone, else the email, when the booking was made',
        examples: ['cli_3f9a1c7e5b2d4a6c8e0f'],
      }),
    ),
    price: Type.Optional(
      Type.Union([MoneyView, Type.Null()], {
        description:
          "what the booking cost when it was made (the service's price then, or a group session's seat price), in major units; a later price change leaves it. null for a negotiable price and for a booking whose price was never recorded",
        examples: [{ amount: 12000, currency: 'HUF' }],
      }),
    ),
    deposit: Type.Optional(
      Type.Object(
        {
          status: Type.Enum(DEPOSIT_STATUSES, { description: 'pending until the business records paid or waived' }),
          amount: Type.Union([Type.Number(), Type.Null()], {
            description:
              "the service's deposit amount when booked, else its full price then, in major units; null only for a deposit recorded paid or waived before the rule, its amount never known",
          }),
          currency: Type.String({ description: 'the business currency' }),
          dueAt: Type.String({ format: 'date-time', description: "the appointment's start" }),
          recordedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
            description: 'when paid or waived was recorded; null while pending',
          }),
        },
        { description: 'deposit bookings only (created for a service that takes a deposit)' },
      ),
    ),
    resources: Type.Optional(
      Type.Array(
        Type.Object({
          resourceId: Type.String(),
          name: Type.String(),
          unit: Type.Integer({ minimum: 1, description: "which of the resource's units, 1..quantity" }),
        }),
        {
          description:
            'the resource units the booking occupies, assigned by the server (v1.4.0); empty when its service needs none or it no longer occupies time',
        },
      ),
    ),
    processing: Type.Optional(
      Type.Array(
        Type.Object({
          startTime: Type.String({ pattern: '^[0-2][0-9]:[0-5][0-9]$' }),
          endTime: Type.String({ pattern: '^[0-2][0-9]:[0-5][0-9]$' }),
        }),
        {
          description:
            'the parts of the appointment during which the staff member is free (processing time), local times; empty for a service without processing time (v1.4.0)',
        },
      ),
    ),
  },
  { $id: 'BusinessBooking', description: 'A booking as the business sees it (operator API only)' },
);

export const BusinessBookingRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'BusinessBooking#' });

const HhMm = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$|^24:00$' });

export const Agenda = Type.Object({
  date: DateString(),
  location: Type.Object({ slug: Type.String(), timezone: Type.String() }),
  staff: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      workingHours: Type.Array(Type.Object({ start: HhMm, end: HhMm })),
      timeOff: Type.Array(Type.Object({ from: HhMm, to: HhMm }), { description: 'clipped to the day; "24:00" when it runs past it' }),
      bookings: Type.Array(BusinessBookingRef, { description: 'appointments overlapping the day, earliest first' }),
    }),
  ),
});

export const BookingEvent = Type.Object(
  {
    event: Type.Enum(EVENT_NAMES),
    deliveryId: Type.String({ pattern: '^[0-9a-f]{32}$' }),
    timestamp: Type.String({ format: 'date-time' }),
    salonSlug: Type.String(),
    transition: Type.Object({
      id: Type.Union([Type.String(), Type.Null()]),
      sequence: Type.Integer({ minimum: 1 }),
      occurredAt: Type.String({ format: 'date-time' }),
      from: Type.Union([Type.Enum(BOOKING_STATUSES), Type.Null()]),
      to: Type.Enum(BOOKING_STATUSES),
    }),
    booking: BookingRef,
  },
  { $id: 'BookingEvent' },
);

/** An operator event read's item: the event as webhooks carry it, and who made the change. */
export const OperatorBookingEvent = Type.Object(
  {
    ...BookingEvent.properties,
    actor: Type.Union([Type.Enum(['guest', 'member', 'operator', 'api']), Type.Null()], {
      description:
        'who made the change: the guest (booking page, manage page), a signed-in member, the platform operator, an API key; null on events written before actors were recorded',
    }),
  },
  { $id: 'OperatorBookingEvent' },
);

export const BOOKING_SCHEMAS = [SlotTime, LocationSnapshot, Booking, BusinessBooking, BookingEvent, OperatorBookingEvent];
