/**
 * Deeply nested JSON bodies are refused at the parser with 400 request.validation_failed. Found by
 * the write fuzz: a 5,000-deep body on cancel (a route without a body schema) overflowed the stack
 * of the idempotency fingerprint and answered 500.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../src/http/plugins/json-body.ts';
import { dbTargets } from './helpers/databases.ts';
import { createSalon, type SalonFixture } from './helpers/fixtures.ts';
import { call, startHarness, type Harness } from './helpers/harness.ts';
import { assertErrorEnvelope } from './helpers/route-samples.ts';

const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

test('nestsDeeperThan counts objects and arrays, not brackets inside strings', () => {
  assert.equal(nestsDeeperThan(nested(3), 3), false);
  assert.equal(nestsDeeperThan(nested(4), 3), true);
  assert.equal(nestsDeeperThan('[[[[1]]]]', 3), true);
  assert.equal(nestsDeeperThan(`{"a":"${'['.repeat(100)}"}`, 3), false);
  assert.equal(nestsDeeperThan(`{"a":"\\"${'{'.repeat(100)}"}`, 3), false, 'escaped quote does not end the string');
  assert.equal(nestsDeeperThan(`[{"a":[1,2]},{"b":[3]}]`, 3), false, 'siblings do not add up');
});

for (const target of dbTargets()) {
  describe(`JSON nesting limit [${target.name}]`, () => {
    let h: Harness;
    let salon: SalonFixture;
    before(async () => {
      h = await startHarness(target);
      salon = await createSalon(h.app);
    });
    after(() => h.close());

    for (const depth of [MAX_JSON_DEPTH + 1, 5_000, 100_000]) {
      test(`a body ${depth} levels deep on cancel and on create is a 400, not a 500`, async () => {
        for (const url of ['/v1/bookings/bkg_00000000000000000000/cancel', '/v1/bookings']) {
          const res = await call(h.app, {
            method: 'POST',
            url,
            headers: { authorization: `Bearer ${salon.key.secret}`, 'idempotency-key': randomUUID(), 'content-type': 'application/json' },
            payload: nested(depth),
          });
          assertErrorEnvelope(res, 'request.validation_failed', `${url} depth ${depth}`);
          assert.deepEqual(res.body.error.details.issues, [{ path: 'body', message: `nests deeper than ${MAX_JSON_DEPTH} levels` }]);
        }
      });
    }

    test(`a body exactly ${MAX_JSON_DEPTH} levels deep gets past the parser to the route`, async () => {
      const res = await call(h.app, {
        method: 'POST',
        url: '/v1/bookings/bkg_00000000000000000000/cancel',
        headers: { authorization: `Bearer ${salon.key.secret}`, 'idempotency-key': randomUUID(), 'content-type': 'application/json' },
        payload: nested(MAX_JSON_DEPTH),
      });
      // Parsed, so the route's own body check answers: cancel takes no body (the depth check would
      // have said "nests deeper").
      assertErrorEnvelope(res, 'request.validation_failed');
      assert.deepEqual(res.body.error.details.issues, [{ path: 'body', message: 'must be empty: this call takes no body' }]);
    });
  });
}
