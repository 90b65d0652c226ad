import { type components, errorCodeValues } from './generated/openapi.ts';

/** A code of the API's closed error catalog, as the OpenAPI document lists them. */
export type ErrorCode = components['schemas']['ErrorCode'];

export type ErrorEnvelope = components['schemas']['ErrorEnvelope'];

const CODES: ReadonlySet<string> = new Set(errorCodeValues);

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && CODES.has(value);
}

/**
 * An answer of the API in its error envelope. Branch on `code`; `message` is for people and may
 * change. `idempotencyKey` is the key the failed write was sent with: retrying the same call with
 * it later is safe (a replay, never a second booking).
 */
export class BookingApiError extends Error {
  override readonly name = 'BookingApiError';
  readonly code: ErrorCode;
  readonly status: number;
  readonly retryable: boolean;
  readonly details: Record<string, unknown> | undefined;
  readonly requestId: string | undefined;
  readonly idempotencyKey: string | undefined;

  constructor(init: {
    code: ErrorCode;
    message: string;
    status: number;
    retryable: boolean;
    details?: Record<string, unknown> | undefined;
    requestId?: string | undefined;
    idempotencyKey?: string | undefined;
  }) {
    super(init.message);
    this.code = init.code;
    this.status = init.status;
    this.retryable = init.retryable;
    this.details = init.details;
    this.requestId = init.requestId;
    this.idempotencyKey = init.idempotencyKey;
  }
}

/**
 * A failed answer that is not the API's error envelope (a proxy's HTML page, a cut body): no
 * catalog code to give, so not a BookingApiError.
 */
export class UnexpectedResponseError extends Error {
  override readonly name = 'UnexpectedResponseError';
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly requestId: string | undefined,
  ) {
    super(`The server answered ${status} without the API's error envelope.`);
  }
}

function isEnvelope(body: unknown): body is ErrorEnvelope {
  if (typeof body !== 'object' || body === null) return false;
  const error = (body as { error?: unknown }).error;
  return typeof error === 'object' && error !== null && isErrorCode((error as { code?: unknown }).code);
}

/** The error a failed response stands for; `body` as openapi-fetch parsed it. */
export function errorOf(response: Response, body: unknown, idempotencyKey?: string): BookingApiError | UnexpectedResponseError {
  const headerId = response.headers.get('x-request-id') ?? undefined;
  if (!isEnvelope(body)) return new UnexpectedResponseError(response.status, body, headerId);
  return new BookingApiError({
    code: body.error.code,
    message: body.error.message,
    status: response.status,
    retryable: body.error.retryable,
    details: body.error.details,
    requestId: body.meta?.requestId ?? headerId,
    idempotencyKey,
  });
}
