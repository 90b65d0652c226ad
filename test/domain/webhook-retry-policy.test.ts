import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  isRetryable,
  jitteredWait,
  nextStep,
  outcomeOfStatus,
  parseRetryAfter,
  RETRY_AFTER_CAP_MS,
} from '../../src/domain/webhooks/retry-policy.ts';

const RANGES = [
  { minMs: 15_000, maxMs: 120_000 },
  { minMs: 120_000, maxMs: 360_000 },
];
const NOW = new Date('2031-06-01T12:00:00.000Z');

describe('webhook retry policy', () => {
  test('outcomes: 2xx is success, everything else (3xx included) an http_error', () => {
    for (const s of [200, 201, 204, 299]) assert.equal(outcomeOfStatus(s), 'success');
    for (const s of [100, 301, 302, 304, 400, 404, 500]) assert.equal(outcomeOfStatus(s), 'http_error');
  });

  test('retried: timeout, network error, 408, 429, 5xx; not retried: any other status', () => {
    assert.equal(isRetryable({ outcome: 'timeout', statusCode: null }), true);
    assert.equal(isRetryable({ outcome: 'network_error', statusCode: null }), true);
    for (const s of [408, 429, 500, 502, 503, 504, 599])
      assert.equal(isRetryable({ outcome: 'http_error', statusCode: s }), true, String(s));
    for (const s of [301, 302, 307, 400, 401, 403, 404, 409, 410, 422]) {
      assert.equal(isRetryable({ outcome: 'http_error', statusCode: s }), false, String(s));
    }
    assert.equal(isRetryable({ outcome: 'success', statusCode: 200 }), false);
  });

  test('the wait is drawn from the range of the retry it precedes', () => {
    assert.equal(
      jitteredWait(RANGES, 2, () => 0),
      15_000,
    );
    assert.equal(
      jitteredWait(RANGES, 2, () => 1),
      120_000,
    );
    assert.equal(
      jitteredWait(RANGES, 3, () => 0),
      120_000,
    );
    assert.equal(
      jitteredWait(RANGES, 3, () => 0.5),
      240_000,
    );
  });

  test('Retry-After: seconds or an HTTP date, capped at 600 s; nonsense and the past are ignored', () => {
    assert.equal(parseRetryAfter('120', NOW), 120_000);
    assert.equal(parseRetryAfter(' 5 ', NOW), 5_000);
    assert.equal(parseRetryAfter('3600', NOW), RETRY_AFTER_CAP_MS);
    assert.equal(parseRetryAfter('9'.repeat(400), NOW), RETRY_AFTER_CAP_MS, 'a number too large to be finite is capped, not ignored');
    assert.equal(parseRetryAfter('0000000000005', NOW), 5_000);
    assert.equal(parseRetryAfter('Sun, 01 Jun 2031 12:05:00 GMT', NOW), 300_000);
    assert.equal(parseRetryAfter('Sun, 01 Jun 2031 14:00:00 GMT', NOW), RETRY_AFTER_CAP_MS);
    assert.equal(parseRetryAfter('Sun, 01 Jun 2031 11:00:00 GMT', NOW), undefined);
    assert.equal(parseRetryAfter('0', NOW), undefined);
    for (const bad of [undefined, '', '-5', '1.5', '2031-06-01T12:05:00Z', 'soon', 'NaN'])
      assert.equal(parseRetryAfter(bad, NOW), undefined, String(bad));
  });

  test('next step: success, failed, exhausted on the third attempt, else a retry', () => {
    assert.deepEqual(nextStep(1, { outcome: 'success', statusCode: 200 }, RANGES, NOW), { status: 'succeeded' });
    assert.deepEqual(nextStep(1, { outcome: 'http_error', statusCode: 400 }, RANGES, NOW), { status: 'failed' });
    assert.deepEqual(nextStep(3, { outcome: 'http_error', statusCode: 400 }, RANGES, NOW), { status: 'failed' });
    assert.deepEqual(nextStep(3, { outcome: 'timeout', statusCode: null }, RANGES, NOW), { status: 'exhausted' });
    assert.deepEqual(
      nextStep(1, { outcome: 'timeout', statusCode: null }, RANGES, NOW, () => 0),
      { status: 'retry_scheduled', waitMs: 15_000 },
    );
    assert.deepEqual(
      nextStep(2, { outcome: 'network_error', statusCode: null }, RANGES, NOW, () => 0),
      {
        status: 'retry_scheduled',
        waitMs: 120_000,
      },
    );
  });

  test('Retry-After on 429 or 503 only lengthens the wait', () => {
    const r = () => 0;
    assert.deepEqual(nextStep(1, { outcome: 'http_error', statusCode: 429, retryAfter: '300' }, RANGES, NOW, r), {
      status: 'retry_scheduled',
      waitMs: 300_000,
    });
    // shorter than the drawn wait: ignored
    assert.deepEqual(nextStep(1, { outcome: 'http_error', statusCode: 503, retryAfter: '1' }, RANGES, NOW, r), {
      status: 'retry_scheduled',
      waitMs: 15_000,
    });
    // capped
    assert.deepEqual(nextStep(1, { outcome: 'http_error', statusCode: 429, retryAfter: '86400' }, RANGES, NOW, r), {
      status: 'retry_scheduled',
      waitMs: RETRY_AFTER_CAP_MS,
    });
    // only 429 and 503 carry it
    assert.deepEqual(nextStep(1, { outcome: 'http_error', statusCode: 500, retryAfter: '300' }, RANGES, NOW, r), {
      status: 'retry_scheduled',
      waitMs: 15_000,
    });
    // the last attempt stays last whatever the header says
    assert.deepEqual(nextStep(3, { outcome: 'http_error', statusCode: 429, retryAfter: '10' }, RANGES, NOW, r), { status: 'exhausted' });
  });
});
