import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';
import { AppError } from '../../domain/errors.ts';

/**
 * No body of the API nests past a few levels; deeper input would only exhaust the stack of whatever
 * walks it later (the idempotency fingerprint did: a 5,000-deep body on cancel gave a 500).
 */
export const MAX_JSON_DEPTH = 32;

/** Whether the JSON text opens more than `max` objects/arrays at once (strings skipped); linear, no parse. */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/**
 * JSON is the only body type. An empty body is "no body" (integrators often send
 * Content-Type: application/json on a body-less cancel); `__proto__` and `constructor.prototype`
 * keys are refused outright rather than silently stripped; nesting deeper than MAX_JSON_DEPTH is
 * refused before parsing.
 */
export function registerJsonBody(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(null, undefined);
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
      return done(
        new AppError('request.validation_failed', `The body nests deeper than ${MAX_JSON_DEPTH} levels.`, {
          issues: [{ path: 'body', message: `nests deeper than ${MAX_JSON_DEPTH} levels` }],
        }),
        undefined,
      );
    }
    try {
      done(null, secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch {
      const err = new Error('invalid JSON') as Error & { statusCode: number; code: string };
      err.statusCode = 400;
      err.code = 'FST_ERR_CTP_INVALID_JSON_BODY';
      done(err, undefined);
    }
  });
}
