import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance, FastifySchema } from 'fastify';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM interop.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

const BASE: Options = { allErrors: false, strict: false, useDefaults: true, removeAdditional: false };

/**
 * JSON bodies are checked as typed (a string is never silently a number), while query strings,
 * path parameters and headers, which are text by nature, are coerced.
 */
export function registerValidators(app: FastifyInstance): void {
  const body = addFormats(new Ajv({ ...BASE, coerceTypes: false }));
  const text = addFormats(new Ajv({ ...BASE, coerceTypes: 'array' }));
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? body : text;
    return ajv.compile(schema as FastifySchema & object);
  });
}
