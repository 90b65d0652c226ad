/**
 * The generated OpenAPI document: valid OpenAPI 3.1, complete (every route of the route table, every
 * catalog code), consistent with the error catalog, and served at /v1/openapi.json and /docs.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { ERROR_CATALOG, ERROR_CODES } from '../src/domain/errors.ts';
import { PRODUCT_NAME } from '../src/http/openapi.ts';
import { openapiPath } from '../src/http/route-table.ts';
import { dbTargets } from './helpers/databases.ts';
import { api, createBusiness, createKey } from './helpers/fixtures.ts';
import { call, startHarness, type Harness } from './helpers/harness.ts';
import { label, operationOf, operatorRoutes, publicRoutes } from './helpers/route-samples.ts';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM interop.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

/** An object of the document, or the one its local `$ref` (`#/components/...`) points at. */
function deref(doc: any, obj: any): any {
  if (typeof obj?.$ref !== 'string') return obj;
  const target = obj.$ref
    .replace(/^#\//, '')
    .split('/')
    .reduce((at: any, key: string) => at?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], doc);
  assert.ok(target, `${obj.$ref} resolves`);
  return target;
}

/** Every example of a media object (request body or response), named. */
function mediaExamples(doc: any, media: any): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  if (media.example !== undefined) out.push(['example', media.example]);
  for (const [name, ex] of Object.entries<any>(media.examples ?? {})) out.push([name, deref(doc, ex).value]);
  return out;
}

/** Checks values against schemas of the document, its `#/components/...` references resolved. */
function schemaChecker(doc: any): (schema: unknown, value: unknown) => string | undefined {
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
  ajv.addSchema({ components: doc.components }, 'openapi.json');
  return (schema, value) => {
    const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi.json#/components/')));
    return validate(value) ? undefined : ajv.errorsText(validate.errors);
  };
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'] as const;

function operations(doc: any): Array<{ path: string; method: string; op: any }> {
  const out: Array<{ path: string; method: string; op: any }> = [];
  for (const [path, item] of Object.entries<any>(doc.paths ?? {})) {
    for (const method of METHODS) if (item[method]) out.push({ path, method, op: item[method] });
  }
  return out;
}

/** Rows `| \`code\` | 404 | false |` of the table in info.description. */
function catalogTable(description: string): Map<string, { status: number; retryable: boolean }> {
  const out = new Map<string, { status: number; retryable: boolean }>();
  for (const m of description.matchAll(/^\|\s*`([a-z_]+\.[a-z_]+)`\s*\|\s*(\d{3})\s*\|\s*(true|false)\s*\|/gm)) {
    assert.ok(!out.has(m[1]!), `${m[1]} listed twice in info.description`);
    out.set(m[1]!, { status: Number(m[2]), retryable: m[3] === 'true' });
  }
  return out;
}

for (const target of dbTargets()) {
  describe(`OpenAPI document [${target.name}]`, () => {
    let h: Harness;
    let doc: any;
    before(async () => {
      h = await startHarness(target);
      doc = h.app.swagger();
    });
    after(() => h.close());

    test('is a valid OpenAPI 3.1 document', async () => {
      assert.equal(doc.openapi, '3.1.0');
      const validator = new Validator();
      const res = await validator.validate(structuredClone(doc));
      assert.equal(res.valid, true, JSON.stringify(res.errors, null, 2)?.slice(0, 4000));
      assert.equal(validator.version, '3.1');
    });

    test('the ErrorCode component enumerates exactly the catalog', () => {
      const schema = doc.components?.schemas?.ErrorCode;
      assert.ok(schema, 'components.schemas.ErrorCode');
      const listed: string[] = schema.enum ?? schema.anyOf?.map((s: any) => s.const);
      assert.ok(Array.isArray(listed), 'ErrorCode lists its values');
      // 33 of the public contract, plus auth.origin_denied, member.last_owner and mail.not_configured of the business side.
      assert.equal(ERROR_CODES.length, 42, 'the catalog has 42 stable codes (client.not_found of clients-and-reports.md the latest)');
      assert.deepEqual([...listed].sort(), [...ERROR_CODES].sort());
      for (const code of ERROR_CODES) assert.match(code, /^[a-z_]+\.[a-z_]+$/, code);
      assert.deepEqual(doc.components.schemas.ErrorBody?.properties?.code, { $ref: '#/components/schemas/ErrorCode' });
      assert.ok(doc.components.schemas.ErrorEnvelope, 'ErrorEnvelope component');
      const required: string[] = doc.components.schemas.ErrorBody.required ?? [];
      for (const f of ['code', 'message', 'retryable']) assert.ok(required.includes(f), `ErrorBody.${f} required`);
    });

    test('the error table in info.description states the catalog (code, status, retryable)', () => {
      const table = catalogTable(doc.info?.description ?? '');
      assert.equal(table.size, ERROR_CODES.length, 'one row per catalog code');
      for (const code of ERROR_CODES) {
        assert.deepEqual(table.get(code), { ...ERROR_CATALOG[code] }, code);
      }
    });

    test('every documented error response lists catalog codes of that status', () => {
      for (const { path, method, op } of operations(doc)) {
        for (const [status, res] of Object.entries<any>(op.responses ?? {})) {
          if (!/^[45]\d\d$/.test(status)) continue;
          assert.deepEqual(
            res.content?.['application/json']?.schema,
            { $ref: '#/components/schemas/ErrorEnvelope' },
            `${method} ${path} ${status} uses the ErrorEnvelope`,
          );
          const codes = [...String(res.description).matchAll(/`([a-z_]+\.[a-z_]+)`/g)].map((m) => m[1]!);
          assert.ok(codes.length > 0, `${method} ${path} ${status} names its codes`);
          for (const c of codes) {
            assert.ok(Object.hasOwn(ERROR_CATALOG, c), `${method} ${path}: ${c} is a catalog code`);
            assert.equal(ERROR_CATALOG[c as keyof typeof ERROR_CATALOG].status, Number(status), `${method} ${path}: ${c} under ${status}`);
          }
        }
      }
    });

    test('every operation has an operationId, a summary and a description; every parameter a description', () => {
      const missing: string[] = [];
      for (const { path, method, op } of operations(doc)) {
        for (const field of ['operationId', 'summary', 'description']) {
          if (typeof op[field] !== 'string' || op[field].trim() === '') missing.push(`${method} ${path}: ${field}`);
        }
        for (const p of op.parameters ?? []) {
          if (typeof p.description !== 'string' || p.description.trim() === '')
            missing.push(`${method} ${path}: parameter ${p.in} ${p.name}`);
        }
      }
      assert.deepEqual(missing, []);
    });

    test('every request body and every response has an example, and each matches its schema', () => {
      const check = schemaChecker(doc);
      const problems: string[] = [];
      let checked = 0;
      const media = (where: string, content: any) => {
        const json = content?.['application/json'];
        // A file answer (the bookings CSV) is text with a text example; its errors are still JSON.
        const csv = content?.['text/csv'];
        if (!json && csv)
          return typeof csv.example === 'string' && csv.example !== '' ? checked++ : problems.push(`${where}: no CSV example`);
        if (!json) return problems.push(`${where}: no application/json content`);
        const examples = mediaExamples(doc, json);
        if (examples.length === 0) problems.push(`${where}: no example`);
        for (const [name, value] of examples) {
          checked++;
          const error = check(json.schema, value);
          if (error) problems.push(`${where} example ${name}: ${error}`);
        }
      };
      for (const { path, method, op } of operations(doc)) {
        if (op.requestBody) media(`${method} ${path} request body`, op.requestBody.content);
        for (const [status, res] of Object.entries<any>(op.responses ?? {})) media(`${method} ${path} ${status}`, res.content);
      }
      assert.deepEqual(problems, []);
      assert.ok(checked > 200, `checked ${checked} examples`);
    });

    test('an error example per catalog code of each error response, with that code', () => {
      for (const { path, method, op } of operations(doc)) {
        for (const [status, res] of Object.entries<any>(op.responses ?? {})) {
          if (!/^[45]\d\d$/.test(status)) continue;
          const codes = [...String(res.description).matchAll(/`([a-z_]+\.[a-z_]+)`/g)].map((m) => m[1]!);
          const examples = res.content['application/json'].examples ?? {};
          assert.deepEqual(Object.keys(examples).sort(), [...codes].sort(), `${method} ${path} ${status}`);
          for (const code of codes) assert.equal(deref(doc, examples[code]).value.error.code, code, `${method} ${path} ${status} ${code}`);
        }
      }
    });

    test('success responses are described; response headers are declared as the server sends them', () => {
      for (const r of h.app.routeTable.filter((x) => !x.hidden)) {
        const op = operationOf(doc, r);
        assert.ok(op, label(r));
        for (const [status, res] of Object.entries<any>(op.responses ?? {})) {
          const where = `${label(r)} ${status}`;
          assert.ok(res.description && res.description !== 'Default Response', `${where} description`);
          const headers = Object.keys(res.headers ?? {});
          assert.ok(headers.includes('X-Request-Id'), `${where} X-Request-Id`);
          const rateLimited = r.access?.surface === 'public' && status !== '401';
          for (const name of ['RateLimit', 'RateLimit-Policy']) assert.equal(headers.includes(name), rateLimited, `${where} ${name}`);
          // Retry-After comes with the rate limit and with a busy database's 500; a 503 carries none.
          if (status === '429') assert.ok(headers.includes('Retry-After'), `${where} Retry-After`);
          if (!['429', '500'].includes(status)) assert.ok(!headers.includes('Retry-After'), `${where} no Retry-After`);
          for (const [name, header] of Object.entries<any>(res.headers ?? {})) {
            assert.ok(deref(doc, header).description, `${where} header ${name} is described`);
          }
        }
      }
    });

    test('real answers carry the headers the document declares for them, and match their schemas', async () => {
      const biz = await createBusiness(h.app);
      const key = await createKey(h.app, biz.slug);
      const check = schemaChecker(doc);
      const op = doc.paths['/v1/subscription'].get;
      for (const [secret, status] of [
        [key.secret, '200'],
        ['bka_not-a-key', '401'],
      ] as const) {
        const res = await api(h.app, secret, 'GET', '/subscription');
        assert.equal(String(res.status), status);
        const declared = op.responses[status];
        for (const name of Object.keys(declared.headers)) {
          assert.ok(res.headers[name.toLowerCase()] !== undefined, `GET /v1/subscription ${status} sends ${name}`);
        }
        for (const name of ['ratelimit', 'ratelimit-policy', 'retry-after']) {
          if (res.headers[name] !== undefined) {
            assert.ok(
              Object.keys(declared.headers).some((d) => d.toLowerCase() === name),
              `${status} declares ${name}`,
            );
          }
        }
        assert.equal(check(declared.content['application/json'].schema, res.body), undefined, `${status} body matches its schema`);
      }
    });

    test('open routes need no credentials (security: [])', () => {
      const open = h.app.routeTable.filter(
        (r) => !r.hidden && (r.access?.surface === 'open' || (r.access?.surface === 'account' && r.access.needs === 'none')),
      );
      assert.ok(open.length >= 4, 'healthz, readyz, sign-in and invitation acceptance');
      for (const r of open) assert.deepEqual(operationOf(doc, r)?.security, [], label(r));
    });

    test('info has license, contact and an introduction; every tag is described', () => {
      assert.equal(doc.info.license?.identifier, 'MIT');
      assert.ok(doc.info.contact?.name && doc.info.contact?.url, 'info.contact');
      for (const heading of ['## Authentication', '## Idempotency', '## Responses and errors', '## Rate limits']) {
        assert.ok(doc.info.description.includes(heading), heading);
      }
      for (const tag of doc.tags) assert.ok(tag.description, `tag ${tag.name}`);
    });

    test('operationIds are unique', () => {
      const ids = operations(doc)
        .map((o) => o.op.operationId)
        .filter((x): x is string => typeof x === 'string');
      assert.equal(new Set(ids).size, ids.length, `duplicates: ${ids.filter((x, i) => ids.indexOf(x) !== i)}`);
    });

    test('every public route is documented with security, an operationId and its auth errors', () => {
      const routes = publicRoutes(h.app);
      assert.ok(routes.length > 0);
      for (const r of routes) {
        const op = operationOf(doc, r);
        assert.ok(op, `${label(r)} is in the document as ${openapiPath(r.url)}`);
        assert.equal(typeof op.operationId, 'string', `${label(r)} operationId`);
        assert.equal(op.operationId, r.operationId, `${label(r)} operationId matches the route`);
        assert.ok(Array.isArray(op.security) && op.security.length > 0, `${label(r)} security`);
        assert.ok(
          op.security.some((s: any) => 'apiKey' in s),
          `${label(r)} security names the apiKey scheme`,
        );
        assert.ok(Array.isArray(op.tags) && op.tags.length > 0 && !op.tags.includes('operator'), `${label(r)} tags`);
        const responses = op.responses ?? {};
        for (const status of ['401', '403']) assert.ok(responses[status], `${label(r)} documents ${status}`);
        assert.match(responses['401']?.description ?? '', /`auth\.invalid_key`/, `${label(r)} 401`);
        assert.match(responses['403']?.description ?? '', /`auth\.insufficient_capability`/, `${label(r)} 403`);
        if (r.access.idempotentOperation !== undefined) {
          const header = (op.parameters ?? []).find((p: any) => p.in === 'header' && String(p.name).toLowerCase() === 'idempotency-key');
          assert.ok(header, `${label(r)} documents the Idempotency-Key header`);
          assert.match(responses['400']?.description ?? '', /`idempotency\.key_required`/, `${label(r)} 400`);
        }
        const ok = op.responses?.['200'] ?? op.responses?.['201'];
        assert.ok(ok, `${label(r)} documents its success response`);
      }
    });

    test('operator routes are tagged operator and secured by the operator token', () => {
      const routes = operatorRoutes(h.app);
      assert.ok(routes.length > 0);
      for (const r of routes) {
        const op = operationOf(doc, r);
        assert.ok(op, `${label(r)} is in the document`);
        assert.deepEqual(op.tags, ['operator'], `${label(r)} tags`);
        assert.equal(typeof op.operationId, 'string', `${label(r)} operationId`);
        assert.ok(Array.isArray(op.security) && op.security.some((s: any) => 'operatorToken' in s), `${label(r)} security`);
        assert.match(op.responses?.['401']?.description ?? '', /`auth\.invalid_key`/, `${label(r)} 401`);
      }
      const tag = (doc.tags ?? []).find((t: any) => t.name === 'operator');
      assert.ok(tag?.description, 'the operator tag is described');
    });

    test('every route of the table is documented unless hidden, and nothing else is', () => {
      const documented = new Set(operations(doc).map((o) => `${o.method.toUpperCase()} ${o.path}`));
      const expected = new Set(h.app.routeTable.filter((r) => !r.hidden).map((r) => `${r.method} ${openapiPath(r.url)}`));
      assert.deepEqual([...documented].sort(), [...expected].sort());
      for (const tagged of operations(doc).flatMap((o) => o.op.tags ?? [])) {
        assert.ok(
          (doc.tags ?? []).some((t: any) => t.name === tagged),
          `tag ${tagged} is declared`,
        );
      }
    });

    test('declares both security schemes as HTTP bearer', () => {
      const schemes = doc.components?.securitySchemes ?? {};
      assert.deepEqual({ type: schemes.apiKey?.type, scheme: schemes.apiKey?.scheme }, { type: 'http', scheme: 'bearer' });
      assert.deepEqual({ type: schemes.operatorToken?.type, scheme: schemes.operatorToken?.scheme }, { type: 'http', scheme: 'bearer' });
    });

    test('GET /v1/openapi.json serves the document without a key', async () => {
      const res = await call(h.app, { method: 'GET', url: '/v1/openapi.json' });
      assert.equal(res.status, 200);
      assert.match(String(res.headers['content-type']), /^application\/json/);
      assert.deepEqual(res.body, JSON.parse(JSON.stringify(doc)));
    });

    test('/docs serves the HTML explorer under the product name, with its own logo', async () => {
      for (const url of ['/docs', '/docs/']) {
        const res = await h.app.inject({ method: 'GET', url });
        assert.equal(res.statusCode, 200, url);
        assert.match(String(res.headers['content-type']), /^text\/html/, url);
        assert.match(res.body, /<html/i, url);
        assert.match(res.body, new RegExp(`<title>${PRODUCT_NAME}`), `${url} title`);
        assert.doesNotMatch(res.body, /<title>Swagger UI/, url);
      }
      const init = await h.app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
      assert.equal(init.statusCode, 200);
      const logo = init.body.match(/img\.src = 'data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)'/);
      assert.ok(logo, 'the top bar shows a logo of ours');
      assert.ok(Buffer.from(logo[1]!, 'base64').toString('utf8').includes(PRODUCT_NAME), 'the logo names the product');
      assert.equal(doc.info.title, PRODUCT_NAME);
    });
  });
}
