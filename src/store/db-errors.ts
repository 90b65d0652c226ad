/**
 * The one place that knows SQLSTATE codes. Nothing outside src/store reads them:
 * - a store function whose statement can hit a constraint answers with a result (`'time_taken'`,
 *   `'slug_taken'`, `'quota_exceeded'`…) instead of throwing, and its caller picks the catalog
 *   error, since only the caller knows which one the situation calls for (a lost slot is a
 *   different code for an automatic service than for a manual one);
 * - what no caller can act on (a value PostgreSQL cannot store, a pool with no free connection)
 *   reaches the error handler, which asks fromDbError for its catalog error;
 * - start-up asks connectRefusal what a refused first connection means for its exit code.
 * Such a result means the statement failed: inside a transaction, that transaction is aborted and
 * the caller has to end it (throw), not run more statements on it.
 */
import { AppError } from '../domain/errors.ts';

/** Both drivers expose `code` and `constraint`. */
interface PgError {
  code?: string;
  constraint?: string;
}

function pgError(err: unknown): PgError | undefined {
  return typeof err === 'object' && err !== null && 'code' in err ? (err as PgError) : undefined;
}

export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = pgError(err);
  return e?.code === '23505' && (constraint === undefined || e.constraint === constraint);
}

export function isExclusionViolation(err: unknown, constraint?: string): boolean {
  const e = pgError(err);
  return e?.code === '23P01' && (constraint === undefined || e.constraint === constraint);
}

/** take_booking_quota (migration 004): the business's monthly booking quota is used up. */
export function isQuotaExceeded(err: unknown): boolean {
  return pgError(err)?.code === 'BKQ01';
}

/** Serialization failure or deadlock: the transaction may simply be run again. */
export function isRetryableTxError(err: unknown): boolean {
  const c = pgError(err)?.code;
  return c === '40001' || c === '40P01';
}

/**
 * Class 22 (data exception): a value PostgreSQL cannot store as given, e.g. a NUL character or an
 * out-of-range number that slipped past validation. The statement failed; nothing was written.
 */
function isDataException(err: unknown): boolean {
  const c = pgError(err)?.code;
  return typeof c === 'string' && c.startsWith('22');
}

/**
 * No pool connection came free within DB_POOL_TIMEOUT_MS: the request is answered at once as
 * retryable instead of queueing for seconds behind a burst. A class, so that the error handler
 * (a warning, not an error log) and start-up (an unreachable database) can tell it by instanceof.
 */
export class DatabaseBusyError extends Error {
  constructor() {
    super('no database connection came free in time');
    this.name = 'DatabaseBusyError';
  }
}

/**
 * What PostgreSQL's refusal of a first connection says (SQLSTATE of the error, or of the first of
 * an AggregateError's), for start-up's exit codes; undefined when the code says none of these.
 */
export function connectRefusal(code: string | undefined): 'database_missing' | 'login_refused' | 'unreachable' | undefined {
  if (code === '3D000') return 'database_missing';
  if (code === '28P01' || code === '28000') return 'login_refused';
  // class 08 (connection exception) and "the server is starting up / shutting down"
  if (code !== undefined && /^(08|57P0[1-4])/.test(code)) return 'unreachable';
  return undefined;
}

/**
 * The catalog error for a database failure that reached the error handler, or undefined when err is
 * not one the store knows (the handler then maps it as anything else).
 */
export function fromDbError(err: unknown): AppError | undefined {
  if (err instanceof DatabaseBusyError) {
    // internal.error is the catalog's one retryable server-side code; Retry-After says how soon.
    return new AppError('internal.error', 'The service is busy; retry in a moment.', undefined, { 'retry-after': '1' });
  }
  if (isDataException(err)) {
    return new AppError('request.validation_failed', 'A value in the request cannot be stored as given.');
  }
  return undefined;
}
