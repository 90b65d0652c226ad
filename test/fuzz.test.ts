/**
 * Property tests over the real route table: every operator route and every public GET route gets
 * generated requests (valid-ish from its OpenAPI schema, near-valid mutations, and hostile values)
 * with a valid credential, so they get past authentication into parsing, validation and handlers.
 *
 * For every response: never 5xx; an error is a catalog code with the catalog's status in the
 * envelope, leaking nothing. A rejected write changes no row of the fuzzed businesses
 * (businesses, subscriptions, locations, services, staff, api_keys, ...), and a public GET changes
 * nothing at all.
 *
 * Bounds: at most FUZZ_RUNS (default 150) runs per route, and the whole file within FUZZ_BUDGET_MS
 * (default 36 s) of fuzzing, split evenly over databases and routes (runs past a route's share are
 * skipped), so adding routes or a loaded machine never makes it slow; each route
 * reports how many runs it made and which codes it saw. FUZZ_SEED replays a reported failure.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { dbTargets } from './helpers/databases.ts';
import { ADMIN_TOKEN, call, startHarness, type Harness, type JsonResponse } from './helpers/harness.ts';
import { createBusiness, createKey, type BusinessFixture } from './helpers/fixtures.ts';
import {
  assertWellFormed,
  bodySchemaOf,
  ensureLocation,
  FIELD_HINTS,
  label,
  minimalRequest,
  openapiDoc,
  operationOf,
  operatorRoutes,
  paramsOf,
  pathParamNames,
  publicRoutes,
  sampleOf,
  type Schema,
} from './helpers/route-samples.ts';
import type { RouteTableEntry } from '../src/http/context.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
/** Wall-clock budget of the whole file; split evenly over databases and routes. */
const BUDGET_MS = Number(process.env.FUZZ_BUDGET_MS ?? 36_000);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const TARGETS = dbTargets();
const LOCATION = 'main';

// ---------------------------------------------------------------------------------------------
// Hostile values

const ONE_MB = 'x'.repeat(1024 * 1024);

function deep(depth: number, leaf: unknown = 1): unknown {
  let v: unknown = leaf;
  for (let i = 0; i < depth; i++) v = i % 2 === 0 ? { a: v } : [v];
  return v;
}

const HOSTILE_STRINGS = [
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

const HOSTILE_NUMBERS = [0, -0, -1, 1, 0.5, -0.5, 1e308, -1e308, 5e-324, 2 ** 31, 2 ** 53, 2 ** 53 + 2, -(2 ** 63), 1e21];

const shortHostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 4, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
);

/** In bodies: sometimes 1 MB, so the body limit and the string limits both get exercised. */
const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 12, arbitrary: shortHostileString },
  { weight: 1, arbitrary: fc.constant(ONE_MB) },
);

/** In URLs: at most the 10,000-character constant (a real server refuses longer request lines). */
const hostileUrlValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: shortHostileString },
  { weight: 2, arbitrary: fc.oneof(fc.integer(), fc.double()).map(String) },
  { weight: 1, arbitrary: fc.constantFrom('[]', '{}', JSON.stringify(deep(20))) },
);

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
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
const dateArb = fc
  .integer({ min: -400, max: 400 })
  .map((d) => new Date(Date.now() + d * DAY).toISOString().slice(0, 10));

function validish(schema: Schema, name: string | undefined, hints: Record<string, fc.Arbitrary<unknown>>, depth = 0): fc.Arbitrary<unknown> {
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
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type ?? (schema.properties ? 'object' : undefined);
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
function setOwn(o: Record<string, unknown>, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

/** Near-valid: one change to a valid-ish object (a key dropped, a value replaced, a key added). */
function mutate(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
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

interface FuzzRequest {
  path: Record<string, string>;
  query: Array<[string, string]>;
  headers: Record<string, string>;
  /** raw body text, or undefined for none */
  body: string | undefined;
}

/** Lone surrogates become U+FFFD (encodeURIComponent throws on them). */
function wellFormed(s: string): string {
  return Buffer.from(s, 'utf8').toString('utf8');
}

function safeEncode(s: string): string {
  return encodeURIComponent(wellFormed(s));
}

function toQueryValue(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined) return '';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

const headerValue = fc.string({ unit: 'grapheme-ascii', maxLength: 60 });

function requestArb(
  doc: any,
  r: RouteTableEntry,
  pools: Record<string, string[]>,
  hints: Record<string, fc.Arbitrary<unknown>>,
): fc.Arbitrary<FuzzRequest> {
  const op = operationOf(doc, r);

  // path parameters: a real id, a schema value, or something hostile
  const pathModel: Record<string, fc.Arbitrary<string>> = {};
  const pathSchemas = new Map(paramsOf(doc, op, 'path').map((p) => [p.name, p.schema ?? {}]));
  for (const name of pathParamNames(r.url)) {
    const pool = pools[name] ?? [];
    pathModel[name] = fc.oneof(
      { weight: 6, arbitrary: pool.length > 0 ? fc.constantFrom(...pool) : validish(pathSchemas.get(name) ?? {}, name, {}).map(toQueryValue) },
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
            { weight: 5, arbitrary: validish(p.schema ?? {}, p.name, hints).map((v) => [[p.name, toQueryValue(v)]] as Array<[string, string]>) },
            { weight: 2, arbitrary: fc.constant([] as Array<[string, string]>) },
            { weight: 2, arbitrary: hostileUrlValue.map((v) => [[p.name, v]] as Array<[string, string]>) },
            { weight: 1, arbitrary: fc.tuple(hostileUrlValue, hostileUrlValue).map(([a, b]) => [[p.name, a], [p.name, b]] as Array<[string, string]>) },
          ),
        ),
      ),
      fc.array(
        fc.tuple(fc.oneof(fc.constantFrom('__proto__', 'constructor', 'salonSlug[]', 'a[b]', 'limit', 'cursor'), fc.string({ maxLength: 8 })), hostileUrlValue),
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
          '{"a":'.repeat(5_000) + '1' + '}'.repeat(5_000),
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
            arbitrary: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=utf-16', 'application/jsonx'),
          },
        ),
        'x-request-id': headerValue,
        'idempotency-key': headerValue,
        accept: fc.constantFrom('*/*', 'text/html', 'application/xml', 'application/json;q=0'),
        'accept-language': fc.constantFrom('hu-HU', 'ar', '*', 'x'.repeat(200)),
        'x-forwarded-for': fc.constantFrom('127.0.0.1', '::1', 'evil'),
      },
      { requiredKeys: [] },
    )
    .map((h) => ({ ...h }) as Record<string, string>);

  const dirty = fc.record({ path: fc.record(pathModel), query: queryArb, headers: headersArb, body: bodyArb });

  // a clean request (real ids, valid-ish query and body, JSON) gets into the handlers more often
  const cleanPath: Record<string, fc.Arbitrary<string>> = {};
  for (const name of pathParamNames(r.url)) {
    const pool = pools[name] ?? [];
    cleanPath[name] = pool.length > 0 ? fc.constantFrom(...pool) : validish(pathSchemas.get(name) ?? {}, name, {}).map(toQueryValue);
  }
  const cleanQuery = fc
    .tuple(
      ...declared.map((p) =>
        fc.option(validish(p.schema ?? {}, p.name, hints).map((v) => [p.name, toQueryValue(v)] as [string, string]), {
          nil: undefined,
          freq: p.required ? 20 : 2,
        }),
      ),
    )
    .map((xs) => xs.filter((x): x is [string, string] => x !== undefined));
  const cleanBody: fc.Arbitrary<string | undefined> =
    r.method === 'GET' || r.method === 'DELETE'
      ? fc.constant(undefined)
      : (bodySchema ? validish(bodySchema, undefined, hints) : fc.constant({})).map((v) => JSON.stringify(v));
  const clean = fc.record({ path: fc.record(cleanPath), query: cleanQuery, headers: fc.constant({}), body: cleanBody });

  return fc.oneof({ weight: 1, arbitrary: clean }, { weight: 3, arbitrary: dirty });
}

function toInject(r: RouteTableEntry, req: FuzzRequest, authorization: string): InjectOptions {
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

/** A digest of every row of the fuzzed businesses (and of any business with one of `slugs`). */
async function snapshot(h: Harness, businessIds: string[], slugs: string[]): Promise<string> {
  const r = await h.db.query<Record<string, string>>(
    `SELECT
       (SELECT count(*) || ':' || md5(coalesce(string_agg(b::text, '|' ORDER BY b.id), '')) FROM businesses b
         WHERE b.id = ANY($1) OR b.slug = ANY($2)) AS businesses,
       (SELECT md5(coalesce(string_agg(s::text, '|' ORDER BY s.business_id), '')) FROM subscriptions s
         WHERE s.business_id = ANY($1) OR s.business_id IN (SELECT id FROM businesses WHERE slug = ANY($2))) AS subscriptions,
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
       (SELECT count(*) || ':' || md5(coalesce(string_agg(x::text, '|' ORDER BY x.id), '')) FROM api_keys x WHERE x.business_id = ANY($1)) AS api_keys,
       (SELECT count(*) FROM memberships x WHERE x.business_id = ANY($1)) AS memberships`,
    [businessIds, slugs],
  );
  return JSON.stringify(r.rows[0]);
}

/** Business slugs a request names (path `slug`, body `slug`): a rejected write must not create them. */
function slugsIn(req: FuzzRequest): string[] {
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

function describeRequest(o: InjectOptions): string {
  const payload = typeof o.payload === 'string' ? o.payload : '';
  return `${o.method} ${String(o.url).slice(0, 300)} body(${payload.length}) ${payload.slice(0, 300)}`;
}

// ---------------------------------------------------------------------------------------------

/** Gives the business a location, a service and a staff member through the operator routes that exist. */
async function seedCatalog(h: Harness, doc: any, slug: string): Promise<{ serviceId?: string; staffId?: string }> {
  await ensureLocation(h.app, slug, LOCATION);
  const out: { serviceId?: string; staffId?: string } = {};
  for (const [suffix, field] of [['services', 'service'], ['staff', 'staff']] as const) {
    const r = h.app.routeTable.find((x) => x.method === 'POST' && x.url === `/admin/v1/businesses/:slug/${suffix}`);
    if (!r) continue;
    const req = minimalRequest(doc, r, { salonSlug: slug, locationSlug: LOCATION }, { slug });
    const body = suffix === 'staff' && out.serviceId ? { ...(req.body as object), serviceIds: [out.serviceId] } : req.body;
    const res = await call(h.app, { method: 'POST', url: req.url, headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload: body as object });
    const id = res.body?.data?.[field]?.id;
    if (typeof id === 'string') out[field === 'service' ? 'serviceId' : 'staffId'] = id;
  }
  return out;
}

for (const target of TARGETS) {
  describe(`fuzz: every operator route and every public GET route [${target.name}]`, () => {
    let h: Harness;
    let doc: any;
    let pub: BusinessFixture;
    let opb: BusinessFixture;
    let keySecret: string;
    let pubPools: Record<string, string[]>;
    let opPools: Record<string, string[]>;
    let ids: string[];

    before(async () => {
      h = await startHarness(target);
      doc = openapiDoc(h.app);
      pub = await createBusiness(h.app, { plan: 'business', status: 'active' });
      opb = await createBusiness(h.app, { plan: 'business', status: 'active' });
      ids = [pub.id, opb.id];
      keySecret = (await createKey(h.app, pub.slug)).secret;
      const pubCatalog = await seedCatalog(h, doc, pub.slug);
      const opCatalog = await seedCatalog(h, doc, opb.slug);
      const sacrificial = [await createKey(h.app, opb.slug), await createKey(h.app, opb.slug, { type: 'personal', userId: 'fuzz-user' })];
      pubPools = {
        bookingId: ['bkg_00000000000000000000'],
        serviceId: pubCatalog.serviceId ? [pubCatalog.serviceId] : [],
        staffId: pubCatalog.staffId ? [pubCatalog.staffId] : [],
      };
      opPools = {
        slug: [opb.slug],
        locationSlug: [LOCATION],
        serviceId: opCatalog.serviceId ? [opCatalog.serviceId] : [],
        staffId: opCatalog.staffId ? [opCatalog.staffId] : [],
        keyId: sacrificial.map((k) => k.id),
        userId: ['fuzz-user', 'nobody'],
        bookingId: ['bkg_00000000000000000000'],
      };
    });
    after(() => h.close());

    const hintsFor = (salonSlug: string, extra: Record<string, string[]>): Record<string, fc.Arbitrary<unknown>> => {
      const hints: Record<string, fc.Arbitrary<unknown>> = {
        salonSlug: fc.oneof({ weight: 8, arbitrary: fc.constant(salonSlug) }, { weight: 1, arbitrary: hostileString }),
        locationSlug: fc.oneof({ weight: 8, arbitrary: fc.constant(LOCATION) }, { weight: 1, arbitrary: hostileString }),
        from: dateArb,
        to: dateArb,
        date: dateArb,
        cursor: fc.oneof(fc.constant(undefined), hostileString, fc.base64String({ maxLength: 80 })),
      };
      for (const [k, pool] of Object.entries(extra)) if (pool.length > 0) hints[k] = fc.constantFrom(...pool);
      for (const k of ['currency', 'timezone', 'phone', 'email', 'startTime', 'endTime', 'start', 'end'] as const) {
        const v = FIELD_HINTS[k]!({ salonSlug });
        hints[k] = fc.oneof({ weight: 3, arbitrary: fc.constant(v) }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) });
      }
      return hints;
    };

    async function fuzzRoute(
      t: { diagnostic(msg: string): void },
      r: RouteTableEntry,
      authorization: string,
      pools: Record<string, string[]>,
      salonSlug: string,
      routeCount: number,
    ) {
      const arb = requestArb(doc, r, pools, hintsFor(salonSlug, pools));
      const known = new Set([pub.slug, opb.slug]);
      const isRead = r.method === 'GET';
      const start = await snapshot(h, ids, []);
      let before = start;
      // A time budget per route, checked inside the property: fast-check's own interruptAfterTimeLimit
      // would leave the run in flight, still writing while the next route's runs compare snapshots.
      const deadline = Date.now() + Math.max(400, Math.floor(BUDGET_MS / TARGETS.length / Math.max(1, routeCount)));
      let runs = 0;
      let accepted = 0;
      const codes = new Map<string, number>();
      await fc.assert(
        fc.asyncProperty(arb, async (req) => {
          if (Date.now() > deadline) return;
          runs += 1;
          const slugs = slugsIn(req).filter((s) => !known.has(s));
          if (!isRead && slugs.length > 0) before = await snapshot(h, ids, slugs);
          const opts = toInject(r, req, authorization);
          let res: JsonResponse;
          try {
            res = await call(h.app, opts);
          } catch (err) {
            throw new Error(`inject failed for ${describeRequest(opts)}: ${(err as Error).message}`);
          }
          assertWellFormed(res, `${label(r)} ${describeRequest(opts)}`);
          const code = res.status < 400 ? String(res.status) : String(res.body.error.code);
          codes.set(code, (codes.get(code) ?? 0) + 1);
          if (isRead) return; // reads are checked once, over the whole run
          const after = await snapshot(h, ids, slugs);
          if (res.status >= 400) {
            assert.equal(after, before, `${label(r)} -> ${res.status}: rows changed by ${describeRequest(opts)}\n${res.raw.slice(0, 300)}`);
          } else {
            accepted += 1;
          }
          before = after;
        }),
        {
          numRuns: RUNS,
          includeErrorInReport: true,
          ...(SEED === undefined ? {} : { seed: SEED }),
        },
      );
      if (isRead) assert.equal(await snapshot(h, ids, []), start, `${label(r)}: a read changed rows`);
      const seen = [...codes].sort((a, b) => b[1] - a[1]).map(([c, n]) => `${c} ${n}`);
      t.diagnostic(`${runs} runs, ${accepted} writes accepted; ${seen.join(', ')}`);
    }

    test('public GET routes (full-capability key)', async (t) => {
      const routes = publicRoutes(h.app).filter((r) => r.method === 'GET');
      assert.ok(routes.length > 0);
      const total = routes.length + operatorRoutes(h.app).length;
      for (const r of routes) {
        await t.test(label(r), async (tt) => {
          await fuzzRoute(tt, r, `Bearer ${keySecret}`, pubPools, pub.slug, total);
        });
      }
    });

    test('operator routes (operator token)', async (t) => {
      const routes = operatorRoutes(h.app);
      assert.ok(routes.length > 0);
      const total = routes.length + publicRoutes(h.app).filter((r) => r.method === 'GET').length;
      for (const r of routes) {
        await t.test(label(r), async (tt) => {
          await fuzzRoute(tt, r, `Bearer ${ADMIN_TOKEN}`, opPools, opb.slug, total);
        });
      }
    });

    test('nothing was polluted', () => {
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
      assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted'), false);
    });
  });
}
