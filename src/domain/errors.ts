import { MAX_RANGE_DAYS } from './availability/range-limit.ts';

/**
 * The closed catalog of the API's 40 stable error codes. Code, HTTP status and `retryable` are
 * contract (booking-api-v1.md "Errors" plus decisions.md); nothing else may be sent to a client.
 */
export const ERROR_CATALOG = {
  'auth.invalid_key': { status: 401, retryable: false },
  'auth.insufficient_capability': { status: 403, retryable: false },
  'auth.scope_mismatch': { status: 403, retryable: false },
  'auth.plan_insufficient': { status: 403, retryable: false },
  'auth.kind_endpoint_denied': { status: 403, retryable: false },
  'auth.origin_denied': { status: 403, retryable: false },
  'availability.date_range_too_wide': { status: 400, retryable: false },
  'booking.slot_unavailable': { status: 409, retryable: false },
  'booking.service_pricing_changed': { status: 409, retryable: false },
  'booking.slot_no_longer_available': { status: 409, retryable: false },
  'booking.deposit_terms_required': { status: 422, retryable: false },
  'booking.deposit_terms_changed': { status: 422, retryable: false },
  'booking.deposit_unavailable': { status: 409, retryable: true },
  'booking.booking_disabled': { status: 409, retryable: false },
  'booking.invalid_transition': { status: 409, retryable: false },
  'booking.not_found': { status: 404, retryable: false },
  'booking.session_full': { status: 409, retryable: false },
  'booking.slot_token_invalid': { status: 409, retryable: false },
  'booking.hold_not_found': { status: 404, retryable: false },
  'booking.hold_expired': { status: 409, retryable: false },
  'booking.hold_mismatch': { status: 409, retryable: false },
  'idempotency.payload_mismatch': { status: 409, retryable: false },
  'idempotency.request_in_progress': { status: 503, retryable: true },
  'idempotency.key_required': { status: 400, retryable: false },
  'idempotency.key_invalid': { status: 400, retryable: false },
  'rate_limit.exceeded': { status: 429, retryable: true },
  'request.invalid_cursor': { status: 400, retryable: false },
  'request.validation_failed': { status: 400, retryable: false },
  'request.payload_too_large': { status: 413, retryable: false },
  'request.unsupported_media_type': { status: 415, retryable: false },
  'request.not_found': { status: 404, retryable: false },
  'catalog.service_not_found': { status: 404, retryable: false },
  'catalog.staff_not_found': { status: 404, retryable: false },
  'catalog.resource_not_found': { status: 404, retryable: false },
  'resource.in_use': { status: 409, retryable: false },
  'client.not_found': { status: 404, retryable: false },
  'subscription.quota_exceeded': { status: 403, retryable: false },
  'webhook.invalid_url': { status: 422, retryable: false },
  'webhook.not_configured': { status: 404, retryable: false },
  'member.last_owner': { status: 409, retryable: false },
  'mail.not_configured': { status: 503, retryable: false },
  'internal.error': { status: 500, retryable: true },
} as const satisfies Record<string, { status: number; retryable: boolean }>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

export const ERROR_CODES = Object.keys(ERROR_CATALOG) as ErrorCode[];

/** Default human-readable messages; clients must not parse them. */
const DEFAULT_MESSAGES: Record<ErrorCode, string> = {
  'auth.invalid_key': 'The API key is missing, invalid, expired or revoked.',
  'auth.insufficient_capability': 'The API key lacks the capability this endpoint needs.',
  'auth.scope_mismatch': 'The salon or location is not within the scope of this API key.',
  'auth.plan_insufficient': "The business's plan does not include Public API access.",
  'auth.kind_endpoint_denied': 'This kind of API key may not call this endpoint.',
  'auth.origin_denied': "A write signed in by the session cookie must come from this service's own origin.",
  'availability.date_range_too_wide': `The date range may span at most ${MAX_RANGE_DAYS} days after its start.`,
  'booking.slot_unavailable': 'The requested slot is not available; search again.',
  'booking.service_pricing_changed': 'The service changed since it was listed; reload services.',
  'booking.slot_no_longer_available': 'The slot was taken before the booking could be accepted; no booking was created.',
  'booking.deposit_terms_required': 'This service requires deposit terms acceptance.',
  'booking.deposit_terms_changed': 'The accepted deposit terms are outdated; reload services and reconfirm with the guest.',
  'booking.deposit_unavailable': 'Deposit collection is temporarily unavailable.',
  'booking.booking_disabled': 'Booking is disabled at this location.',
  'booking.invalid_transition': 'The booking cannot make this transition from its current state.',
  'booking.not_found': 'No such booking within this business.',
  'booking.session_full': 'The group session has no seat left.',
  'booking.slot_token_invalid': 'The slot token is invalid or expired; search again.',
  'booking.hold_not_found': 'No such hold within this business.',
  'booking.hold_expired': 'The hold expired, was released or was already used; search again and hold a new time.',
  'booking.hold_mismatch': 'The booking does not match its hold (service, staff member or slot).',
  'idempotency.payload_mismatch': 'This Idempotency-Key was used with a different request.',
  'idempotency.request_in_progress': 'A request with this Idempotency-Key is still being processed; retry later with the same key.',
  'idempotency.key_required': 'The Idempotency-Key header is required for this operation.',
  'idempotency.key_invalid': 'The Idempotency-Key header must be an RFC 4122 UUID of version 1 to 5.',
  'rate_limit.exceeded': 'Rate limit exceeded; retry after the indicated time.',
  'request.invalid_cursor': 'The cursor is invalid or belongs to other filters.',
  'request.validation_failed': 'The request does not match its schema.',
  'request.payload_too_large': 'The request body is too large.',
  'request.unsupported_media_type': 'The request body must be application/json.',
  'request.not_found': 'No such route.',
  'catalog.service_not_found': 'No such service at this location.',
  'catalog.staff_not_found': 'No such staff member at this location for this service.',
  'catalog.resource_not_found': 'No such resource in this business.',
  'client.not_found': 'No such client.',
  'resource.in_use': 'Future bookings use more units of this resource than the new quantity; move or cancel them first.',
  'subscription.quota_exceeded': 'The monthly booking quota of the plan is reached.',
  'webhook.invalid_url': 'The webhook URL breaks a URL rule.',
  'webhook.not_configured': 'No webhook is configured.',
  'member.last_owner': 'A business keeps at least one owner; make another member owner first.',
  'mail.not_configured':
    'This server sends no mail (SMTP_URL is not set), so this cannot be done by email; ask the administrator of this server.',
  'internal.error': 'An unexpected error occurred.',
};

/** An error the domain raises on purpose; it always carries a catalog code. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;
  /** extra response headers (e.g. Retry-After) */
  readonly headers: Record<string, string> | undefined;

  constructor(code: ErrorCode, message?: string, details?: Record<string, unknown>, headers?: Record<string, string>) {
    super(message ?? DEFAULT_MESSAGES[code]);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
    this.headers = headers;
  }

  get status(): number {
    return ERROR_CATALOG[this.code].status;
  }

  get retryable(): boolean {
    return ERROR_CATALOG[this.code].retryable;
  }
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}

/** A 400 for one field that passed its schema but breaks a rule the schema cannot express. */
export function invalidField(path: string, message: string): AppError {
  return new AppError('request.validation_failed', `${path} ${message}`, { issues: [{ path, message }] });
}
