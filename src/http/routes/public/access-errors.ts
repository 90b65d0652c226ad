import type { ErrorCode } from '../../../domain/errors.ts';

/** Errors any public route can give before its own logic runs. */
export const PUBLIC_AUTH_ERRORS: readonly ErrorCode[] = [
  'auth.invalid_key',
  'auth.plan_insufficient',
  'auth.kind_endpoint_denied',
  'auth.insufficient_capability',
  'auth.scope_mismatch',
  'rate_limit.exceeded',
  'request.validation_failed',
  'internal.error',
];

export const WRITE_ERRORS: readonly ErrorCode[] = [
  'idempotency.key_required',
  'idempotency.key_invalid',
  'idempotency.payload_mismatch',
  'idempotency.request_in_progress',
  'request.payload_too_large',
  'request.unsupported_media_type',
];
