/**
 * Start-up failures an operator can fix, as one line (what is wrong, what to do) and an exit code
 * of their own (sysexits.h), so a supervisor or a script can tell them apart without parsing text.
 * Anything not recognised here is a bug and keeps its stack trace (exit 1).
 */
import type { Config } from './config.ts';
import { DataDirLockedError } from './store/data-dir-lock.ts';
import { connectRefusal, DatabaseBusyError } from './store/db-errors.ts';
import { MigrationMismatchError } from './store/migrate.ts';

export const EXIT = {
  /** EX_DATAERR: the database's applied migrations are not this server's (missing, changed, out of order) */
  migrationMismatch: 65,
  /** EX_NOINPUT: the PostgreSQL database named in DATABASE_URL does not exist */
  databaseMissing: 66,
  /** EX_UNAVAILABLE: PostgreSQL does not answer */
  databaseUnreachable: 69,
  /** EX_CANTCREAT: the listening socket cannot be had, its port is taken */
  portInUse: 73,
  /** EX_TEMPFAIL: another running process has DATA_DIR open; it may be started once that one stops */
  dataDirLocked: 75,
  /** EX_NOPERM: PostgreSQL refused the login, or the port needs privileges */
  permissionDenied: 77,
  /** EX_CONFIG: a setting is invalid */
  config: 78,
} as const;

export interface StartupFailure {
  code: number;
  line: string;
}

type SysError = Error & { code?: string; syscall?: string; address?: string; port?: number; errors?: unknown[] };

const UNREACHABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/** host:port/database of DATABASE_URL, never its password */
function where(databaseUrl: string): string {
  try {
    const u = new URL(databaseUrl);
    return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return 'DATABASE_URL';
  }
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function describeStartupFailure(err: unknown, config: Pick<Config, 'databaseUrl' | 'host' | 'port'>): StartupFailure | undefined {
  if (err instanceof MigrationMismatchError) {
    return { code: EXIT.migrationMismatch, line: `Cannot start: ${err.message}. Nothing was changed in the database.` };
  }
  if (err instanceof DataDirLockedError) {
    return {
      code: EXIT.dataDirLocked,
      line: `Cannot start: ${err.message}. Stop that process first, or set DATA_DIR to another folder; several processes need PostgreSQL (DATABASE_URL).`,
    };
  }
  const e = err as SysError;
  if (!(e instanceof Error)) return undefined;
  if (e.syscall === 'listen' && e.code === 'EADDRINUSE') {
    return {
      code: EXIT.portInUse,
      line: `Cannot start: port ${e.port ?? '?'} on ${e.address ?? '?'} is already in use. Stop the process that listens there, or choose another port (PORT; WORKER_METRICS_PORT for a worker).`,
    };
  }
  if (e.syscall === 'listen' && e.code === 'EACCES') {
    return {
      code: EXIT.permissionDenied,
      line: `Cannot start: no permission to listen on port ${e.port ?? '?'}. Use a port above 1023 (PORT), or give node the capability to bind it.`,
    };
  }
  if (!config.databaseUrl) return undefined;
  const db = where(config.databaseUrl);
  const code = e.code ?? (e.errors?.[0] as SysError | undefined)?.code;
  const refusal = connectRefusal(code);
  if (refusal === 'database_missing') {
    return {
      code: EXIT.databaseMissing,
      line: `Cannot start: PostgreSQL at ${db} says: ${oneLine(e.message)}. Create the database (createdb), or fix the name in DATABASE_URL.`,
    };
  }
  if (refusal === 'login_refused') {
    return {
      code: EXIT.permissionDenied,
      line: `Cannot start: PostgreSQL at ${db} refused the login: ${oneLine(e.message)}. Fix the user or password in DATABASE_URL.`,
    };
  }
  // At start nothing else holds the pool: a connection that does not come in time is one that
  // could not be made (DB_POOL_TIMEOUT_MS).
  const unreachable =
    err instanceof DatabaseBusyError ||
    refusal === 'unreachable' ||
    (code !== undefined && UNREACHABLE_ERRNO.has(code)) ||
    /connection timeout|timeout exceeded when trying to connect|Connection terminated/i.test(e.message);
  if (unreachable) {
    const why = oneLine(e.message) || code || 'no answer';
    return {
      code: EXIT.databaseUnreachable,
      line: `Cannot start: PostgreSQL at ${db} cannot be reached (${why}). Check that it runs and that DATABASE_URL names the right host and port.`,
    };
  }
  return undefined;
}
