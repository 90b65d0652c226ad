import { Type } from 'typebox';
import { EVENT_NAMES } from '../../domain/bookings/states.ts';
import { DELIVERY_STATUSES, ATTEMPT_OUTCOMES } from '../../domain/webhooks/delivery-view.ts';
import { Slug } from './common.ts';

const Timestamp = Type.String({ format: 'date-time' });
const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);

export const SalonQuery = Type.Object({ salonSlug: Slug('the business (must match the key)') });

export const PutWebhookBody = Type.Object(
  {
    url: Type.String({
      description:
        'HTTPS URL, at most 500 characters, no credentials, no loopback, private, link-local or other non-public ' +
        'address; a broken rule is 422 webhook.invalid_url with details.rule (length, format, scheme, credentials, ' +
        'loopback, private, link-local, reserved). It must be written as it is used, else format: // after the scheme, ' +
        'the host in ASCII as the parser reads it (IPv4 in dotted decimal), no backslash, @ or # anywhere. It is stored ' +
        'and returned normalised (the WHATWG href): the text deliveries are sent to',
      examples: ['https://example.com/webhooks/booking'],
    }),
  },
  { additionalProperties: false },
);

export const WebhookResult = Type.Object({
  webhook: Type.Object({
    url: Type.String(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    signingSecret: Type.Optional(
      Type.String({
        pattern: '^[0-9a-f]{64}$',
        description:
          'Only in the response of the first successful PUT and of rotate-secret (and their idempotent replays): ' +
          '32 random bytes as 64 hex characters. It cannot be read again.',
      }),
    ),
  }),
});

const Outcome = Type.Enum(ATTEMPT_OUTCOMES);

export const DeliveryAttempt = Type.Object({
  attempt: Type.Integer({ minimum: 1, description: '1 to 3 automatically; an operator redelivery adds one more' }),
  startedAt: Timestamp,
  durationMs: Type.Integer({ minimum: 0 }),
  outcome: Outcome,
  statusCode: Type.Union([Type.Integer(), Type.Null()], { description: 'null when no HTTP response arrived' }),
  error: Type.Union([Type.String(), Type.Null()], { description: 'short text for timeouts and network errors' }),
});

export const DeliveryRecord = Type.Object({
  deliveryId: Type.String({ description: 'the deliveryId of the webhook payload' }),
  event: Type.Enum(EVENT_NAMES),
  bookingId: Type.String(),
  sequence: Type.Integer({ minimum: 1, description: 'transition.sequence of the event' }),
  status: Type.Enum(DELIVERY_STATUSES, {
    description:
      'processing: waiting for or making an attempt; retry_scheduled: a retry is due at nextAttemptAt; ' +
      'succeeded; failed: non-retryable answer or webhook disabled; exhausted: the last attempt failed retryably',
  }),
  attemptCount: Type.Integer({ minimum: 0 }),
  lastAttemptAt: NullableTimestamp,
  nextAttemptAt: Type.Union([Timestamp, Type.Null()], { description: 'null once the delivery has ended' }),
  outcome: Type.Union([Outcome, Type.Null()], { description: 'of the most recent attempt; null before the first ends' }),
  statusCode: Type.Union([Type.Integer(), Type.Null()], { description: 'of the most recent attempt' }),
  attempts: Type.Array(DeliveryAttempt, { description: 'oldest first' }),
  createdAt: Type.String({ format: 'date-time', description: 'when the business event happened' }),
});

const DeliveryFilters = {
  event: Type.Optional(Type.Enum(EVENT_NAMES, { description: 'only deliveries of this event' })),
  outcome: Type.Optional(Type.Enum(ATTEMPT_OUTCOMES, { description: 'only deliveries whose most recent attempt had this outcome' })),
  from: Type.Optional(
    Type.String({
      maxLength: 40,
      description:
        'inclusive; ISO 8601 date-time with Z or an offset, or a date YYYY-MM-DD (its 00:00 UTC). Default: 90 days before `to` or now; at most 90 days back when `to` is absent',
      examples: ['2026-11-01T00:00:00Z'],
    }),
  ),
  to: Type.Optional(
    Type.String({
      maxLength: 40,
      description:
        'exclusive; ISO 8601 date-time, or a date YYYY-MM-DD (the whole day is included). Default: none (up to now). At most 90 days after `from`',
      examples: ['2026-11-22T00:00:00Z'],
    }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50, description: 'page size' })),
  cursor: Type.Optional(Type.String({ maxLength: 2048, description: 'meta.cursor of the previous page' })),
};

export const DeliveriesQuery = Type.Object({ salonSlug: Slug('the business (must match the key)'), ...DeliveryFilters });

/** The operator's delivery log: the business is in the path. */
export const OperatorDeliveriesQuery = Type.Object(DeliveryFilters);

export const DeliveryResult = Type.Object({ delivery: DeliveryRecord });

export const DeliveriesResult = Type.Object({ deliveries: Type.Array(DeliveryRecord) });
