/**
 * Request generators and row snapshots shared by the fuzz suites (test/fuzz.test.ts: operator routes
 * and public GETs; test/fuzz-writes.test.ts: public writes): hostile values, valid-ish values from an
 * OpenAPI schema, near-valid mutations, whole requests for one route, and a digest of a business's
 * rows to prove a rejected write changed nothing.
 */
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import type { RouteTableEntry } from '../../src/http/context.ts';
import { call, type Harness, type JsonResponse } from './harness.ts';
import { assertWellFormed, bodySchemaOf, label, operationOf, paramsOf, pathParamNames, type Schema } from './route-samples.ts';

// ---------------------------------------------------------------------------------------------
// Hostile values

export const ONE_MB = 'x'.repeat(1024 * 1024);

export function deep(depth: number, leaf: unknown = 1): unknown {
  let v: unknown = leaf;
  for (let i = 0; i < depth; i++) v = i % 2 === 0 ? { a: v } : [v];
  return v;
}

export const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  '\t\n\r',
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '1e308',
  '-1e308',
  '1e-400',
  '0x10',
  '9223372036854775808',
  '-9223372036854775809',
  '00000000000000000000001',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'toString',
  '\u202Eevil\u202C',
  'שלום עולם',
  'مرحبا بالعالم',
  '😀👩‍👩‍👧‍👦🏳️‍🌈',
  'e\u0301\u0301\u0301',
  'ＡＢＣ',
  '\uFEFFbom',
  '../../etc/passwd',
  "' OR 1=1 --",
  '"; drop table x; --',
  '<script>alert(1)</script>',
  '%00%ff%zz',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log-injection probe, sent as text
  '${jndi:ldap://x}',
  '{{7*7}}',
  '2026-02-30',
  '2026-13-01',
  '24:00',
  '23:60',
  '0000-00-00',
  '9999-12-31T23:59:59.999Z',
  '1970-01-01T00:00:00Z',
  'a'.repeat(101),
  'a'.repeat(10_000),
];

export const HOSTILE_NUMBERS = [0, -0, -1, 1, 0.5, -0.5, 1e308, -1e308, 5e-324, 2 ** 31, 2 ** 53, 2 ** 53 + 2, -(2 ** 63), 1e21];

export const shortHostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 4, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
);

/** In bodies: sometimes 1 MB, so the body limit and the string limits both get exercised. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 12, arbitrary: shortHostileString },
  { weight: 1, arbitrary: fc.constant(ONE_MB) },
);

/** In URLs: at most the 10,000-character constant (a real server refuses longer request lines). */
export const hostileUrlValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: shortHostileString },
  { weight: 2, arbitrary: fc.oneof(fc.integer(), fc.double()).map(String) },
  { weight: 1, arbitrary: fc.constantFrom('[]', '{}', JSON.stringify(deep(20))) },
);

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: hostileString },
  { weight: 3, arbitrary: fc.constantFrom<unknown>(...HOSTILE_NUMBERS, true, false, null, [], {}, [[[]]], [null]) },
  { weight: 2, arbitrary: fc.integer() },
  { weight: 2, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.constantFrom(deep(50), deep(2_000)) },
  { weight: 1, arbitrary: fc.array(fc.string({ maxLength: 5 }), { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 4 }) },
);

// ---------------------------------------------------------------------------------------------
// Valid-ish values from a schema

const DAY = 86_400_000;
export const dateArb = fc.integer({ min: -400, max: 400 }).map((d) => new Date(Date.now() + d * DAY).toISOString().slice(0, 10));

export function validish(
  schema: Schema,
  name: string | undefined,
  hints: Record<string, fc.Arbitrary<unknown>>,
  depth = 0,
): fc.Arbitrary<unknown> {
  if (depth > 8) return fc.constant(null);
  if (name !== undefined && hints[name]) return hints[name]!;
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(schema[key]) && schema[key].length > 0) {
      return fc.oneof(...schema[key].map((s: Schema) => validish(s, name, hints, depth + 1)));
    }
  }
  if (Array.isArray(schema.allOf)) return validish(Object.assign({}, ...schema.allOf), name, hints, depth + 1);
  const type = Array.isArray(schema.type)
    ? schema.type.find((t: string) => t !== 'null')
    : (schema.type ?? (schema.properties ? 'object' : undefined));
  switch (type) {
    case 'object': {
      const props: Record<string, Schema> = schema.properties ?? {};
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, s] of Object.entries(props)) model[k] = validish(s, k, hints, depth + 1);
      return fc.record(model, { requiredKeys: (schema.required ?? []).filter((k: string) => k in props) });
    }
    case 'array':
      return fc.array(validish(schema.items ?? {}, undefined, hints, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 4, 4)),
      });
    case 'string': {
      if (schema.format === 'date-time') {
        return fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
      }
      if (schema.format === 'date') return dateArb;
      if (schema.format === 'email') return fc.emailAddress();
      if (schema.format === 'uri' || schema.format === 'url') return fc.webUrl();
      const min = schema.minLength ?? 0;
      const max = Math.min(schema.maxLength ?? 40, 60);
      if (schema.pattern) {
        return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length >= min && s.length <= (schema.maxLength ?? Infinity));
      }
      return fc.string({ minLength: min, maxLength: Math.max(min, max) });
    }
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -10, max: Math.min(schema.maximum ?? 100_000, 2 ** 31) });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.boolean());
  }
}

/** An own enumerable property, also for `__proto__` (which a plain assignment would not create). */
export function setOwn(o: Record<string, unknown>, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

/** Near-valid: one change to a valid-ish object (a key dropped, a value replaced, a key added). */
export function mutate(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc
    .tuple(valid, fc.constantFrom('drop', 'replace', 'extra', 'proto', 'constructor', 'wrap'), hostileValue, fc.nat())
    .map(([v, how, hostile, n]) => {
      if (v === null || typeof v !== 'object' || Array.isArray(v)) return how === 'wrap' ? [v] : hostile;
      const o: Record<string, unknown> = JSON.parse(JSON.stringify(v));
      const keys = Object.keys(o);
      const k = keys.length > 0 ? keys[n % keys.length]! : 'x';
      switch (how) {
        case 'drop':
          delete o[k];
          return o;
        case 'replace':
          o[k] = hostile;
          return o;
        case 'extra':
          setOwn(o, `extra_${n % 7}`, hostile);
          return o;
        case 'proto':
          setOwn(o, '__proto__', { polluted: true });
          return o;
        case 'constructor':
          setOwn(o, 'constructor', { prototype: { polluted: true } });
          return o;
        default:
          return [o];
      }
    });
}

// ---------------------------------------------------------------------------------------------
// Requests

export interface FuzzRequest {
  path: Record<string, string>;
  query: Array<[string, string]>;
  headers: Record<string, string>;
  /** raw body text, or undefined for none */
  body: string | undefined;
}

/** Lone surrogates become U+FFFD (encodeURIComponent throws on them). */
export function wellFormed(s: string): string {
  return Buffer.from(s, 'utf8').toString('utf8');
}

export function safeEncode(s: string): string {
  return encodeURIComponent(wellFormed(s));
}

export function toQueryValue(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined) return '';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

export const headerValue = fc.string({ unit: 'grapheme-ascii', maxLength: 60 });

export interface RequestArbOptions {
  /**
   * Public writes: clean requests carry an Idempotency-Key from this arbitrary (fresh UUIDs), dirty
   * ones mostly too, else a hostile value; without it the header is only ever hostile.
   */
  idempotencyKey?: fc.Arbitrary<string>;
  /** extra hostile headers on dirty requests (method overrides, forwarded hosts, cookies, ...) */
  hostileHeaders?: boolean;
}

const HOSTILE_HEADERS: Record<string, fc.Arbitrary<string>> = {
  'x-http-method-override': fc.constantFrom('GET', 'DELETE', 'PUT', 'TRACE'),
  'x-forwarded-host': fc.constantFrom('evil.example', '127.0.0.1', 'a'.repeat(300)),
  'x-forwarded-proto': fc.constantFrom('http', 'javascript'),
  cookie: fc.constantFrom('session=1; __proto__=x', `a=${'b'.repeat(4000)}`),
  'if-match': fc.constantFrom('*', '"x"'),
  'x-request-id': fc.constantFrom('\u00e9t\u00e9', '../../x', 'a'.repeat(500), ''),
  'accept-encoding': fc.constantFrom('gzip', 'br;q=0', 'x'.repeat(100)),
};

export function requestArb(
  doc: any,
  r: RouteTableEntry,
  pools: Record<string, string[]>,
  hints: Record<string, fc.Arbitrary<unknown>>,
  opts: RequestArbOptions = {},
): fc.Arbitrary<FuzzRequest> {
  const op = operationOf(doc, r);

  // path parameters: a real id, a schema value, or something hostile
  const pathModel: Record<string, fc.Arbitrary<string>> = {};
  const pathSchemas = new Map(paramsOf(doc, op, 'path').map((p) => [p.name, p.schema ?? {}]));
  for (const name of pathParamNames(r.url)) {
    const pool = pools[name] ?? [];
    pathModel[name] = fc.oneof(
      {
        weight: 6,
        arbitrary: pool.length > 0 ? fc.constantFrom(...pool) : validish(pathSchemas.get(name) ?? {}, name, {}).map(toQueryValue),
      },
      { weight: 2, arbitrary: validish(pathSchemas.get(name) ?? { type: 'string' }, undefined, {}).map(toQueryValue) },
      { weight: 2, arbitrary: shortHostileString.filter((s) => s.length < 300) },
    );
  }

  // query: the declared parameters (valid-ish or hostile) plus stray keys
  const declared = paramsOf(doc, op, 'query');
  const queryArb = fc
    .tuple(
      fc.tuple(
        ...declared.map((p) =>
          fc.oneof(
            {
              weight: 5,
              arbitrary: validish(p.schema ?? {}, p.name, hints).map((v) => [[p.name, toQueryValue(v)]] as Array<[string, string]>),
            },
            { weight: 2, arbitrary: fc.constant([] as Array<[string, string]>) },
            { weight: 2, arbitrary: hostileUrlValue.map((v) => [[p.name, v]] as Array<[string, string]>) },
            {
              weight: 1,
              arbitrary: fc.tuple(hostileUrlValue, hostileUrlValue).map(
                ([a, b]) =>
                  [
                    [p.name, a],
                    [p.name, b],
                  ] as Array<[string, string]>,
              ),
            },
          ),
        ),
      ),
      fc.array(
        fc.tuple(
          fc.oneof(fc.constantFrom('__proto__', 'constructor', 'salonSlug[]', 'a[b]', 'limit', 'cursor'), fc.string({ maxLength: 8 })),
          hostileUrlValue,
        ),
        { maxLength: 2 },
      ),
    )
    .map(([ds, extra]) => [...ds.flat(), ...extra]);

  // body: only for methods that take one
  const bodySchema = bodySchemaOf(doc, op);
  let bodyArb: fc.Arbitrary<string | undefined> = fc.constant(undefined);
  if (r.method !== 'GET' && r.method !== 'DELETE') {
    const valid = bodySchema ? validish(bodySchema, undefined, hints) : fc.constant({});
    bodyArb = fc.oneof(
      { weight: 4, arbitrary: valid.map((v) => JSON.stringify(v)) },
      { weight: 4, arbitrary: mutate(valid).map((v) => JSON.stringify(v) ?? 'null') },
      { weight: 2, arbitrary: hostileValue.map((v) => JSON.stringify(v) ?? 'null') },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          '{',
          '{"a":1,}',
          '\uFEFF{}',
          '{"a":1,"a":2}',
          '['.repeat(10_000) + ']'.repeat(10_000),
          `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`,
          `{"constructor":${'['.repeat(3_000)}${']'.repeat(3_000)}}`,
          '1e309',
          '"\\ud800"',
        ),
      },
      { weight: 1, arbitrary: fc.constant(undefined) },
    );
  }

  const headersArb = fc
    .record(
      {
        'content-type': fc.oneof(
          { weight: 8, arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'Application/JSON') },
          {
            weight: 2,
            arbitrary: fc.constantFrom(
              'text/plain',
              'application/x-www-form-urlencoded',
              'application/json; charset=utf-16',
              'application/jsonx',
            ),
          },
        ),
        'x-request-id': headerValue,
        'idempotency-key': opts.idempotencyKey
          ? fc.oneof({ weight: 7, arbitrary: opts.idempotencyKey }, { weight: 3, arbitrary: headerValue })
          : headerValue,
        accept: fc.constantFrom('*/*', 'text/html', 'application/xml', 'application/json;q=0'),
        'accept-language': fc.constantFrom('hu-HU', 'ar', '*', 'x'.repeat(200)),
        'x-forwarded-for': fc.constantFrom('127.0.0.1', '::1', 'evil'),
      },
      { requiredKeys: [] },
    )
    .map((h) => ({ ...h }) as Record<string, string>);

  const extraHeaders = opts.hostileHeaders ? fc.record(HOSTILE_HEADERS, { requiredKeys: [] }) : fc.constant({});
  const allHeaders = fc.tuple(headersArb, extraHeaders).map(([a, b]) => ({ ...a, ...b }) as Record<string, string>);
  const dirty = fc.record({ path: fc.record(pathModel), query: queryArb, headers: allHeaders, body: bodyArb });

  // a clean request (real ids, valid-ish query and body, JSON) gets into the handlers more often
  const cleanPath: Record<string, fc.Arbitrary<string>> = {};
  for (const name of pathParamNames(r.url)) {
    const pool = pools[name] ?? [];
    cleanPath[name] = pool.length > 0 ? fc.constantFrom(...pool) : validish(pathSchemas.get(name) ?? {}, name, {}).map(toQueryValue);
  }
  const cleanQuery = fc
    .tuple(
      ...declared.map((p) =>
        fc.option(
          validish(p.schema ?? {}, p.name, hints).map((v) => [p.name, toQueryValue(v)] as [string, string]),
          {
            nil: undefined,
            freq: p.required ? 20 : 2,
          },
        ),
      ),
    )
    .map((xs) => xs.filter((x): x is [string, string] => x !== undefined));
  const cleanBody: fc.Arbitrary<string | undefined> =
    r.method === 'GET' || r.method === 'DELETE'
      ? fc.constant(undefined)
      : (bodySchema ? validish(bodySchema, undefined, hints) : fc.constant({})).map((v) => JSON.stringify(v));
  const cleanHeaders: fc.Arbitrary<Record<string, string>> = opts.idempotencyKey
    ? opts.idempotencyKey.map((k) => ({ 'idempotency-key': k }))
    : fc.constant({});
  const clean = fc.record({ path: fc.record(cleanPath), query: cleanQuery, headers: cleanHeaders, body: cleanBody });

  return fc.oneof({ weight: 1, arbitrary: clean }, { weight: 3, arbitrary: dirty });
}

export function toInject(r: RouteTableEntry, req: FuzzRequest, authorization: string): InjectOptions {
  const path = r.url.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => safeEncode(req.path[name] ?? 'x'));
  const qs = req.query.map(([k, v]) => `${safeEncode(k)}=${safeEncode(v)}`).join('&');
  const headers: Record<string, string> = { ...req.headers, authorization };
  if (req.body === undefined) delete headers['content-type'];
  else headers['content-type'] ??= 'application/json';
  return {
    method: r.method as InjectOptions['method'],
    url: qs === '' ? path : `${path}?${qs}`,
    headers,
    ...(req.body === undefined ? {} : { payload: req.body }),
  };
}

// ---------------------------------------------------------------------------------------------
// What a rejected write must not change

/**
 * A digest of every row of the fuzzed businesses (and of any business with one of `slugs`). A key's
 * `last_used_at` is left out: any request that presents a key records its use, reads included.
 */
export async function snapshot(h: Harness, businessIds: string[], slugs: string[]): Promise<string> {
  const r = await h.db.query<Record<string, string>>(
    `SELECT
       (SELECT count(*) || ':' || md5(coalesce(string_agg(b::text, '|' ORDER BY b.id), '')) FROM businesses b
         WHERE b.id = ANY($1) OR b.slug = ANY($2)) AS businesses,
       (SELECT md5(coalesce(string_agg(s::text, '|' ORDER BY s.business_id), '')) FROM subscriptions s
         WHERE s.business_id = ANY($1) OR s.business_id IN (SELECT id FROM businesses WHERE slug = ANY($2))) AS subscriptions,
       (SELECT count(*) || ':' || md5(coalesce(string_agg(q::text, '|' ORDER BY q.business_id, q.window_start, q.shard), ''))
          FROM booking_quota_counts q WHERE q.business_id = ANY($1)) AS quota_counts,
       (SELECT count(*) || ':' || md5(coalesce(string_agg(x::text, '|' ORDER BY x.id), '')) FROM locations x WHERE x.business_id = ANY($1)) AS locations,
       (SELECT count(*) || ':' || md5(coalesce(string_agg(x::text, '|' ORDER BY x.id), '')) FROM services x WHERE x.business_id = ANY($1)) AS services,
       (SELECT count(*) || ':' || md5(coalesce(string_agg(x::text, '|' ORDER BY x.id), '')) FROM staff x WHERE x.business_id = ANY($1)) AS staff,
       (SELECT count(*) || ':' || md5(coalesce(string_agg(x::text, '|' ORDER BY x.staff_id, x.service_id), '')) FROM staff_services x
         WHERE x.staff_id IN (SELECT id FROM staff WHERE business_id = ANY($1))) AS staff_services,
       (SELECT count(*) || ':' || md5(coalesce(string_agg(x::text, '|' ORDER BY x.staff_id, x.weekday, x.start_minute), '')) FROM working_hours x
         WHERE x.staff_id IN (SELECT id FROM staff WHERE business_id = ANY($1))) AS working_hours,
       (SELECT count(*) || ':' || md5(coalesce(string_agg(x::text, '|' ORDER BY x.id), '')) FROM time_off x
         WHERE x.staff_id IN (SELECT id FROM staff WHERE business_id = ANY($1))) AS time_off,
       (SELECT count(*) || ':' || md5(coalesce(string_agg(x::text, '|' ORDER BY x.id), '')) FROM group_sessions x WHERE x.business_id = ANY($1)) AS group_sessions,
       (SELECT count(*) || ':' || md5(coalesce(string_agg((to_jsonb(x) - 'last_used_at')::text, '|' ORDER BY x.id), ''))
          FROM api_keys x WHERE x.business_id = ANY($1)) AS api_keys,
       (SELECT count(*) FROM memberships x WHERE x.business_id = ANY($1)) AS memberships`,
    [businessIds, slugs],
  );
  return JSON.stringify(r.rows[0]);
}

/** Business slugs a request names (path `slug`, body `slug`): a rejected write must not create them. */
export function slugsIn(req: FuzzRequest): string[] {
  const out = req.path.slug !== undefined ? [req.path.slug] : [];
  if (req.body !== undefined && req.body.length < 100_000) {
    try {
      const b = JSON.parse(req.body);
      if (b && typeof b.slug === 'string') out.push(b.slug);
    } catch {
      // not JSON: no slug
    }
  }
  // a slug holding NUL cannot exist (and cannot be a query parameter of the snapshot either)
  return out.map(wellFormed).filter((x) => !x.includes('\u0000'));
}

export function describeRequest(o: InjectOptions): string {
  const payload = typeof o.payload === 'string' ? o.payload : '';
  return `${o.method} ${String(o.url).slice(0, 300)} body(${payload.length}) ${payload.slice(0, 300)}`;
}

/**
 * Sends one fuzzed request and checks what every answer must be (envelope, catalog code and
 * status, no leak); counts the status or error code it got in `codes`.
 */
export async function sendChecked(h: Harness, r: RouteTableEntry, opts: InjectOptions, codes: Map<string, number>): Promise<JsonResponse> {
  let res: JsonResponse;
  try {
    res = await call(h.app, opts);
  } catch (err) {
    throw new Error(`inject failed for ${describeRequest(opts)}: ${(err as Error).message}`);
  }
  assertWellFormed(res, `${label(r)} ${describeRequest(opts)}`);
  const code = res.status < 400 ? String(res.status) : String(res.body.error.code);
  codes.set(code, (codes.get(code) ?? 0) + 1);
  return res;
}
