import pino, { type Logger } from 'pino';

/** Guest contact data must never reach a log line, whatever object a caller logs. */
const REDACT = [
  'req.headers.authorization',
  'req.headers["idempotency-key"]',
  '*.phone',
  '*.email',
  '*.guest.phone',
  '*.guest.email',
  '*.secret',
  '*.signingSecret',
];

export function createLogger(level: string): Logger {
  return pino({ level, redact: { paths: REDACT, censor: '[redacted]' } });
}
