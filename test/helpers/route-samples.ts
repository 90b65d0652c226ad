/**
 * Generic helpers for tests that walk every route: the route table (app.routeTable), each route's
 * OpenAPI operation, a minimal schema-valid request built from that operation, and the one
 * assertion every error response must pass.
 *
 * Nothing here lists routes by hand: a route another engineer adds is picked up by every test that
 * uses these helpers. When the generator cannot build a valid request for a new route, add a hint
 * to FIELD_HINTS (by field or parameter name) rather than special-casing the route.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { ERROR_CATALOG, type ErrorCode } from '../../src/domain/errors.ts';
import type { App, RouteAccess, RouteTableEntry } from '../../src/http/context.ts';
import { openapiPath, operatorRoutesOf, publicRoutesOf } from '../../src/http/route-table.ts';
import { ADMIN_TOKEN, call, type JsonResponse } from './harness.ts';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

export type PublicAccess = Extract<RouteAccess, { surface: 'public' }>;
export type PublicRoute = RouteTableEntry & { access: PublicAccess };
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/** Schema objects as they appear in the OpenAPI document (JSON Schema 2020-12 dialect). */
export type Schema = Record<string, any>;

export interface OpenApiParameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema?: Schema;
}

export interface Operation {
  operationId?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { description?: string }>;
}

export function label(r: Pick<RouteTableEntry, 'method' | 'url'>): string {
  return `${r.method} ${r.url}`;
}

export function publicRoutes(app: App): PublicRoute[] {
  return publicRoutesOf(app.routeTable) as PublicRoute[];
}

export function operatorRoutes(app: App): RouteTableEntry[] {
  return operatorRoutesOf(app.routeTable);
}

export function isWrite(r: PublicRoute): boolean {
  return r.access.idempotentOperation !== undefined;
}

// ---------------------------------------------------------------------------------------------
// The OpenAPI side of a route

export function openapiDoc(app: App): any {
  return app.swagger();
}

export function operationOf(doc: any, r: Pick<RouteTableEntry, 'method' | 'url'>): Operation | undefined {
  return doc.paths?.[openapiPath(r.url)]?.[r.method.toLowerCase()];
}

/** A schema with every local `$ref` replaced by its target (the document has no cycles). */
export function inlineRefs(doc: any, schema: unknown, depth = 0): any {
  if (depth > 40) throw new Error('schema nesting too deep (a $ref cycle?)');
  if (Array.isArray(schema)) return schema.map((s) => inlineRefs(doc, s, depth + 1));
  if (schema === null || typeof schema !== 'object') return schema;
  const s = schema as Record<string, unknown>;
  if (typeof s.$ref === 'string') {
    const m = /^#\/components\/schemas\/(.+)$/.exec(s.$ref);
    const target = m ? doc.components?.schemas?.[decodeURIComponent(m[1]!)] : undefined;
    if (target === undefined) throw new Error(`unresolvable $ref ${s.$ref}`);
    const { $ref: _ignored, ...rest } = s;
    return { ...inlineRefs(doc, target, depth + 1), ...inlineRefs(doc, rest, depth + 1) };
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) {
    // an inlined component keeps no $id: the same one may be inlined twice into one schema
    if (k === '$id' || k === '$schema') continue;
    out[k] = inlineRefs(doc, v, depth + 1);
  }
  return out;
}

export function bodySchemaOf(doc: any, op: Operation | undefined): Schema | undefined {
  const s = op?.requestBody?.content?.['application/json']?.schema;
  return s === undefined ? undefined : inlineRefs(doc, s);
}

export function paramsOf(doc: any, op: Operation | undefined, where: OpenApiParameter['in']): OpenApiParameter[] {
  return (op?.parameters ?? []).filter((p) => p.in === where).map((p) => ({ ...p, schema: p.schema ? inlineRefs(doc, p.schema) : {} }));
}

/** Where the route takes `salonSlug`, if anywhere. */
export function salonSlugPlace(doc: any, r: RouteTableEntry): 'query' | 'body' | undefined {
  const op = operationOf(doc, r);
  if (paramsOf(doc, op, 'query').some((p) => p.name === 'salonSlug')) return 'query';
  if (bodySchemaOf(doc, op)?.properties?.salonSlug !== undefined) return 'body';
  return undefined;
}

export function takesLocationSlug(doc: any, r: RouteTableEntry): boolean {
  const op = operationOf(doc, r);
  return paramsOf(doc, op, 'query').some((p) => p.name === 'locationSlug') || bodySchemaOf(doc, op)?.properties?.locationSlug !== undefined;
}

// ---------------------------------------------------------------------------------------------
// Schema-valid sample values

export interface SampleContext {
  salonSlug: string;
  /** sent where the route requires it ('main' when not given); optional ones only when given */
  locationSlug?: string;
}

const DAY_MS = 86_400_000;
function isoDate(offsetDays: number): string {
  return new Date(Date.now() + offsetDays * DAY_MS).toISOString().slice(0, 10);
}

/**
 * Readable values by field or parameter name, tried before anything derived from the schema. A
 * value that does not satisfy the field's schema is skipped.
 */
export const FIELD_HINTS: Record<string, (ctx: SampleContext) => unknown> = {
  salonSlug: (c) => c.salonSlug,
  slug: (c) => c.salonSlug,
  locationSlug: (c) => c.locationSlug ?? 'main',
  currency: () => 'HUF',
  timezone: () => 'Europe/Budapest',
  phone: () => '+36201234567',
  email: () => 'guest@example.com',
  url: () => 'https://hooks.example.com/booking',
  avatarUrl: () => 'https://img.example.com/a.png',
  name: () => 'Sample name',
  locale: () => 'hu-HU',
  from: () => isoDate(7),
  to: () => isoDate(8),
  date: () => isoDate(7),
  startTime: () => '10:00',
  endTime: () => '11:00',
  start: () => '09:00',
  end: () => '17:00',
  weekday: () => 1,
  durationMinutes: () => 30,
  priceType: () => 'fixed',
  policyConsentGiven: () => true,
};

const STRING_FORMATS: Record<string, () => string> = {
  'date-time': () => new Date(Date.now() + 7 * DAY_MS).toISOString(),
  date: () => isoDate(7),
  time: () => '10:00:00Z',
  email: () => 'guest@example.com',
  uri: () => 'https://example.com/x',
  url: () => 'https://example.com/x',
  uuid: () => randomUUID(),
  hostname: () => 'example.com',
};

const STRING_CANDIDATES = ['sample', 'a', 'HUF', isoDate(7), '10:00', 'sample-1', 'x1', 'abc_0123456789abcdefghjk'];

function typeOf(s: Schema): string | undefined {
  if (typeof s.type === 'string') return s.type;
  if (Array.isArray(s.type)) return s.type.find((t: string) => t !== 'null') ?? s.type[0];
  if (s.properties) return 'object';
  if (s.items) return 'array';
  return undefined;
}

let sharedAjv: Ajv | undefined;
function ajv(): Ajv {
  sharedAjv ??= addFormats(new Ajv({ strict: false, allErrors: false, validateFormats: true }));
  return sharedAjv;
}
const compiled = new WeakMap<object, ReturnType<Ajv['compile']>>();

/** Whether a value satisfies a (ref-free) schema, with the same formats the server uses. */
export function satisfies(schema: Schema, value: unknown): boolean {
  let v = compiled.get(schema);
  if (!v) {
    v = ajv().compile(schema);
    compiled.set(schema, v);
  }
  return v(value) as boolean;
}

function stringSample(s: Schema, seed: number): string {
  const min = typeof s.minLength === 'number' ? s.minLength : 0;
  const max = typeof s.maxLength === 'number' ? s.maxLength : Infinity;
  const fits = (v: string) => v.length >= min && v.length <= max && (!s.pattern || new RegExp(s.pattern, 'u').test(v));
  if (typeof s.format === 'string' && STRING_FORMATS[s.format]) return STRING_FORMATS[s.format]!();
  for (const c of STRING_CANDIDATES) if (fits(c)) return c;
  if (s.pattern) {
    // Any pattern at all: let fast-check produce a match, keep the first that fits the lengths.
    const arb = fc.stringMatching(new RegExp(s.pattern)).filter((v) => v.length >= min && v.length <= max);
    const [v] = fc.sample(arb, { numRuns: 1, seed });
    if (v !== undefined) return v;
  }
  return 'x'.repeat(Math.max(min, 1));
}

/**
 * One value that satisfies the schema: required properties only (plus salonSlug/locationSlug when
 * the object has them), preferring FIELD_HINTS by name. Returns undefined when it cannot.
 */
export function sampleOf(schema: Schema, ctx: SampleContext, name?: string, seed = 1): unknown {
  if (name !== undefined && FIELD_HINTS[name]) {
    const hinted = FIELD_HINTS[name]!(ctx);
    if (satisfies(schema, hinted)) return hinted;
  }
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum.find((v: unknown) => v !== null) ?? schema.enum[0];
  if ('default' in schema && satisfies(schema, schema.default)) return schema.default;
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(schema[key])) {
      const variants = [...schema[key]].sort((a: Schema, b: Schema) => Number(a.type === 'null') - Number(b.type === 'null'));
      for (const variant of variants) {
        const v = sampleOf({ ...variant }, ctx, name, seed);
        if (v !== undefined && satisfies(schema, v)) return v;
      }
      return undefined;
    }
  }
  if (Array.isArray(schema.allOf)) {
    return sampleOf(Object.assign({}, ...schema.allOf), ctx, name, seed);
  }
  switch (typeOf(schema)) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const props: Record<string, Schema> = schema.properties ?? {};
      const wanted = new Set<string>(schema.required ?? []);
      if ('salonSlug' in props) wanted.add('salonSlug');
      if ('locationSlug' in props && ctx.locationSlug !== undefined) wanted.add('locationSlug');
      // exactly one of serviceId and serviceIds / visit (salon-scheduling.md "Visits"), which the
      // schema cannot say: the sample books one service
      if ('serviceId' in props && ('serviceIds' in props || 'visit' in props)) wanted.add('serviceId');
      for (const k of wanted) {
        const v = sampleOf(props[k] ?? {}, ctx, k, seed);
        if (v === undefined) return undefined;
        out[k] = v;
      }
      return out;
    }
    case 'array': {
      const n = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const out: unknown[] = [];
      for (let i = 0; i < n; i++) out.push(sampleOf(schema.items ?? {}, ctx, undefined, seed + i));
      return out;
    }
    case 'string':
      return stringSample(schema, seed);
    case 'integer':
    case 'number': {
      let n = typeof schema.minimum === 'number' ? schema.minimum : 1;
      if (typeof schema.exclusiveMinimum === 'number') n = Math.max(n, schema.exclusiveMinimum + 1);
      if (typeof schema.maximum === 'number') n = Math.min(n, schema.maximum);
      return schema.type === 'integer' ? Math.ceil(n) : n;
    }
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return 'sample';
  }
}

// ---------------------------------------------------------------------------------------------
// Requests

export interface RouteRequest {
  method: HttpMethod;
  /** path with params filled in, plus the query string */
  url: string;
  query: Record<string, string>;
  path: Record<string, string>;
  body: unknown;
  hasBody: boolean;
}

/** Path parameter names of a Fastify route url. */
export function pathParamNames(url: string): string[] {
  return [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
}

export function fillPath(url: string, values: Record<string, string>): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => encodeURIComponent(values[name] ?? `fake-${name}`));
}

export function withQuery(path: string, query: Record<string, string>): string {
  const qs = new URLSearchParams(query).toString();
  return qs === '' ? path : `${path}?${qs}`;
}

/**
 * A schema-valid request for the route, with fake ids in the path (auth and validation come
 * before any lookup), the given salon and location slugs, and every required field sampled.
 * `problems` lists what could not be generated; tests that need a valid request fail on it.
 */
export function minimalRequest(
  doc: any,
  r: RouteTableEntry,
  ctx: SampleContext,
  pathValues: Record<string, string> = {},
): RouteRequest & { problems: string[] } {
  const op = operationOf(doc, r);
  const problems: string[] = [];
  if (!op) problems.push('no operation in the OpenAPI document');
  const path: Record<string, string> = {};
  const pathSchemas = new Map(paramsOf(doc, op, 'path').map((p) => [p.name, p.schema ?? {}]));
  for (const name of pathParamNames(r.url)) {
    if (pathValues[name] !== undefined) {
      path[name] = pathValues[name]!;
      continue;
    }
    const v = sampleOf(pathSchemas.get(name) ?? { type: 'string' }, ctx, name);
    if (typeof v !== 'string' && typeof v !== 'number') problems.push(`path ${name}`);
    path[name] = String(v ?? `fake-${name}`);
  }
  const query: Record<string, string> = {};
  for (const p of paramsOf(doc, op, 'query')) {
    const optionalScope = p.name === 'salonSlug' || (p.name === 'locationSlug' && ctx.locationSlug !== undefined);
    if (!p.required && !optionalScope) continue;
    const v = sampleOf(p.schema ?? {}, ctx, p.name);
    if (v === undefined || (typeof v === 'object' && v !== null)) {
      problems.push(`query ${p.name}`);
      continue;
    }
    query[p.name] = String(v);
  }
  const bodySchema = bodySchemaOf(doc, op);
  let body: unknown;
  if (bodySchema) {
    body = sampleOf(bodySchema, ctx, undefined);
    if (body === undefined || !satisfies(bodySchema, body)) problems.push(`body ${JSON.stringify(body)}`);
  }
  return {
    method: r.method as HttpMethod,
    url: withQuery(fillPath(r.url, path), query),
    query,
    path,
    body,
    hasBody: bodySchema !== undefined,
    problems,
  };
}

export interface SendOptions {
  /** API key secret or operator token; sent as a Bearer token */
  token?: string;
  /** raw Authorization header, instead of token */
  authorization?: string;
  /** Idempotency-Key: a fresh v4 UUID on public writes unless given (null: leave it out) */
  idempotencyKey?: string | null;
  headers?: Record<string, string>;
  /** override the request's body (undefined in the options: keep the request's own) */
  body?: unknown;
  url?: string;
}

export function send(app: App, r: PublicRoute | RouteTableEntry, req: RouteRequest, o: SendOptions = {}) {
  const headers: Record<string, string> = { ...(o.headers ?? {}) };
  if (o.authorization !== undefined) headers.authorization = o.authorization;
  else if (o.token !== undefined) headers.authorization = `Bearer ${o.token}`;
  const write = r.access?.surface === 'public' && r.access.idempotentOperation !== undefined;
  if (write && o.idempotencyKey !== null) headers['idempotency-key'] = o.idempotencyKey ?? randomUUID();
  const body = 'body' in o ? o.body : req.body;
  const opts: InjectOptions = { method: req.method, url: o.url ?? req.url, headers };
  if (body !== undefined && req.method !== 'GET' && req.method !== 'DELETE') {
    opts.payload = JSON.stringify(body);
    headers['content-type'] ??= 'application/json';
  }
  return call(app, opts);
}

// ---------------------------------------------------------------------------------------------
// Assertions

const LEAK_PATTERNS: RegExp[] = [
  /\n\s+at /, // stack frame
  /\bat [\w.<>]+ \(/,
  /node_modules/,
  /\.[cm]?[jt]s:\d+/,
  /Error:/,
  /\b(SELECT|INSERT INTO|UPDATE \w+ SET|DELETE FROM|WHERE|RETURNING)\b/,
  /\b(relation|column) "[^"]+"/,
  /violates .* constraint/,
  /syntax error at/,
  /FST_[A-Z_]+/,
];

/** The response text leaks nothing internal: no stack, SQL, file path, or raw Fastify error. */
export function assertNoLeak(raw: string, context = ''): void {
  for (const p of LEAK_PATTERNS) assert.doesNotMatch(raw, p, `${context} leaks ${p}: ${raw.slice(0, 500)}`);
}

/**
 * Every error response: the envelope, a catalog code with the catalog's status and retryable,
 * meta.requestId equal to the X-Request-Id header, meta.v '1', nothing internal in the text.
 */
export function assertErrorEnvelope(res: JsonResponse, expected?: ErrorCode, context = ''): void {
  const where = `${context} -> ${res.status} ${res.raw.slice(0, 400)}`;
  const b = res.body;
  assert.ok(b && typeof b === 'object', `error body is JSON ${where}`);
  assert.equal(b.ok, false, `ok:false ${where}`);
  assert.ok(b.error && typeof b.error === 'object', `error object ${where}`);
  const code = b.error.code as ErrorCode;
  assert.ok(Object.hasOwn(ERROR_CATALOG, code), `code ${code} is in the catalog ${where}`);
  if (expected !== undefined) assert.equal(code, expected, `code ${where}`);
  assert.equal(res.status, ERROR_CATALOG[code].status, `HTTP status is the catalog's for ${code} ${where}`);
  assert.equal(b.error.retryable, ERROR_CATALOG[code].retryable, `retryable of ${code} ${where}`);
  assert.equal(typeof b.error.message, 'string', `message ${where}`);
  if (b.error.details !== undefined) assert.equal(typeof b.error.details, 'object', `details ${where}`);
  assert.ok(b.meta && typeof b.meta.requestId === 'string' && b.meta.requestId.length > 0, `meta.requestId ${where}`);
  assert.equal(b.meta.v, '1', `meta.v ${where}`);
  assert.equal(res.headers['x-request-id'], b.meta.requestId, `x-request-id header ${where}`);
  assertNoLeak(res.raw, context);
}

/** Any response: a 2xx success envelope, or an error that passes assertErrorEnvelope. Never 5xx. */
export function assertWellFormed(res: JsonResponse, context = ''): void {
  assert.ok(res.status < 500, `${context} -> ${res.status} ${res.raw.slice(0, 400)}`);
  if (res.status >= 400) {
    assertErrorEnvelope(res, undefined, context);
    return;
  }
  // A file answer (the bookings CSV) is in its own format, starting with its header row; its errors are envelopes.
  if (String(res.headers['content-type']).startsWith('text/csv')) {
    assert.match(res.raw, /^reference,date,start,end,service,staff,status,source,price,currency,client\r\n/, `${context} CSV header`);
    assert.ok(res.headers['x-request-id'], `${context} x-request-id`);
    assertNoLeak(res.raw, context);
    return;
  }
  assert.equal(res.body?.ok, true, `${context} success envelope -> ${res.raw.slice(0, 300)}`);
  assert.equal(res.body?.meta?.v, '1', `${context} meta.v`);
  assert.equal(res.headers['x-request-id'], res.body?.meta?.requestId, `${context} x-request-id`);
}

export function adminAuth(token = ADMIN_TOKEN): string {
  return `Bearer ${token}`;
}

// ---------------------------------------------------------------------------------------------
// Fixtures the generic tests need beyond test/helpers/fixtures.ts

/**
 * Gives the business a location with that slug when the operator API has the locations route
 * (it is being added); returns whether it exists afterwards. Location-scoped routes then pass the
 * location part of the scope check, so a scope test isolates the salon part.
 */
export async function ensureLocation(app: App, businessSlug: string, locationSlug: string): Promise<boolean> {
  const route = app.routeTable.find((r) => r.method === 'POST' && r.url === '/admin/v1/businesses/:slug/locations');
  if (!route) return false;
  const res = await call(app, {
    method: 'POST',
    url: `/admin/v1/businesses/${encodeURIComponent(businessSlug)}/locations`,
    headers: { authorization: adminAuth() },
    payload: {
      slug: locationSlug,
      name: `Location ${locationSlug}`,
      timezone: 'Europe/Budapest',
      address: { city: 'Budapest', street: 'Fő utca 1', zip: '1011' },
    },
  });
  return res.status < 300;
}
