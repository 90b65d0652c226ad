import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, isAppError } from '../../domain/errors.ts';
import { errorEnvelope } from '../envelope.ts';
import { DatabaseBusyError, fromDbError } from '../../store/db-errors.ts';

interface ValidationIssue {
  path: string;
  message: string;
}

function validationIssues(err: FastifyError): ValidationIssue[] {
  const context = err.validationContext ?? 'body';
  return (err.validation ?? []).slice(0, 20).map((v) => {
    const params = v.params as Record<string, unknown>;
    let path = `${context}${v.instancePath.replace(/\//g, '.')}`;
    if (v.keyword === 'required' && typeof params.missingProperty === 'string') {
      path += `.${params.missingProperty}`;
    }
    if (v.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
      return { path: `${path}.${params.additionalProperty}`, message: 'is not an allowed property' };
    }
    return { path, message: v.message ?? 'is invalid' };
  });
}

/** Maps anything thrown into the catalog; only AppError text and validation paths reach clients. */
export function toAppError(err: unknown): AppError {
  if (isAppError(err)) return err;
  const e = err as FastifyError;
  if (e.validation) {
    return new AppError('request.validation_failed', undefined, { issues: validationIssues(e) });
  }
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('request.payload_too_large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('request.unsupported_media_type');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('request.validation_failed', 'The Content-Length header does not match the body.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('request.validation_failed', 'The body is not valid JSON.', {
        issues: [{ path: 'body', message: 'is not valid JSON' }],
      });
    default:
      break;
  }
  // The store's own mapping: SQLSTATEs and pool errors are known only in src/store.
  const fromDb = fromDbError(err);
  if (fromDb) return fromDb;
  if (e instanceof SyntaxError || e.statusCode === 400) {
    return new AppError('request.validation_failed', 'The request is malformed.', {
      issues: [{ path: 'body', message: 'is malformed' }],
    });
  }
  if (e.statusCode === 404) return new AppError('request.not_found');
  if (e.statusCode === 413) return new AppError('request.payload_too_large');
  if (e.statusCode === 415) return new AppError('request.unsupported_media_type');
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return new AppError('request.validation_failed', 'The request is malformed.');
  }
  return new AppError('internal.error');
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const appErr = toAppError(err);
    if (err instanceof DatabaseBusyError) {
      request.log.warn({ reqId: request.id }, 'no database connection came free in time (DB_POOL_TIMEOUT_MS); answered busy');
    } else if (appErr.code === 'internal.error') {
      request.log.error({ err, reqId: request.id }, 'unhandled error');
    }
    if (appErr.headers) void reply.headers(appErr.headers);
    return reply.status(appErr.status).send(errorEnvelope(request, appErr));
  });

  app.setNotFoundHandler((request, reply) => {
    return reply.status(404).send(errorEnvelope(request, new AppError('request.not_found')));
  });
}
