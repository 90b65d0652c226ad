export {
  type BookingClient,
  type BookingClientOptions,
  createBookingClient,
  newIdempotencyKey,
  type RawClient,
  type WriteOptions,
} from './client.ts';
export { BookingApiError, type ErrorCode, isErrorCode, UnexpectedResponseError } from './errors.ts';
export type { components, operations, paths } from './generated/openapi.ts';
export type { RetryOptions } from './retry.ts';
export {
  standardWebhooksKey,
  type VerifiedWebhook,
  type VerifyWebhookOptions,
  verifyWebhook,
  type WebhookEvent,
  WebhookVerificationError,
  type WebhookFailure,
  type WebhookScheme,
} from './webhooks.ts';
