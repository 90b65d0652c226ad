import { Type } from 'typebox';
import { DateString, Slug, TimeString } from './common.ts';

const Timestamp = Type.String({ format: 'date-time' });

export const CreateBookingBody = Type.Object(
  {
    salonSlug: Slug('the business (must match the key)'),
    locationSlug: Slug('a location of the business'),
    serviceId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'required unless `visit` is given' })),
    visit: Type.Optional(
      Type.Array(
        Type.Object(
          {
            serviceId: Type.String({ minLength: 1, maxLength: 100 }),
            staffId: Type.Optional(
              Type.String({ minLength: 1, maxLength: 100, description: 'optional: without it a free staff member is chosen' }),
            ),
            expectedPricingVersion: Type.Optional(Type.String({ maxLength: 64, description: "this part's service's pricingVersion" })),
          },
          { additionalProperties: false },
        ),
        {
          minItems: 2,
          maxItems: 4,
          description:
            "a visit: 2 to 4 services performed back to back from `slot` (the first part's start), instead of serviceId, staffId and expectedPricingVersion; every part is booked or none",
        },
      ),
    ),
    expectedPricingVersion: Type.Optional(
      Type.String({
        maxLength: 64,
        description: "the service's pricingVersion; a changed service gives 409 booking.service_pricing_changed",
      }),
    ),
    staffId: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'optional: without it a free staff member is chosen' }),
    ),
    slot: Type.Optional(
      Type.Object(
        { date: DateString(), startTime: TimeString() },
        { additionalProperties: false, description: 'standard services: local date and time' },
      ),
    ),
    sessionId: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'group-session services: from the availability slot' }),
    ),
    slotToken: Type.Optional(
      Type.String({ minLength: 1, maxLength: 1000, description: 'group-session services: from the availability slot' }),
    ),
    holdId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description:
          'a live hold (POST /v1/holds) of the same service, staff member (when given) and slot: the booking then fails only on the hold (409 booking.hold_expired, booking.hold_mismatch), never on the slot',
      }),
    ),
    guest: Type.Object(
      {
        name: Type.String({ minLength: 1, maxLength: 100 }),
        phone: Type.String({ minLength: 1, maxLength: 40, description: 'E.164 preferred; without a country code +36 is assumed' }),
        // No length bound: an over-long address is invalid, so it is dropped like any other (spec).
        email: Type.Optional(Type.String({ description: 'tolerant: an invalid address (also an over-long one) is dropped, not refused' })),
      },
      { additionalProperties: false },
    ),
    consent: Type.Object(
      {
        privacyNoticeVersion: Type.String({ minLength: 1, maxLength: 100 }),
        termsVersion: Type.String({ minLength: 1, maxLength: 100 }),
        locale: Type.String({ minLength: 1, maxLength: 35 }),
        acceptedAt: Timestamp,
        policyConsentGiven: Type.Boolean({ description: 'must be true' }),
      },
      { additionalProperties: false, description: 'stored with the booking, never returned' },
    ),
    depositTermsAcceptance: Type.Optional(
      Type.Object(
        { termsVersion: Type.String({ minLength: 1, maxLength: 100 }), acceptedAt: Timestamp },
        { additionalProperties: false, description: 'required when the service takes a deposit' },
      ),
    ),
    note: Type.Optional(Type.String({ maxLength: 1000 })),
    serviceLocation: Type.Optional(
      Type.Object(
        { address: Type.String({ minLength: 1, maxLength: 300 }), note: Type.Optional(Type.String({ maxLength: 1000 })) },
        { additionalProperties: false, description: 'on-site services only (required there)' },
      ),
    ),
  },
  { additionalProperties: false },
);

export const CreateBookingResult = Type.Object({
  booking: Type.Unsafe<Record<string, unknown>>({ $ref: 'Booking#' }),
  visit: Type.Optional(
    Type.Object(
      { visitId: Type.String(), bookings: Type.Array(Type.Unsafe<Record<string, unknown>>({ $ref: 'Booking#' })) },
      { description: 'only for a visit: its id and every part in order (`booking` is the first)' },
    ),
  ),
  nextAction: Type.Optional(
    Type.Object(
      { depositPaymentUrl: Type.String({ format: 'uri', description: 'secret bearer link; live response only' }) },
      { description: 'only in the live response of an automatically accepted deposit booking' },
    ),
  ),
});
