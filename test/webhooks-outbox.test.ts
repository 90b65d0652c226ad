import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { countOutboxBacklog } from '../src/store/outbox-backlog.ts';
import { claimDue, failWithoutAttempt, purgeOldDeliveries, recordAttempt, releaseLease } from '../src/store/webhook-outbox.ts';
import { failPendingDeliveries } from '../src/store/webhook-configs.ts';
import { createOk } from './helpers/bookings.ts';
import { createSalon } from './helpers/fixtures.ts';
import type { Harness } from './helpers/harness.ts';
import { isolatedDbTargets } from './helpers/isolated-databases.ts';
import { attemptsOf, createWebhook, deliveriesOf, webhookHarness } from './helpers/webhooks.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const attempt = (outcome: 'success' | 'http_error' = 'success') => ({
  startedAt: new Date(),
  durationMs: 5,
  outcome,
  statusCode: outcome === 'success' ? 200 : 500,
  error: null,
});

// No worker runs here: the tests drive the outbox's SQL directly, as competing workers would.
for (const target of isolatedDbTargets()) {
  describe(`webhook outbox store [${target.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await webhookHarness(target);
    });
    after(() => h.close());

    /** One queued delivery (a manual booking's booking.requested); returns its booking id. */
    async function queueOne(): Promise<string> {
      const salon = await createSalon(h.app);
      await createWebhook(h, salon, 'http://127.0.0.1:9/never-called');
      return (await createOk(h, salon, { service: salon.manualService })).bookingId;
    }

    async function claimAll(leaseMs: number) {
      return claimDue(h.db, 100, leaseMs);
    }

    test('a claimed row is held: a second claim skips it until the lease lapses', async () => {
      const bookingId = await queueOne();
      const [first, ...rest] = await claimAll(60_000);
      assert.equal(rest.length, 0);
      assert.equal(first!.attempt, 1);
      assert.equal((await deliveriesOf(h.db, bookingId))[0]!.status, 'processing');
      assert.deepEqual(await claimAll(60_000), []);
      assert.equal(await recordAttempt(h.db, first!, attempt(), { status: 'succeeded' }), 'recorded');
      assert.deepEqual(await claimAll(60_000), []);
      assert.equal(await countOutboxBacklog(h.db), 0);
    });

    test('a lapsed lease is taken over with the same attempt number; the old holder can no longer record', async () => {
      const bookingId = await queueOne();
      const [stale] = await claimAll(1);
      await sleep(20);
      const [fresh] = await claimAll(60_000);
      assert.equal(fresh!.deliveryId, stale!.deliveryId);
      assert.equal(fresh!.attempt, 1, 'the attempt number comes from the row, not the claim');
      assert.notEqual(fresh!.lease, stale!.lease);
      // the dead worker's late result is dropped; the new holder's is kept
      assert.equal(await recordAttempt(h.db, stale!, attempt('http_error'), { status: 'retry_scheduled', waitMs: 0 }), 'lost');
      assert.equal(await failWithoutAttempt(h.db, stale!), false);
      assert.equal(await recordAttempt(h.db, fresh!, attempt(), { status: 'succeeded' }), 'recorded');
      const [row] = await deliveriesOf(h.db, bookingId);
      assert.deepEqual([row!.status, row!.attempt_count, row!.outcome], ['succeeded', 1, 'success']);
      assert.deepEqual(
        (await attemptsOf(h.db, row!.delivery_id)).map((a) => a.attempt),
        [1],
      );
    });

    test('a retry is claimed again when due, as the next attempt', async () => {
      const bookingId = await queueOne();
      const [c1] = await claimAll(60_000);
      assert.equal(await recordAttempt(h.db, c1!, attempt('http_error'), { status: 'retry_scheduled', waitMs: 150 }), 'recorded');
      const [row] = await deliveriesOf(h.db, bookingId);
      assert.equal(row!.status, 'retry_scheduled');
      assert.equal(row!.locked_until, null);
      assert.deepEqual(await claimAll(60_000), [], 'not due yet');
      await sleep(200);
      const [c2] = await claimAll(60_000);
      assert.equal(c2!.attempt, 2);
      // a released claim is due again at once, still as attempt 2
      await releaseLease(h.db, c2!);
      const [c3] = await claimAll(60_000);
      assert.equal(c3!.attempt, 2);
      assert.equal(await recordAttempt(h.db, c3!, attempt(), { status: 'succeeded' }), 'recorded');
    });

    test('a webhook deleted while an attempt is in flight: the attempt is still recorded, the delivery stays failed', async () => {
      const bookingId = await queueOne();
      const [c] = await claimAll(60_000);
      const [row] = await deliveriesOf(h.db, bookingId);
      assert.equal(await failPendingDeliveries(h.db, row!.business_id), 1);
      assert.equal(await recordAttempt(h.db, c!, attempt('http_error'), { status: 'retry_scheduled', waitMs: 0 }), 'disabled');
      const [after] = await deliveriesOf(h.db, bookingId);
      assert.deepEqual([after!.status, after!.attempt_count, after!.outcome, after!.next_attempt_at], ['failed', 1, 'http_error', null]);
      assert.deepEqual(
        (await attemptsOf(h.db, row!.delivery_id)).map((a) => a.attempt),
        [1],
      );
      assert.deepEqual(await claimAll(60_000), []);
    });

    test('the claim returns the exact stored payload', async () => {
      const bookingId = await queueOne();
      const [c] = await claimAll(60_000);
      const stored = await h.db.query<{ payload: string }>('SELECT payload FROM booking_events WHERE booking_id = $1', [bookingId]);
      assert.equal(c!.payload, stored.rows[0]!.payload);
      await recordAttempt(h.db, c!, attempt(), { status: 'succeeded' });
    });

    test('purge: final records older than 12 months go with their attempts; newer and unfinished ones stay', async () => {
      const old = await queueOne();
      const oldPending = await queueOne();
      const recent = await queueOne();
      for (const c of await claimAll(60_000)) {
        if (c.payload.includes(oldPending)) await releaseLease(h.db, c);
        else await recordAttempt(h.db, c, attempt(), { status: 'succeeded' });
      }
      await h.db.query(`UPDATE webhook_deliveries SET created_at = now() - interval '13 months' WHERE booking_id = ANY($1)`, [
        [old, oldPending],
      ]);
      const oldId = (await deliveriesOf(h.db, old))[0]!.delivery_id;
      assert.ok((await purgeOldDeliveries(h.db, 1)) >= 1);
      assert.deepEqual(await deliveriesOf(h.db, old), []);
      assert.deepEqual(await attemptsOf(h.db, oldId), []);
      assert.equal((await deliveriesOf(h.db, oldPending)).length, 1);
      assert.equal((await deliveriesOf(h.db, recent)).length, 1);
    });
  });
}
