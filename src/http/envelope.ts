import type { FastifyRequest } from 'fastify';
import { type AppError, ERROR_CATALOG, type ErrorCode } from '../domain/errors.ts';

export const API_VERSION = '1';

export interface MetaExtras {
  idempotent?: true;
  bookingMode?: 'groupSession';
  cursor?: string;
  availabilitySuppressed?: boolean;
  truncated?: boolean;
  returnedSlots?: number;
  slotLimit?: number;
}

export function meta(request: FastifyRequest, extras?: MetaExtras) {
  return { requestId: request.id, v: API_VERSION, ...extras };
}

export function ok<T>(request: FastifyRequest, data: T, extras?: MetaExtras) {
  return { ok: true as const, data, meta: meta(request, extras) };
}

export function errorEnvelope(request: FastifyRequest, err: AppError) {
  return errorEnvelopeFor(request.id, err);
}

/** The same envelope for an answer given below Fastify, where there is no request object (client-errors.ts). */
export function errorEnvelopeFor(requestId: string, err: AppError) {
  const body: { code: ErrorCode; message: string; retryable: boolean; details?: Record<string, unknown> } = {
    code: err.code,
    message: err.message,
    retryable: ERROR_CATALOG[err.code].retryable,
  };
  if (err.details !== undefined) body.details = err.details;
  return { ok: false as const, error: body, meta: { requestId, v: API_VERSION } };
}
