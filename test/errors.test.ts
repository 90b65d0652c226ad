/**
 * Fastify's own failures (routing, parsing, size, media type, validation) and unexpected errors all
 * reach the client as catalog errors in the envelope, and nothing internal leaks.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { InjectOptions } from 'fastify';
import type { ErrorCode } from '../src/domain/errors.ts';
import { dbTargets } from './helpers/databases.ts';
import { ADMIN_TOKEN, call, startHarness, type Harness, type JsonResponse } from './helpers/harness.ts';
import { createBusiness, createKey, uniqueSlug, type KeyFixture } from './helpers/fixtures.ts';
import { assertErrorEnvelope, isWrite, label, minimalRequest, openapiDoc, publicRoutes } from './helpers/route-samples.ts';

const ADMIN = { authorization: `Bearer ${ADMIN_TOKEN}` };
const JSON_CT = { 'content-type': 'application/json' };

function adminRaw(h: Harness, payload: string, headers: Record<string, string> = JSON_CT, url = '/admin/v1/businesses') {
  return call(h.app, { method: 'POST', url, headers: { ...ADMIN, ...headers }, payload });
}

function expectError(res: JsonResponse, code: ErrorCode, context: string): void {
  assertErrorEnvelope(res, code, context);
}

/** Runs every case and reports all that fail together, so one bug does not hide the others. */
async function expectAll(cases: InjectOptions[], check: (res: JsonResponse, context: string) => void, h: Harness) {
  const failures: string[] = [];
  for (const c of cases) {
    const context = `${c.method} ${c.url}${c.payload === undefined ? '' : ` body ${String(c.payload).slice(0, 40)}`}`;
    try {
      check(await call(h.app, c), context);
    } catch (err) {
      failures.push((err as Error).message.split('\n')[0]!);
    }
  }
  assert.deepEqual(failures, [], `${failures.length} of ${cases.length} cases failed`);
}

/** details.issues: a non-empty list of { path, message } strings. */
function issuesOf(res: JsonResponse, context: string): Array<{ path: string; message: string }> {
  const issues = res.body?.error?.details?.issues;
  assert.ok(Array.isArray(issues) && issues.length > 0, `${context}: details.issues ${res.raw}`);
  for (const i of issues) {
    assert.equal(typeof i.path, 'string', `${context}: issue.path`);
    assert.equal(typeof i.message, 'string', `${context}: issue.message`);
    assert.ok(i.message.length > 0, `${context}: issue.message`);
  }
  return issues;
}

function validBusiness(extra: Record<string, unknown> = {}) {
  return { slug: uniqueSlug('err'), name: 'Salon', currency: 'HUF', ...extra };
}

for (const target of dbTargets()) {
  describe(`framework errors map into the catalog [${target.name}]`, () => {
    let h: Harness;
    let key: KeyFixture;
    let salonSlug: string;
    before(async () => {
      h = await startHarness(target);
      const b = await createBusiness(h.app);
      salonSlug = b.slug;
      key = await createKey(h.app, b.slug);
    });
    after(() => h.close());

    test('malformed JSON is 400 request.validation_failed with details.issues', async () => {
      for (const payload of ['{', '{"slug":', 'nul', "{'slug':'a'}", '{"slug":"a",}', '{"a":1}}', '\u0000', '[', 'tru']) {
        const res = await adminRaw(h, payload);
        expectError(res, 'request.validation_failed', `body ${JSON.stringify(payload)}`);
        issuesOf(res, `body ${JSON.stringify(payload)}`);
      }
    });

    test('an empty or absent body where one is required is a 400', async () => {
      for (const [payload, headers] of [
        ['', JSON_CT],
        ['   ', JSON_CT],
        ['null', JSON_CT],
        ['[]', JSON_CT],
        ['"text"', JSON_CT],
        ['42', JSON_CT],
      ] as const) {
        const res = await adminRaw(h, payload, headers);
        expectError(res, 'request.validation_failed', `body ${JSON.stringify(payload)}`);
        issuesOf(res, `body ${JSON.stringify(payload)}`);
      }
      const none = await call(h.app, { method: 'POST', url: '/admin/v1/businesses', headers: ADMIN });
      expectError(none, 'request.validation_failed', 'no body at all');
    });

    test('unknown route is 404 request.not_found, before any key check or body parsing', async () => {
      const cases: InjectOptions[] = [
        { method: 'GET', url: '/v1/nope' },
        { method: 'GET', url: '/v1' },
        { method: 'POST', url: '/' },
        { method: 'GET', url: '/v2/subscription' },
        { method: 'GET', url: '/v1/subscriptions' },
        { method: 'GET', url: '/admin/v1/nope' },
        { method: 'GET', url: '/admin/v1/business' },
        { method: 'POST', url: '/v1/nope', headers: JSON_CT, payload: '{' },
        { method: 'POST', url: '/v1/nope', headers: { 'content-type': 'text/plain' }, payload: 'hello' },
        { method: 'POST', url: '/v1/nope', headers: JSON_CT, payload: 'x'.repeat(1024 * 1024 + 10) },
        { method: 'GET', url: '/v1/nope', headers: { authorization: `Bearer ${key.secret}` } },
        { method: 'GET', url: '/v1/nope', headers: { authorization: 'Bearer wrong' } },
        { method: 'POST', url: '/admin/v1/nope', headers: { ...ADMIN, ...JSON_CT }, payload: '{}' },
      ];
      await expectAll(cases, (res, context) => expectError(res, 'request.not_found', context), h);
    });

    test('a wrong method on an existing path is 404 request.not_found, even with a bad body or no key', async () => {
      const cases: InjectOptions[] = [
        { method: 'DELETE', url: '/v1/subscription' },
        { method: 'POST', url: '/v1/subscription', headers: JSON_CT, payload: '{' },
        { method: 'PUT', url: '/v1/subscription', headers: { 'content-type': 'text/plain' }, payload: 'x' },
        { method: 'PATCH', url: '/v1/subscription', headers: { authorization: `Bearer ${key.secret}`, ...JSON_CT }, payload: '{}' },
        { method: 'PUT', url: '/admin/v1/businesses', headers: { ...ADMIN, ...JSON_CT }, payload: '{' },
        { method: 'PUT', url: `/admin/v1/businesses/${salonSlug}/api-keys` },
        { method: 'OPTIONS', url: '/v1/subscription' },
      ];
      // every public route answers 404 for a method it does not have
      for (const r of publicRoutes(h.app)) {
        const taken = new Set(h.app.routeTable.filter((x) => x.url === r.url).map((x) => x.method));
        const method = (['PATCH', 'PUT', 'DELETE', 'POST', 'GET'] as const).find((m) => !taken.has(m));
        if (method) cases.push({ method, url: r.url.replace(/:(\w+)/g, 'x'), headers: JSON_CT, payload: '{' });
      }
      await expectAll(cases, (res, context) => expectError(res, 'request.not_found', context), h);
    });

    test('a path that is not valid percent-encoding is a catalog error, not a raw framework error', async () => {
      const cases: InjectOptions[] = [
        { method: 'GET', url: '/v1/%zz' },
        { method: 'GET', url: '/v1/bookings/%E0%A4%A' },
        { method: 'DELETE', url: '/admin/v1/api-keys/%zz', headers: ADMIN },
        { method: 'GET', url: '/v1/bookings/%', headers: { authorization: `Bearer ${key.secret}` } },
      ];
      await expectAll(
        cases,
        (res, context) => {
          assert.ok([400, 404].includes(res.status), `${context} -> ${res.status}`);
          assertErrorEnvelope(res, undefined, context);
        },
        h,
      );
    });

    test('a body over 1 MiB is 413 request.payload_too_large', async () => {
      const big = JSON.stringify(validBusiness({ name: 'x'.repeat(1024 * 1024) }));
      expectError(await adminRaw(h, big), 'request.payload_too_large', 'operator write');
      // just under the limit is parsed (and then fails the schema's maxLength)
      const under = JSON.stringify(validBusiness({ name: 'x'.repeat(1024 * 1024 - 200) }));
      expectError(await adminRaw(h, under), 'request.validation_failed', 'just under the limit');
      // the key is checked before the body is read
      const noKey = await call(h.app, { method: 'POST', url: '/admin/v1/businesses', headers: JSON_CT, payload: big });
      expectError(noKey, 'auth.invalid_key', 'too large without a token');
      for (const r of publicRoutes(h.app).filter(isWrite)) {
        const req = minimalRequest(openapiDoc(h.app), r, { salonSlug });
        const res = await call(h.app, {
          method: req.method,
          url: req.url,
          headers: { authorization: `Bearer ${key.secret}`, 'idempotency-key': randomUUID(), ...JSON_CT },
          payload: JSON.stringify({ pad: 'x'.repeat(1024 * 1024) }),
        });
        expectError(res, 'request.payload_too_large', label(r));
      }
    });

    test('a write body that is not application/json is 415 request.unsupported_media_type', async () => {
      const body = JSON.stringify(validBusiness());
      for (const ct of [
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/xml',
        'application/jsonx',
        'text/json',
      ]) {
        expectError(await adminRaw(h, body, { 'content-type': ct }), 'request.unsupported_media_type', ct);
      }
      const noType = await call(h.app, { method: 'POST', url: '/admin/v1/businesses', headers: ADMIN, payload: Buffer.from(body) });
      expectError(noType, 'request.unsupported_media_type', 'no Content-Type');
      // parameters on the JSON type are fine
      const withCharset = await adminRaw(h, body, { 'content-type': 'application/json; charset=utf-8' });
      assert.equal(withCharset.status, 200, withCharset.raw);
      for (const r of publicRoutes(h.app).filter(isWrite)) {
        const req = minimalRequest(openapiDoc(h.app), r, { salonSlug });
        const res = await call(h.app, {
          method: req.method,
          url: req.url,
          headers: { authorization: `Bearer ${key.secret}`, 'idempotency-key': randomUUID(), 'content-type': 'text/plain' },
          payload: 'cancel please',
        });
        expectError(res, 'request.unsupported_media_type', label(r));
      }
    });

    test('__proto__ and constructor.prototype keys are refused with 400', async () => {
      const slug = uniqueSlug('proto');
      for (const payload of [
        `{"slug":"${slug}","name":"S","currency":"HUF","__proto__":{"polluted":true}}`,
        `{"slug":"${slug}","name":"S","currency":"HUF","subscription":{"__proto__":{"polluted":true}}}`,
        `{"slug":"${slug}","name":"S","currency":"HUF","constructor":{"prototype":{"polluted":true}}}`,
        `{"__proto__":{"isAdmin":true}}`,
      ]) {
        const res = await adminRaw(h, payload);
        expectError(res, 'request.validation_failed', payload);
        issuesOf(res, payload);
      }
      assert.equal(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype untouched');
      const n = await h.db.query<{ n: number }>('SELECT count(*)::int AS n FROM businesses WHERE slug = $1', [slug]);
      assert.equal(n.rows[0]!.n, 0);
    });

    test('schema violations carry details.issues with path and message', async () => {
      const cases: Array<[unknown, string]> = [
        [{ name: 'S', currency: 'HUF' }, 'body.slug'],
        [validBusiness({ extra: 1 }), 'body.extra'],
        [validBusiness({ name: 5 }), 'body.name'],
        [validBusiness({ name: '' }), 'body.name'],
        [validBusiness({ slug: 'Not A Slug' }), 'body.slug'],
        [validBusiness({ currency: 'huf' }), 'body.currency'],
        [validBusiness({ subscription: { plan: 'gold' } }), 'body.subscription.plan'],
        [validBusiness({ subscription: { maxLocations: -1 } }), 'body.subscription.maxLocations'],
        [validBusiness({ subscription: { maxLocations: 1.5 } }), 'body.subscription.maxLocations'],
        [validBusiness({ subscription: { cancelAtPeriodEnd: 'yes' } }), 'body.subscription.cancelAtPeriodEnd'],
      ];
      for (const [body, path] of cases) {
        const res = await adminRaw(h, JSON.stringify(body));
        expectError(res, 'request.validation_failed', JSON.stringify(body));
        const issues = issuesOf(res, JSON.stringify(body));
        assert.ok(
          issues.some((i) => i.path === path || i.path.startsWith(`${path}.`)),
          `${JSON.stringify(body)}: expected an issue at ${path}, got ${JSON.stringify(issues)}`,
        );
      }
      // query and path parameters say where too
      const q = await call(h.app, {
        method: 'GET',
        url: '/v1/subscription?salonSlug=',
        headers: { authorization: `Bearer ${key.secret}` },
      });
      expectError(q, 'request.validation_failed', 'empty salonSlug');
      assert.ok(
        issuesOf(q, 'query').some((i) => i.path.includes('salonSlug')),
        q.raw,
      );
      const p = await call(h.app, { method: 'DELETE', url: `/admin/v1/api-keys/${'k'.repeat(150)}`, headers: ADMIN });
      expectError(p, 'request.validation_failed', 'long keyId');
      assert.ok(
        issuesOf(p, 'params').some((i) => i.path.includes('keyId')),
        p.raw,
      );
    });

    test('business-rule 400s use the same shape', async () => {
      const res = await adminRaw(h, JSON.stringify(validBusiness({ currency: 'XYZ' })));
      expectError(res, 'request.validation_failed', 'unknown currency');
      assert.ok(
        issuesOf(res, 'currency').some((i) => i.path === 'body.currency'),
        res.raw,
      );
      const dup = validBusiness();
      assert.equal((await adminRaw(h, JSON.stringify(dup))).status, 200);
      const again = await adminRaw(h, JSON.stringify(dup));
      expectError(again, 'request.validation_failed', 'duplicate slug');
      assert.ok(
        issuesOf(again, 'dup').some((i) => i.path === 'body.slug'),
        again.raw,
      );
    });
  });

  describe(`unexpected errors [${target.name}]`, () => {
    let h: Harness;
    let key: KeyFixture;
    before(async () => {
      h = await startHarness(target);
      key = await createKey(h.app, (await createBusiness(h.app)).slug);
    });
    after(() => h.app.close());

    test('a failing database gives 500 internal.error, retryable, with a generic message', async () => {
      await h.db.close();
      const responses = [
        await call(h.app, { method: 'GET', url: '/v1/subscription', headers: { authorization: `Bearer ${key.secret}` } }),
        await call(h.app, {
          method: 'POST',
          url: '/admin/v1/businesses',
          headers: ADMIN,
          payload: validBusiness(),
        }),
        await call(h.app, { method: 'GET', url: '/readyz' }),
      ];
      for (const res of responses) {
        expectError(res, 'internal.error', 'database closed');
        assert.equal(res.body.error.retryable, true);
        assert.equal(res.body.error.details, undefined, 'no details on an internal error');
        assert.doesNotMatch(res.body.error.message, /closed|pool|pglite|postgres|ECONN|SELECT|relation/i, res.raw);
      }
      assert.equal(responses[0]!.body.error.message, 'An unexpected error occurred.');
      // errors that need no database still work
      expectError(await call(h.app, { method: 'GET', url: '/v1/nope' }), 'request.not_found', 'routing');
      expectError(await call(h.app, { method: 'GET', url: '/v1/subscription' }), 'auth.invalid_key', 'no key');
    });
  });
}

describe('a request reaching an instance that is shutting down', () => {
  test('is answered in the envelope, retryable, with the connection closed; the request in flight completes', async () => {
    const h = await startHarness(dbTargets()[0]!);
    try {
      const biz = await createBusiness(h.app);
      const key = await createKey(h.app, biz.slug);
      await h.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = h.app.server.address() as import('node:net').AddressInfo;
      const sock = net.connect(port, '127.0.0.1');
      let raw = '';
      sock.on('data', (c: Buffer) => (raw += c.toString()));
      await new Promise<void>((resolve) => sock.once('connect', () => resolve()));
      // A request in flight (its body still arriving) keeps the connection busy while the close starts.
      const body = JSON.stringify({ url: 'https://example.com/hook' });
      sock.write(
        `PUT /v1/webhooks/config?salonSlug=${biz.slug} HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer ${key.secret}\r\n` +
          `Idempotency-Key: ${randomUUID()}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
      );
      await new Promise((r) => setTimeout(r, 100));
      const closed = h.app.close();
      await new Promise((r) => setTimeout(r, 50));
      // The rest of that body, then a second request pipelined behind it.
      sock.write(`${body.slice(5)}GET /v1/subscription HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer ${key.secret}\r\n\r\n`);
      await new Promise<void>((resolve) => sock.once('close', () => resolve()));
      await closed;
      const answers = raw.split(/(?=HTTP\/1\.1 )/);
      assert.equal(answers.length, 2, raw);
      assert.match(answers[0]!, /^HTTP\/1\.1 200 /, 'the request in flight completes');
      const [head, json] = answers[1]!.split('\r\n\r\n') as [string, string];
      assert.match(head, /^HTTP\/1\.1 500 /);
      assert.match(head, /\r\nconnection: close\r\n/i);
      const requestId = /\r\nx-request-id: (\S+)\r\n/i.exec(head)?.[1];
      const envelope = JSON.parse(json);
      assert.deepEqual(
        [envelope.ok, envelope.error.code, envelope.error.retryable, envelope.meta.requestId],
        [false, 'internal.error', true, requestId],
      );
    } finally {
      await h.close();
    }
  });
});
