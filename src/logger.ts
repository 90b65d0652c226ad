import pino, { type DestinationStream, type Logger } from 'pino';
import { maskLineSecrets, scrubValue } from './log-scrub.ts';

/**
 * Paths pino masks in what serializers return (objects that log-scrub.ts leaves to them); the
 * scrub masks the same keys at any depth of plain objects.
 */
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

/**
 * The one logger of a process. No secret or guest data may reach a line at any level
 * (docs/operations.md "Logs"): every logged object is scrubbed (log-scrub.ts), errors under `err`
 * too, and API keys and invitation tokens in URLs are masked in the finished line whatever carried them. `destination` is for
 * tests; a process logs to stdout.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    redact: { paths: REDACT, censor: '[redacted]' },
    formatters: { log: (obj) => scrubValue(obj) as Record<string, unknown> },
    serializers: { err: (err: unknown) => scrubValue(err) },
    hooks: { streamWrite: maskLineSecrets },
  };
  return destination ? pino(options, destination) : pino(options);
}
