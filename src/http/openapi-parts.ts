/**
 * Pieces of the OpenAPI document that every route shares: the response headers the server really
 * sends, the error envelope's examples (one per catalog code, built from the catalog itself), the
 * success envelope around a route's example, and a request body's example. Route schemas use them
 * through `responses()` (schemas/common.ts) and `withExample`; src/http/openapi.ts adds what depends
 * on a route's access config (security, rate-limit headers) in its transform.
 */
import type { TSchema } from 'typebox';
import { canonicalJson } from '../domain/canonical-json.ts';
import { AppError, ERROR_CODES, type ErrorCode } from '../domain/errors.ts';

/** A request id as the server makes them (request-id.ts): `req_` and 20 characters. */
export const EXAMPLE_REQUEST_ID = 'req_7k2m9q4x8c3v5b6n1p0r';

const header = (description: string, example: string) => ({ type: 'string', description, examples: [example] });

/** Sent on every answer of every route (app.ts onRequest). */
export const REQUEST_ID_HEADER = {
  'X-Request-Id': header(
    'Correlation id of the request, equal to meta.requestId; a well-formed X-Request-Id sent by the caller (8-128 of A-Z a-z 0-9 . _ : -) is kept.',
    EXAMPLE_REQUEST_ID,
  ),
};

/**
 * The rate-limit headers (draft-ietf-httpapi-ratelimit-headers-09, plugins/rate-limit.ts): on every
 * answer of a public route once its key is authenticated and authorised; `RateLimit` is absent when
 * the rate-limit store did not answer in time (the request then passes unlimited).
 */
export const RATE_LIMIT_HEADERS = {
  'RateLimit-Policy': header(
    'The quota of this route group for the key: `"<group>";q=<requests>;w=<window seconds>`.',
    '"booking";q=30;w=60',
  ),
  RateLimit: header(
    'What is left of the quota: `"<group>";r=<remaining requests>;t=<seconds until the window frees>`.',
    '"booking";r=27;t=41',
  ),
};

/** On a 429 (the rate limit, sign-in attempts) and on a 500 answered because the database was busy (db-errors.ts). */
export const RETRY_AFTER_HEADER = {
  'Retry-After': header(
    'Seconds to wait before retrying (rounded up): on a 429, and on a 500 when no database connection came free in time.',
    '1',
  ),
};

const RETRY_AFTER_STATUSES = new Set([429, 500]);

/** Headers of one response of any route; public routes get RATE_LIMIT_HEADERS in openapi.ts too. */
export function responseHeaders(status: number): Record<string, unknown> {
  return RETRY_AFTER_STATUSES.has(status) ? { ...REQUEST_ID_HEADER, ...RETRY_AFTER_HEADER } : { ...REQUEST_ID_HEADER };
}

const meta = { requestId: EXAMPLE_REQUEST_ID, v: '1' };

/** The success envelope around a route's `data` example (meta extras such as a cursor optional). */
export function okExample(data: unknown, metaExtras: Record<string, unknown> = {}) {
  return { ok: true, data, meta: { ...meta, ...metaExtras } };
}

/** Details as the server gives them for the codes that carry some. */
const EXAMPLE_DETAILS: Partial<Record<ErrorCode, { message?: string; details: Record<string, unknown> }>> = {
  'rate_limit.exceeded': {
    message: 'Rate limit of 30 requests per minute for the booking group exceeded; retry after 42 s.',
    details: { retryAfterSeconds: 42 },
  },
  'request.validation_failed': {
    details: { issues: [{ path: 'body.guest.name', message: 'must NOT have fewer than 1 characters' }] },
  },
  'auth.insufficient_capability': { details: { required: ['booking.create'], granted: ['services.read', 'availability.read'] } },
  'webhook.invalid_url': {
    message: 'The webhook URL breaks the scheme rule.',
    details: { rule: 'scheme' },
  },
};

/** The error envelope of one catalog code, with its default message. */
export function errorExample(code: ErrorCode) {
  const err = new AppError(code);
  const extra = EXAMPLE_DETAILS[code];
  return {
    ok: false,
    error: {
      code,
      message: extra?.message ?? err.message,
      retryable: err.retryable,
      ...(extra ? { details: extra.details } : {}),
    },
    meta,
  };
}

/**
 * Every catalog code's error envelope, once, as `components.examples` of the document: error
 * responses refer to these rather than repeating them in every operation.
 */
export function errorExampleComponents(): Record<string, { summary: string; value: unknown }> {
  return Object.fromEntries(ERROR_CODES.map((code) => [code, { summary: code, value: errorExample(code) }]));
}

/** The examples of an error response: one reference per code it may carry. */
export function errorExamples(codes: readonly ErrorCode[]): Record<string, { $ref: string }> {
  return Object.fromEntries(codes.map((code) => [code, { $ref: `#/components/examples/${code}` }]));
}

/** A request body schema with its example (the document shows it as the body's example). */
export function withExample<T extends TSchema>(schema: T, example: unknown): T {
  return { ...schema, examples: [example] };
}

/** A success response: what it is and a real example of its `data`. */
export interface ResponseDoc {
  description: string;
  example: unknown;
  /** meta members besides requestId and v (a cursor, say) */
  meta?: Record<string, unknown>;
  /** response headers besides the standard ones (Set-Cookie of a sign-in, say) */
  headers?: Record<string, unknown>;
}

/** Set by sign-in and invitation acceptance, cleared by sign-out (session-cookie.ts). */
export const SET_SESSION_COOKIE = {
  'Set-Cookie': header(
    'The session cookie: HttpOnly, SameSite=Lax, Path=/, Secure with the `__Host-` name prefix on an https deployment; cleared (expired) on sign-out.',
    '__Host-bk_session=4Jq9wX2mV7cB1nP8rT3yU6iO0aS5dF; Path=/; Expires=Wed, 09 Dec 2026 14:00:00 GMT; HttpOnly; Secure; SameSite=Lax',
  ),
};

/** The standard headers as OpenAPI Header Objects, `components.headers` of the document. */
export function headerComponents(): Record<string, { description: string; schema: Record<string, unknown> }> {
  const all = { ...REQUEST_ID_HEADER, ...RATE_LIMIT_HEADERS, ...RETRY_AFTER_HEADER, ...SET_SESSION_COOKIE };
  return Object.fromEntries(Object.entries(all).map(([name, { description, ...schema }]) => [name, { description, schema }]));
}

/**
 * Replaces each response header that is one of `components.headers` by a reference to it, so that
 * the document states each once instead of in every response of every operation.
 */
interface DocumentShape {
  components?: { headers?: Record<string, unknown> };
  paths?: Record<string, Record<string, { responses?: Record<string, { headers?: Record<string, unknown> }> } | undefined>>;
}

export function referToHeaderComponents<T extends object>(document: T): T {
  const doc = document as DocumentShape;
  const shared = new Map(Object.entries(doc.components?.headers ?? {}).map(([name, h]) => [name, canonicalJson(h)]));
  for (const item of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(item)) {
      for (const res of Object.values(op?.responses ?? {})) {
        const headers = res.headers ?? {};
        for (const [name, h] of Object.entries(headers)) {
          if (shared.get(name) === canonicalJson(h)) headers[name] = { $ref: `#/components/headers/${name}` };
        }
      }
    }
  }
  return document;
}
