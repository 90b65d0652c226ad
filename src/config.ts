import { isIP } from 'node:net';
/**
 * The only module that reads process.env. Every setting is validated once at start; a bad value
 * stops the server with a message that names the variable.
 */
import { RETRY_RANGE_COUNT, type RetryRange } from './domain/webhooks/retry-policy.ts';

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  redisUrl: string | undefined;
  adminToken: string | undefined;
  publicBaseUrl: string;
  /**
   * TRUST_PROXY: which proxies' X-Forwarded-For to believe for the client address (sign-in limits,
   * logs): a hop count, or a list of proxy addresses/CIDRs; false (unset) believes none.
   */
  trustProxy: false | number | string[];
  seedDemo: boolean;
  webhookWorker: boolean;
  webhookTimeoutMs: number;
  webhookRetryDelays: RetryRange[];
  webhookAllowPrivateTargets: boolean;
  logLevel: string;
  /** PostgreSQL pool size (DB_POOL_MAX) */
  dbPoolMax: number;
  /** how long a request waits for a pool connection before it is answered "busy" (DB_POOL_TIMEOUT_MS) */
  dbPoolTimeoutMs: number;
  /** creates of one business that run at once in this process; more wait in memory (BOOKING_CONCURRENCY_PER_BUSINESS) */
  bookingConcurrencyPerBusiness: number;
  /** a rate-limit check slower than this lets the request through (RATE_LIMIT_TIMEOUT_MS) */
  rateLimitTimeoutMs: number;
  /** where a standalone worker (`npm run worker`) serves GET /metrics, on HOST; unset: nowhere */
  workerMetricsPort: number | undefined;
  /** `smtp://…` or `smtps://…` (SMTP_URL): invitation mail; unset: no mail is sent */
  smtpUrl: string | undefined;
  /** the From address of that mail and of guest messages (MAIL_FROM) */
  mailFrom: string;
  /** NOTIFICATION_WORKER: this process's worker plans and sends guest and business messages */
  notificationWorker: boolean;
  /** NOTIFICATION_TIMEOUT_MS: the longest wait of one send (an SMTP socket, the SMS gateway's answer); the send job's lease follows it */
  notificationTimeoutMs: number;
  /** NOTIFICATION_RETRY_DELAYS: the waits before a message's attempts 2, 3, … */
  notificationRetryDelaysMs: number[];
  /** SMS_GATEWAY_URL and SMS_GATEWAY_SECRET: the SMS channel; unset: no SMS is sent */
  smsGatewayUrl: string | undefined;
  smsGatewaySecret: string | undefined;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function str(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

function int(env: Env, name: string, def: number, min: number, max: number): number {
  const v = str(env, name);
  if (v === undefined) return def;
  if (!/^\d+$/.test(v)) throw new ConfigError(name, `must be a whole number, got "${v}"`);
  const n = Number(v);
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

function bool(env: Env, name: string, def: boolean): boolean {
  const v = str(env, name);
  if (v === undefined) return def;
  const l = v.toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(l)) return true;
  if (['false', '0', 'no', 'off'].includes(l)) return false;
  throw new ConfigError(name, `must be true or false, got "${v}"`);
}

const DURATION = /^(\d+)(ms|s|m|h)$/;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

function duration(name: string, text: string): number {
  const m = DURATION.exec(text.trim());
  if (!m) throw new ConfigError(name, `"${text}" is not a duration like 500ms, 15s, 2m or 1h`);
  return Number(m[1]) * UNIT_MS[m[2]!]!;
}

/** `15s-2m,2m-6m`: one range per retry (before attempt 2, before attempt 3). */
export function parseRetryDelays(name: string, text: string): RetryRange[] {
  const parts = text.split(',');
  if (parts.length !== RETRY_RANGE_COUNT) throw new ConfigError(name, 'needs exactly two ranges, e.g. "15s-2m,2m-6m"');
  return parts.map((part) => {
    const [a, b, extra] = part.split('-');
    if (a === undefined || b === undefined || extra !== undefined) {
      throw new ConfigError(name, `"${part}" is not a range like 15s-2m`);
    }
    const minMs = duration(name, a);
    const maxMs = duration(name, b);
    if (maxMs < minMs) throw new ConfigError(name, `range "${part}" ends before it starts`);
    return { minMs, maxMs };
  });
}

/** `1m,5m,15m,30m,60m`: the wait before each retry, in order (at least one, at most 20). */
export function parseDelayList(name: string, text: string): number[] {
  const parts = text.split(',');
  if (parts.length > 20) throw new ConfigError(name, 'takes at most 20 delays');
  return parts.map((part) => duration(name, part));
}

function url(name: string, v: string | undefined, protocols: string[]): string | undefined {
  if (v === undefined) return undefined;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new ConfigError(name, 'is not a valid URL');
  }
  if (!protocols.includes(u.protocol)) {
    throw new ConfigError(name, `must use ${protocols.join(' or ')}`);
  }
  return v;
}

/**
 * `1` (one proxy in front), or `10.0.0.5,10.1.0.0/16`. Never "believe everyone": anybody could then
 * name any client address and spread sign-in attempts over invented ones.
 */
function parseTrustProxy(v: string | undefined): false | number | string[] {
  if (v === undefined) return false;
  if (/^\d+$/.test(v)) {
    const hops = Number(v);
    if (hops < 1 || hops > 10) throw new ConfigError('TRUST_PROXY', 'a hop count must be 1 to 10');
    return hops;
  }
  const parts = v.split(',').map((p) => p.trim());
  for (const p of parts) {
    const [addr, bits, extra] = p.split('/');
    const ok = extra === undefined && addr !== undefined && isIP(addr) !== 0 && (bits === undefined || /^\d{1,3}$/.test(bits));
    if (!ok) throw new ConfigError('TRUST_PROXY', `"${p}" is not a hop count, an IP address or a CIDR range`);
  }
  return parts;
}

function smsGateway(env: Env): { smsGatewayUrl: string | undefined; smsGatewaySecret: string | undefined } {
  const smsGatewayUrl = url('SMS_GATEWAY_URL', str(env, 'SMS_GATEWAY_URL'), ['http:', 'https:']);
  const smsGatewaySecret = str(env, 'SMS_GATEWAY_SECRET');
  if (smsGatewayUrl !== undefined && (smsGatewaySecret === undefined || smsGatewaySecret.length < 16)) {
    throw new ConfigError('SMS_GATEWAY_SECRET', 'must be set, at least 16 characters, when SMS_GATEWAY_URL is');
  }
  return { smsGatewayUrl, smsGatewaySecret };
}

export function loadConfig(env: Env = process.env): Config {
  const port = int(env, 'PORT', 3000, 0, 65535);
  const host = str(env, 'HOST') ?? '127.0.0.1';
  const databaseUrl = url('DATABASE_URL', str(env, 'DATABASE_URL'), ['postgres:', 'postgresql:']);
  const redisUrl = url('REDIS_URL', str(env, 'REDIS_URL'), ['redis:', 'rediss:']);
  const adminToken = str(env, 'ADMIN_TOKEN');
  if (adminToken !== undefined && adminToken.length < 16) {
    throw new ConfigError('ADMIN_TOKEN', 'must be at least 16 characters');
  }
  const publicBaseUrl =
    url('PUBLIC_BASE_URL', str(env, 'PUBLIC_BASE_URL'), ['http:', 'https:'])?.replace(/\/+$/, '') ??
    `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const smtpUrl = url('SMTP_URL', str(env, 'SMTP_URL'), ['smtp:', 'smtps:']);
  // Default (guest-side.md): bookings@ the public host name (an address literal would not be one a server accepts).
  const publicHost = new URL(publicBaseUrl).hostname;
  const mailFrom = str(env, 'MAIL_FROM') ?? `bookings@${/^[\d.]+$|^\[/.test(publicHost) ? 'localhost' : publicHost}`;
  if (!/^[^@\s<>]+@[^@\s<>]+$|^[^<>]*<[^@\s<>]+@[^@\s<>]+>$/.test(mailFrom)) {
    throw new ConfigError('MAIL_FROM', 'must be an address like no-reply@example.com or "Name <no-reply@example.com>"');
  }
  const trustProxy = parseTrustProxy(str(env, 'TRUST_PROXY'));
  const logLevel = str(env, 'LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
  }
  return {
    port,
    host,
    databaseUrl,
    dataDir: str(env, 'DATA_DIR') ?? './data',
    redisUrl,
    adminToken,
    publicBaseUrl,
    trustProxy,
    seedDemo: bool(env, 'SEED_DEMO', databaseUrl === undefined),
    webhookWorker: bool(env, 'WEBHOOK_WORKER', true),
    webhookTimeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 8000, 100, 60_000),
    webhookRetryDelays: parseRetryDelays('WEBHOOK_RETRY_DELAYS', str(env, 'WEBHOOK_RETRY_DELAYS') ?? '15s-2m,2m-6m'),
    webhookAllowPrivateTargets: bool(env, 'WEBHOOK_ALLOW_PRIVATE_TARGETS', false),
    logLevel,
    dbPoolMax: int(env, 'DB_POOL_MAX', 20, 1, 1000),
    dbPoolTimeoutMs: int(env, 'DB_POOL_TIMEOUT_MS', 2000, 50, 60_000),
    bookingConcurrencyPerBusiness: int(env, 'BOOKING_CONCURRENCY_PER_BUSINESS', 8, 1, 1000),
    rateLimitTimeoutMs: int(env, 'RATE_LIMIT_TIMEOUT_MS', 100, 5, 5000),
    workerMetricsPort: str(env, 'WORKER_METRICS_PORT') === undefined ? undefined : int(env, 'WORKER_METRICS_PORT', 0, 0, 65535),
    smtpUrl,
    mailFrom,
    notificationWorker: bool(env, 'NOTIFICATION_WORKER', true),
    notificationTimeoutMs: int(env, 'NOTIFICATION_TIMEOUT_MS', 20_000, 100, 120_000),
    notificationRetryDelaysMs: parseDelayList('NOTIFICATION_RETRY_DELAYS', str(env, 'NOTIFICATION_RETRY_DELAYS') ?? '1m,5m,15m,30m,60m'),
    ...smsGateway(env),
  };
}
