/**
 * When the client sends a call again: the policy on its own, and the client in front of a real
 * HTTP server that answers like a failing gateway.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { BookingApiError, createBookingClient, UnexpectedResponseError } from '../src/index.ts';
import { delayBeforeRetry, retryPolicy } from '../src/retry.ts';

const apiError = (retryable: boolean) =>
  new BookingApiError({ code: retryable ? 'rate_limit.exceeded' : 'booking.not_found', message: '', status: 429, retryable });

test('no answer and retryable codes are retried, with backoff or for Retry-After; the rest is not', () => {
  const p = retryPolicy({ attempts: 3, baseDelayMs: 100, maxDelayMs: 5000 });
  const wait = delayBeforeRetry(p, 2, new TypeError('fetch failed'), null);
  assert.ok(wait !== undefined && wait >= 50 && wait <= 100, String(wait));
  const third = delayBeforeRetry(p, 3, new TypeError('fetch failed'), null);
  assert.ok(third !== undefined && third >= 100 && third <= 200, String(third));
  assert.equal(delayBeforeRetry(p, 4, new TypeError('fetch failed'), null), undefined, 'three attempts in all');
  assert.equal(delayBeforeRetry(p, 2, apiError(true), '2'), 2000);
  assert.equal(delayBeforeRetry(p, 2, apiError(true), '60'), undefined, 'a wait over maxDelayMs is left to the caller');
  assert.equal(delayBeforeRetry(p, 2, apiError(false), null), undefined);
  assert.equal(delayBeforeRetry(p, 2, new DOMException('stopped', 'AbortError'), null), undefined);
  assert.equal(delayBeforeRetry(p, 2, new UnexpectedResponseError(502, '', undefined), null) !== undefined, true);
  assert.equal(delayBeforeRetry(p, 2, new UnexpectedResponseError(404, '', undefined), null), undefined);
  assert.equal(delayBeforeRetry(retryPolicy({ attempts: 1 }), 2, new TypeError('fetch failed'), null), undefined);
});

test('a gateway error page in front of the API: retried with the same key, then an UnexpectedResponseError', async () => {
  const keys: Array<string | undefined> = [];
  const server = createServer((req, res) => {
    keys.push(req.headers['idempotency-key'] as string | undefined);
    req.resume();
    res.writeHead(502, { 'content-type': 'text/html' }).end('<html>Bad Gateway</html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const client = createBookingClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'bka_x', retry: { baseDelayMs: 5 } });
    const err = await client.cancelBooking('bk_1').catch((e: unknown) => e);
    assert.ok(err instanceof UnexpectedResponseError, String(err));
    assert.equal(err.status, 502);
    assert.equal(keys.length, 3);
    assert.ok(keys[0] && keys.every((k) => k === keys[0]), JSON.stringify(keys));
  } finally {
    server.close();
  }
});
