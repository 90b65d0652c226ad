import { Type, type TSchema } from 'typebox';
import { ERROR_CATALOG, ERROR_CODES, type ErrorCode } from '../../domain/errors.ts';
import { errorExamples, okExample, responseHeaders, type ResponseDoc } from '../openapi-parts.ts';

export const Meta = Type.Object(
  {
    requestId: Type.String({ description: 'Correlation id; also sent as the X-Request-Id header.' }),
    v: Type.Literal('1', { description: 'API version that served the response.' }),
    idempotent: Type.Optional(Type.Literal(true, { description: 'Present and true only on an idempotent replay.' })),
    bookingMode: Type.Optional(Type.Literal('groupSession')),
    cursor: Type.Optional(Type.String({ description: 'Opaque; present when a next page exists. Bound to the filters that produced it.' })),
    availabilitySuppressed: Type.Optional(Type.Boolean()),
    truncated: Type.Optional(Type.Boolean()),
    returnedSlots: Type.Optional(Type.Integer()),
    slotLimit: Type.Optional(Type.Integer()),
  },
  { $id: 'Meta', additionalProperties: false },
);

export const ErrorCodeSchema = Type.Enum(ERROR_CODES, {
  $id: 'ErrorCode',
  description: 'Stable error code `{domain}.{reason}`; clients branch on it.',
});

export const ErrorBody = Type.Object(
  {
    code: Type.Unsafe<string>({ $ref: 'ErrorCode#' }),
    message: Type.String({ description: 'Human-readable; may be localised; must not be parsed.' }),
    retryable: Type.Boolean(),
    details: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { $id: 'ErrorBody' },
);

export const ErrorEnvelope = Type.Object(
  {
    ok: Type.Literal(false),
    error: Type.Unsafe<Record<string, unknown>>({ $ref: 'ErrorBody#' }),
    meta: Type.Unsafe<Record<string, unknown>>({ $ref: 'Meta#' }),
  },
  { $id: 'ErrorEnvelope' },
);

export const ENVELOPE_SCHEMAS = [Meta, ErrorCodeSchema, ErrorBody, ErrorEnvelope];

export function Envelope<T extends TSchema>(data: T) {
  return Type.Object({
    ok: Type.Literal(true),
    data,
    meta: Type.Unsafe<Record<string, unknown>>({ $ref: 'Meta#' }),
  });
}

const errorRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'ErrorEnvelope#' });

/**
 * Response map for a route: the success schema plus the error envelope for every error status the
 * route can produce, each described by the catalog codes it may carry. The codes are typed so that
 * a misspelt one fails to compile rather than at start-up. `doc` gives the success response its
 * description and example; each error status gets one example per code (openapi-parts.ts).
 */
export function responses<T extends TSchema>(status: 200 | 201 | 202, data: T, errorCodes: readonly ErrorCode[], doc: ResponseDoc) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(errorCodes)) {
    const status = ERROR_CATALOG[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<string, TSchema> = {
    [status]: {
      ...Envelope(data),
      description: doc.description,
      headers: { ...responseHeaders(status), ...doc.headers },
      examples: [okExample(doc.example, doc.meta)],
    },
  };
  for (const [s, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    // The `content` form, as the examples of a `$ref` response schema would not reach the document.
    out[s] = Type.Unsafe({
      description: codes.map((c) => `\`${c}\``).join(', '),
      headers: responseHeaders(s),
      content: { 'application/json': { schema: errorRef, examples: errorExamples(codes) } },
    });
  }
  return out;
}

export const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';
export const TIME_PATTERN = '^([01][0-9]|2[0-3]):[0-5][0-9]$';
export const DateString = (description?: string) =>
  Type.String({ pattern: DATE_PATTERN, description: description ?? 'Date YYYY-MM-DD', examples: ['2026-12-01'] });
export const TimeString = (description?: string) =>
  Type.String({ pattern: TIME_PATTERN, description: description ?? 'Wall-clock time HH:MM (24 h)', examples: ['09:30'] });
export const Slug = (description: string) => Type.String({ minLength: 1, maxLength: 100, description });
