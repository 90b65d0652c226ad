/**
 * An answer sent while the client is still sending its body (413 above all, also 401 and 404 given
 * before the body is read) reaches the client: the server reads and drops the rest of the body
 * instead of closing under the client, within a bound of bytes and time. Real sockets only; the
 * behaviour is below the database, so one database target is enough.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { DISCARD_MAX_BYTES, DISCARD_MAX_MS } from '../src/http/plugins/body-discard.ts';
import { dbTargets } from './helpers/databases.ts';
import { ADMIN_TOKEN, startHarness, type Harness } from './helpers/harness.ts';
import { parseAnswers, rawExchange, rawUpload, upload } from './helpers/raw-http.ts';
import { assertErrorEnvelope } from './helpers/route-samples.ts';

const MiB = 1024 * 1024;
const ADMIN = { authorization: `Bearer ${ADMIN_TOKEN}` };

describe('an answer sent before the body has arrived reaches a client still sending it', () => {
  let h: Harness;
  let port: number;
  const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });
  before(async () => {
    h = await startHarness(dbTargets()[0]!);
    await h.app.listen({ host: '127.0.0.1', port: 0 });
    port = (h.app.server.address() as AddressInfo).port;
  });
  after(async () => {
    keepAlive.destroy();
    await h.close();
  });

  test('11 MiB in chunks, ten times with Content-Length and ten times chunked: a 413 envelope every time, no network error', async () => {
    const failures: string[] = [];
    for (let round = 0; round < 10; round++) {
      for (const chunked of [false, true]) {
        // Half the rounds as a client that asks to close (agent: false), half on a kept-alive agent.
        const agent = round % 2 === 0 ? false : keepAlive;
        const context = `round ${round} ${chunked ? 'chunked' : 'Content-Length'} ${agent ? 'keep-alive' : 'close'}`;
        const r = await upload(port, { path: '/admin/v1/businesses', headers: ADMIN, totalBytes: 11 * MiB, chunked, agent });
        try {
          assert.equal(r.error, undefined, `${context}: the client saw ${r.error}`);
          assert.ok(r.response, `${context}: no answer`);
          assertErrorEnvelope(r.response, 'request.payload_too_large', context);
        } catch (err) {
          failures.push((err as Error).message.split('\n')[0]!);
        }
      }
    }
    assert.deepEqual(failures, [], `${failures.length} of 20 uploads failed`);
  });

  test('the same from a client that writes the whole 11 MiB before reading: ten times each way, a 413 envelope every time', async () => {
    const head = `POST /admin/v1/businesses HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\nContent-Type: application/json\r\n`;
    const failures: string[] = [];
    for (let round = 0; round < 10; round++) {
      for (const chunked of [false, true]) {
        const context = `round ${round} ${chunked ? 'chunked' : 'Content-Length'}`;
        const r = await rawUpload(port, head, 11 * MiB, chunked);
        try {
          assert.equal(r.error, undefined, `${context}: the client saw ${r.error}`);
          assert.ok(r.response, `${context}: no answer`);
          assertErrorEnvelope(r.response, 'request.payload_too_large', context);
        } catch (err) {
          failures.push((err as Error).message.split('\n')[0]!);
        }
      }
    }
    assert.deepEqual(failures, [], `${failures.length} of 20 uploads failed`);
  });

  test('answers given before the body is read (no token, unknown route) reach the client the same way', async () => {
    const cases = [
      { path: '/admin/v1/businesses', headers: {} as Record<string, string>, code: 'auth.invalid_key' as const },
      { path: '/v1/nope', headers: ADMIN as Record<string, string>, code: 'request.not_found' as const },
    ];
    for (const c of cases) {
      for (const chunked of [false, true]) {
        for (const agent of [false, keepAlive] as Array<false | http.Agent>) {
          const context = `${c.path} ${chunked ? 'chunked' : 'Content-Length'} ${agent ? 'keep-alive' : 'close'}`;
          const r = await upload(port, { path: c.path, headers: c.headers, totalBytes: 11 * MiB, chunked, agent });
          assert.equal(r.error, undefined, `${context}: the client saw ${r.error}`);
          assert.ok(r.response, `${context}: no answer`);
          assertErrorEnvelope(r.response, c.code, context);
        }
        const head = `POST ${c.path} HTTP/1.1\r\nHost: t\r\n${c.headers.authorization ? `Authorization: ${c.headers.authorization}\r\n` : ''}Content-Type: application/json\r\n`;
        const raw = await rawUpload(port, head, 11 * MiB, chunked);
        assert.equal(raw.error, undefined, `${c.path} raw ${chunked}: the client saw ${raw.error}`);
        assertErrorEnvelope(raw.response!, c.code, `${c.path} raw ${chunked}`);
      }
    }
  });

  test('once the whole refused body has been read the connection closes at once, not at the time bound', async () => {
    const started = Date.now();
    const r = await rawExchange(port, [
      `POST /v1/nope HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: ${3 * MiB}\r\n\r\n`,
      Buffer.alloc(3 * MiB, 0x20),
    ]);
    const elapsed = Date.now() - started;
    assert.equal(r.error, undefined);
    assert.ok(elapsed < DISCARD_MAX_MS / 2, `closed after ${elapsed} ms`);
    const answers = parseAnswers(r.received);
    assert.equal(answers.length, 1, r.received);
    assertErrorEnvelope(answers[0]!, 'request.not_found', 'the early answer');
    assert.equal(answers[0]!.headers.connection, 'close');
  });

  test('an answer given after the whole body keeps the connection alive', async () => {
    const r = await rawExchange(port, [
      `POST /admin/v1/businesses HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}` +
        'GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n',
    ]);
    const answers = parseAnswers(r.received);
    assert.deepEqual(
      answers.map((a) => [a.status, a.headers.connection]),
      [
        [400, 'keep-alive'],
        [200, 'close'],
      ],
    );
  });

  test(`the discarding is bounded in bytes: a client that keeps sending is cut off after ${DISCARD_MAX_BYTES / MiB} MiB`, async () => {
    const total = 64 * MiB;
    const { written, received, ended } = await new Promise<{ written: number; received: string; ended: string }>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      let written = 0;
      let received = '';
      let ended = '';
      socket.on('data', (c: Buffer) => (received += c.toString('latin1')));
      socket.on('error', (e: NodeJS.ErrnoException) => (ended ||= e.code ?? e.message));
      socket.on('close', () => resolve({ written, received, ended: ended || 'closed' }));
      const chunk = Buffer.alloc(256 * 1024, 0x20);
      socket.write(
        `POST /admin/v1/businesses HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${total}\r\n\r\n`,
      );
      const pump = () => {
        while (written < total && !socket.destroyed) {
          written += chunk.length;
          if (!socket.write(chunk)) return void socket.once('drain', pump);
        }
      };
      pump();
    });
    assert.ok(written < total, `the server read all ${total} bytes (${ended})`);
    assert.ok(written >= DISCARD_MAX_BYTES, `cut off after only ${written} bytes`);
    assertErrorEnvelope(parseAnswers(received)[0]!, 'request.payload_too_large', 'the answer before the cut');
  });

  test(`the discarding is bounded in time: a client that stops sending is cut off after ${DISCARD_MAX_MS / 1000} s`, async () => {
    const started = Date.now();
    const r = await rawExchange(
      port,
      [
        `POST /admin/v1/businesses HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${20 * MiB}\r\n\r\n`,
        Buffer.alloc(2 * MiB, 0x20),
      ],
      0,
      DISCARD_MAX_MS + 5000,
    );
    const elapsed = Date.now() - started;
    assert.notEqual(r.error, 'TIMEOUT', `still open after ${elapsed} ms`);
    assert.ok(elapsed >= DISCARD_MAX_MS - 500, `cut off after ${elapsed} ms`);
    assertErrorEnvelope(parseAnswers(r.received)[0]!, 'request.payload_too_large', 'the answer');
  });
});
