/**
 * What Node's HTTP parser refuses never reaches Fastify's router or error handler; it is still
 * answered in the envelope, with a catalog code and status, a request id in `meta.requestId` and
 * `X-Request-Id`, counted, and the connection closed after the answer. Raw sockets, as no HTTP
 * client sends such requests.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { clientErrorAnswer } from '../src/http/client-errors.ts';
import { startWorkerMetricsServer } from '../src/http/worker-metrics.ts';
import type { ErrorCode } from '../src/domain/errors.ts';
import { Metrics } from '../src/metrics.ts';
import { dbTargets } from './helpers/databases.ts';
import { ADMIN_TOKEN, startHarness, type Harness } from './helpers/harness.ts';
import { parseAnswers, rawExchange } from './helpers/raw-http.ts';
import { assertErrorEnvelope } from './helpers/route-samples.ts';

interface Case {
  name: string;
  parts: Array<string | Buffer>;
  code: ErrorCode;
  /** details.issues[0].path of a 400 */
  path?: string;
}

const AUTH = `Authorization: Bearer ${ADMIN_TOKEN}\r\n`;

const CASES: Case[] = [
  {
    name: 'both Transfer-Encoding and Content-Length',
    parts: [`POST /admin/v1/businesses HTTP/1.1\r\nHost: t\r\n${AUTH}Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n`],
    code: 'request.validation_failed',
    path: 'headers',
  },
  {
    name: 'a control character in a header value',
    parts: [`GET /healthz HTTP/1.1\r\nHost: t\r\nX-Note: a\u0001b\r\n\r\n`],
    code: 'request.validation_failed',
    path: 'headers',
  },
  {
    name: 'a header line without a colon',
    parts: [`GET /healthz HTTP/1.1\r\nHost t\r\n\r\n`],
    code: 'request.validation_failed',
    path: 'headers',
  },
  {
    name: 'two Content-Length headers',
    parts: [`POST /admin/v1/businesses HTTP/1.1\r\nHost: t\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n{}`],
    code: 'request.validation_failed',
    path: 'headers',
  },
  {
    // 16 KiB is Node's limit; the rest of the request follows in the same write, unread.
    name: 'headers over 16 KiB',
    parts: [`GET /healthz HTTP/1.1\r\nHost: t\r\nX-Pad: ${'a'.repeat(20_000)}\r\n\r\n${'b'.repeat(50_000)}`],
    code: 'request.validation_failed',
    path: 'headers',
  },
  { name: 'an unknown method', parts: ['FOO /v1/subscription HTTP/1.1\r\nHost: t\r\n\r\n'], code: 'request.not_found' },
  { name: 'a lower-case method', parts: ['get /healthz HTTP/1.1\r\nHost: t\r\n\r\n'], code: 'request.not_found' },
  { name: 'TLS spoken to the plain port', parts: [Buffer.from('1603010200010001fc0303', 'hex')], code: 'request.not_found' },
  {
    name: 'a control character in the path',
    parts: ['GET /v1/\u0001 HTTP/1.1\r\nHost: t\r\n\r\n'],
    code: 'request.validation_failed',
    path: 'path',
  },
  {
    name: 'an unknown HTTP version',
    parts: ['GET /healthz HTTP/9.9\r\nHost: t\r\n\r\n'],
    code: 'request.validation_failed',
    path: 'request',
  },
  {
    name: 'a broken chunk size, the body arriving after the headers',
    parts: [
      `POST /admin/v1/businesses HTTP/1.1\r\nHost: t\r\n${AUTH}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{"\r\n`,
      'zz\r\nslug\r\n',
    ],
    code: 'request.validation_failed',
    path: 'body',
  },
];

/** The one answer of a refused request: in the envelope, the catalog's status, the connection closed. */
function expectOneAnswer(c: Case, received: string, error: string | undefined): string {
  assert.equal(error, undefined, `${c.name}: the client saw ${error}`);
  const answers = parseAnswers(received);
  assert.equal(answers.length, 1, `${c.name}: ${received.slice(0, 500)}`);
  const a = answers[0]!;
  assertErrorEnvelope(a, c.code, c.name);
  assert.equal(a.headers.connection, 'close', c.name);
  if (c.path) assert.equal(a.body.error.details?.issues?.[0]?.path, c.path, `${c.name}: ${a.raw}`);
  return a.body.meta.requestId;
}

for (const target of dbTargets()) {
  describe(`requests Node's HTTP parser refuses [${target.name}]`, () => {
    let h: Harness;
    let port: number;
    before(async () => {
      h = await startHarness(target);
      await h.app.listen({ host: '127.0.0.1', port: 0 });
      port = (h.app.server.address() as AddressInfo).port;
    });
    after(() => h.close());

    test('each is answered in the envelope with a catalog code, a fresh request id, and the connection closed', async () => {
      const failures: string[] = [];
      const ids = new Set<string>();
      for (const c of CASES) {
        try {
          const r = await rawExchange(port, c.parts, 50);
          ids.add(expectOneAnswer(c, r.received, r.error));
        } catch (err) {
          failures.push((err as Error).message.split('\n')[0]!);
        }
      }
      assert.deepEqual(failures, [], `${failures.length} of ${CASES.length} cases failed`);
      assert.equal(ids.size, CASES.length, 'one request id per answer');
      for (const id of ids) assert.match(id, /^req_[A-Za-z0-9]{20}$/);
    });

    test("a request whose own body breaks keeps the request id it was given (the caller's X-Request-Id here)", async () => {
      const r = await rawExchange(
        port,
        [
          `POST /admin/v1/businesses HTTP/1.1\r\nHost: t\r\n${AUTH}X-Request-Id: trace-me-0001\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{"\r\n`,
          'zz\r\n',
        ],
        50,
      );
      const c: Case = { name: 'broken chunk', parts: [], code: 'request.validation_failed', path: 'body' };
      assert.equal(expectOneAnswer(c, r.received, r.error), 'trace-me-0001');
    });

    test('bad bytes pipelined behind good requests are answered after them, in order', async () => {
      const r = await rawExchange(port, [
        'GET /healthz HTTP/1.1\r\nHost: t\r\n\r\nGET /healthz HTTP/1.1\r\nHost: t\r\n\r\nFOO /healthz HTTP/1.1\r\nHost: t\r\n\r\n',
      ]);
      assert.equal(r.error, undefined);
      const answers = parseAnswers(r.received);
      assert.deepEqual(
        answers.map((a) => a.status),
        [200, 200, 404],
        r.received,
      );
      assertErrorEnvelope(answers[2]!, 'request.not_found', 'the pipelined FOO');
    });

    test('they are counted in http_requests_total under route "unparsed"', async () => {
      const count = async (status: string) =>
        (await h.app.ctx.metrics.httpRequests.get()).values.find(
          (v) => v.labels.route === 'unparsed' && v.labels.method === 'unknown' && v.labels.status === status,
        )?.value ?? 0;
      const [before400, before404] = [await count('400'), await count('404')];
      await rawExchange(port, ['GET /healthz HTTP/1.1\r\nHost t\r\n\r\n']);
      await rawExchange(port, ['FOO / HTTP/1.1\r\n\r\n']);
      await rawExchange(port, ['GET /healthz HTTP/1.1\r\nHost t\r\n\r\n']);
      assert.equal((await count('400')) - before400, 2);
      assert.equal((await count('404')) - before404, 1);
    });
  });
}

describe('parser errors elsewhere', () => {
  test("the standalone worker's /metrics answers them in the envelope too", async () => {
    const app = await startWorkerMetricsServer({ host: '127.0.0.1', port: 0, adminToken: ADMIN_TOKEN, metrics: new Metrics() });
    try {
      const port = (app.server.address() as AddressInfo).port;
      for (const c of CASES.slice(0, 6)) {
        const r = await rawExchange(port, c.parts, 50);
        expectOneAnswer(c, r.received, r.error);
      }
    } finally {
      await app.close();
    }
  });

  test('a request that timed out is a 400 on `request`; connection errors get no answer', () => {
    const timeout = clientErrorAnswer(Object.assign(new Error('timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }));
    assert.equal(timeout?.code, 'request.validation_failed');
    assert.deepEqual(timeout?.details, { issues: [{ path: 'request', message: 'did not arrive in time' }] });
    for (const code of ['ECONNRESET', 'EPIPE', 'ETIMEDOUT', undefined]) {
      assert.equal(clientErrorAnswer(Object.assign(new Error('x'), { code })), undefined, String(code));
    }
  });
});
