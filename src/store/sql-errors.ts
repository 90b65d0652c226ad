/** SQLSTATE codes the store turns into domain errors; both drivers expose `code` and `constraint`. */
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

export function isCheckViolation(err: unknown, constraint?: string): boolean {
  const e = pgError(err);
  return e?.code === '23514' && (constraint === undefined || e.constraint === constraint);
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
export function isDataException(err: unknown): boolean {
  const c = pgError(err)?.code;
  return typeof c === 'string' && c.startsWith('22');
}

/**
 * No pool connection came free within DB_POOL_TIMEOUT_MS: the request is answered at once as
 * retryable instead of queueing for seconds behind a burst.
 */
export class DatabaseBusyError extends Error {
  constructor() {
    super('no database connection came free in time');
    this.name = 'DatabaseBusyError';
  }
}

export function isDatabaseBusy(err: unknown): boolean {
  return err instanceof DatabaseBusyError;
}
