import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { Metrics } from '../src/metrics.ts';
import type { WebhookWorker } from '../src/webhooks/worker.ts';
import { createOk } from './helpers/bookings.ts';
import { createSalon, type SalonFixture } from './helpers/fixtures.ts';
import type { Harness } from './helpers/harness.ts';
import { isolatedDbTargets } from './helpers/isolated-databases.ts';
import { verifySignature, WebhookReceiver, type Behaviour } from './helpers/webhook-receiver.ts';
import {
  attemptsOf,
  configureWebhook,
  createWebhook,
  deleteWebhook,
  deliveriesOf,
  rotateSecret,
  testWorker,
  waitForFinal,
  webhookHarness,
} from './helpers/webhooks.ts';

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

for (const target of isolatedDbTargets()) {
  describe(`webhook delivery [${target.name}]`, () => {
    let h: Harness;
    let receiver: WebhookReceiver;
    let worker: WebhookWorker;
    const metrics = new Metrics();
    before(async () => {
      h = await webhookHarness(target);
      receiver = await WebhookReceiver.start();
      worker = await testWorker(h, { metrics });
    });
    after(async () => {
      await worker.stop();
      await receiver.close();
      await h.close();
    });

    /** A salon whose webhook points at a fresh receiver path; one booking's events go there. */
    async function salonWithWebhook(name: string, behaviour?: Behaviour) {
      const salon = await createSalon(h.app);
      const { url, path } = receiver.path(name, behaviour);
      const secret = await createWebhook(h, salon, url);
      return { salon, url, path, secret };
    }

    /** A manual-service booking: exactly one event (booking.requested). */
    async function requestBooking(salon: SalonFixture) {
      return createOk(h, salon, { service: salon.manualService });
    }

    test('an automatic booking yields booking.requested (sequence 1) then booking.confirmed (sequence 2), signed over the raw bytes', async () => {
      const { salon, path, secret } = await salonWithWebhook('auto');
      const booking = await createOk(h, salon);
      const rows = await waitForFinal(h.db, booking.bookingId, 2);
      await receiver.waitFor(() => receiver.at(path).length === 2);
      assert.deepEqual(
        rows.map((r) => [r.sequence, r.event, r.status, r.attempt_count, r.outcome, r.status_code]),
        [
          [1, 'booking.requested', 'succeeded', 1, 'success', 200],
          [2, 'booking.confirmed', 'succeeded', 1, 'success', 200],
        ],
      );
      const stored = (
        await h.db.query<{ payload: string; delivery_id: string }>(
          'SELECT payload, delivery_id FROM booking_events WHERE booking_id = $1 ORDER BY sequence',
          [booking.bookingId],
        )
      ).rows;
      const got = receiver.at(path).sort((a, b) => Number(a.headers['x-service-attempt']) - Number(b.headers['x-service-attempt']));
      for (const event of stored) {
        const req = got.find((r) => r.headers['x-service-delivery-id'] === event.delivery_id);
        assert.ok(req, 'each event reached the receiver');
        // exactly the stored bytes, signed over them
        assert.equal(req.body.toString('utf8'), event.payload);
        assert.ok(verifySignature(secret, req.body, req.headers['x-service-signature']));
        const payload = JSON.parse(event.payload);
        assert.equal(req.headers['x-service-event'], payload.event);
        assert.equal(req.headers['x-service-timestamp'], payload.timestamp);
        assert.equal(req.headers['x-service-attempt'], '1');
        assert.equal(req.headers['content-type'], 'application/json');
        assert.equal(payload.deliveryId, event.delivery_id);
      }
      const payloads = stored.map((e) => JSON.parse(e.payload));
      assert.deepEqual(
        payloads.map((p) => [p.event, p.transition.sequence]),
        [
          ['booking.requested', 1],
          ['booking.confirmed', 2],
        ],
      );
      const [a] = await attemptsOf(h.db, rows[0]!.delivery_id);
      assert.equal(a!.attempt, 1);
      assert.equal(a!.outcome, 'success');
      assert.equal(a!.status_code, 200);
      assert.equal(a!.error, null);
      assert.ok(a!.duration_ms >= 0);
    });

    test('500 on every attempt: exhausted after 3 attempts, each with the same deliveryId, body and timestamp', async () => {
      const { salon, path, secret } = await salonWithWebhook('500', () => ({ status: 500 }));
      const booking = await requestBooking(salon);
      const [row] = await waitForFinal(h.db, booking.bookingId, 1);
      assert.equal(row!.status, 'exhausted');
      assert.equal(row!.attempt_count, 3);
      assert.equal(row!.outcome, 'http_error');
      assert.equal(row!.status_code, 500);
      const reqs = receiver.at(path);
      assert.equal(reqs.length, 3);
      assert.deepEqual(
        reqs.map((r) => r.headers['x-service-attempt']),
        ['1', '2', '3'],
      );
      for (const r of reqs) {
        assert.equal(r.headers['x-service-delivery-id'], row!.delivery_id);
        assert.equal(r.headers['x-service-timestamp'], reqs[0]!.headers['x-service-timestamp']);
        assert.ok(r.body.equals(reqs[0]!.body));
        assert.ok(verifySignature(secret, r.body, r.headers['x-service-signature']));
      }
      const attempts = await attemptsOf(h.db, row!.delivery_id);
      assert.deepEqual(
        attempts.map((a) => [a.attempt, a.outcome, a.status_code]),
        [
          [1, 'http_error', 500],
          [2, 'http_error', 500],
          [3, 'http_error', 500],
        ],
      );
    });

    test('408 then 200: retried, succeeded on attempt 2', async () => {
      const { salon, path } = await salonWithWebhook('408', (n) => ({ status: n === 1 ? 408 : 200 }));
      const booking = await requestBooking(salon);
      const [row] = await waitForFinal(h.db, booking.bookingId, 1);
      assert.deepEqual([row!.status, row!.attempt_count, row!.outcome, row!.status_code], ['succeeded', 2, 'success', 200]);
      assert.equal(receiver.at(path).length, 2);
      const attempts = await attemptsOf(h.db, row!.delivery_id);
      assert.deepEqual(
        attempts.map((a) => [a.attempt, a.outcome, a.status_code]),
        [
          [1, 'http_error', 408],
          [2, 'success', 200],
        ],
      );
    });

    test('429 with Retry-After lengthens the wait (1 s instead of tens of ms)', async () => {
      const { salon, path } = await salonWithWebhook('429', (n) =>
        n === 1 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 204 },
      );
      const booking = await requestBooking(salon);
      const [row] = await waitForFinal(h.db, booking.bookingId, 1);
      assert.deepEqual([row!.status, row!.attempt_count, row!.status_code], ['succeeded', 2, 204]);
      const [first, second] = receiver.at(path);
      // the configured wait is 20-40 ms; the header asked for 1 s
      assert.ok(second!.at - first!.at >= 950, `waited ${second!.at - first!.at} ms`);
    });

    test('503 with an HTTP-date Retry-After in the past does not shorten the configured wait', async () => {
      const { salon, path } = await salonWithWebhook('503', (n) =>
        n === 1 ? { status: 503, headers: { 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' } } : { status: 200 },
      );
      const booking = await requestBooking(salon);
      const [row] = await waitForFinal(h.db, booking.bookingId, 1);
      assert.deepEqual([row!.status, row!.attempt_count], ['succeeded', 2]);
      const [first, second] = receiver.at(path);
      assert.ok(second!.at - first!.at >= 15, `waited ${second!.at - first!.at} ms`);
    });

    test('a hanging receiver: each attempt times out; exhausted with outcome timeout', async () => {
      const { salon, path } = await salonWithWebhook('hang', () => 'hang');
      const booking = await requestBooking(salon);
      const [row] = await waitForFinal(h.db, booking.bookingId, 1);
      receiver.releaseHanging();
      assert.deepEqual([row!.status, row!.attempt_count, row!.outcome, row!.status_code], ['exhausted', 3, 'timeout', null]);
      assert.equal(receiver.at(path).length, 3);
      const attempts = await attemptsOf(h.db, row!.delivery_id);
      for (const a of attempts) {
        assert.equal(a.outcome, 'timeout');
        assert.match(a.error ?? '', /no response within 1500 ms/);
        assert.ok(a.duration_ms >= 1450, `attempt took ${a.duration_ms} ms`);
      }
    });

    test('a refused connection: network_error on every attempt, exhausted', async () => {
      const salon = await createSalon(h.app);
      await createWebhook(h, salon, `http://127.0.0.1:${await closedPort()}/hook`);
      const booking = await requestBooking(salon);
      const [row] = await waitForFinal(h.db, booking.bookingId, 1);
      assert.deepEqual([row!.status, row!.attempt_count, row!.outcome, row!.status_code], ['exhausted', 3, 'network_error', null]);
      const attempts = await attemptsOf(h.db, row!.delivery_id);
      assert.equal(attempts.length, 3);
      for (const a of attempts) assert.match(a.error ?? '', /ECONNREFUSED/);
    });

    test('a connection closed without an answer is a network error and is retried', async () => {
      const { salon, path } = await salonWithWebhook('close', (n) => (n === 1 ? 'close' : { status: 200 }));
      const booking = await requestBooking(salon);
      const [row] = await waitForFinal(h.db, booking.bookingId, 1);
      assert.deepEqual([row!.status, row!.attempt_count], ['succeeded', 2]);
      const attempts = await attemptsOf(h.db, row!.delivery_id);
      assert.equal(attempts[0]!.outcome, 'network_error');
      assert.equal(receiver.at(path).length, 2);
    });

    test('400: failed after one attempt, never retried', async () => {
      const { salon, path } = await salonWithWebhook('400', () => ({ status: 400, body: 'no thanks' }));
      const booking = await requestBooking(salon);
      const [row] = await waitForFinal(h.db, booking.bookingId, 1);
      assert.deepEqual([row!.status, row!.attempt_count, row!.outcome, row!.status_code], ['failed', 1, 'http_error', 400]);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(receiver.at(path).length, 1);
    });

    test('302: failed after one attempt, the redirect is not followed', async () => {
      const elsewhere = receiver.path('redirect-target');
      const { salon, path } = await salonWithWebhook('302', () => ({ status: 302, headers: { location: elsewhere.url } }));
      const booking = await requestBooking(salon);
      const [row] = await waitForFinal(h.db, booking.bookingId, 1);
      assert.deepEqual([row!.status, row!.attempt_count, row!.outcome, row!.status_code], ['failed', 1, 'http_error', 302]);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(receiver.at(path).length, 1);
      assert.equal(receiver.at(elsewhere.path).length, 0);
    });

    test('a large response body is read up to a cap and discarded; the status decides', async () => {
      const { salon } = await salonWithWebhook('big', () => ({ status: 200, body: 'x'.repeat(1_000_000) }));
      const booking = await requestBooking(salon);
      const [row] = await waitForFinal(h.db, booking.bookingId, 1);
      assert.deepEqual([row!.status, row!.outcome], ['succeeded', 'success']);
    });

    test('a secret rotated between attempts: the retry is signed with the new secret', async () => {
      const { salon, path, secret } = await salonWithWebhook('rotate', (n) =>
        n === 1 ? { status: 503, headers: { 'retry-after': '1' } } : { status: 200 },
      );
      const booking = await requestBooking(salon);
      await receiver.waitFor(() => receiver.at(path).length === 1);
      const rotated = await rotateSecret(h, salon);
      const [row] = await waitForFinal(h.db, booking.bookingId, 1);
      assert.deepEqual([row!.status, row!.attempt_count], ['succeeded', 2]);
      const [first, second] = receiver.at(path);
      assert.ok(verifySignature(secret, first!.body, first!.headers['x-service-signature']));
      assert.ok(verifySignature(rotated, second!.body, second!.headers['x-service-signature']));
      assert.ok(!verifySignature(secret, second!.body, second!.headers['x-service-signature']));
      assert.ok(first!.body.equals(second!.body));
    });

    test('a URL changed between attempts: the retry goes to the current URL', async () => {
      const { salon, path } = await salonWithWebhook('moved-from', () => ({ status: 503, headers: { 'retry-after': '1' } }));
      const moved = receiver.path('moved-to');
      const booking = await requestBooking(salon);
      await receiver.waitFor(() => receiver.at(path).length === 1);
      assert.equal(await configureWebhook(h, salon, moved.url), undefined, 'a later PUT shows no secret');
      const [row] = await waitForFinal(h.db, booking.bookingId, 1);
      assert.deepEqual([row!.status, row!.attempt_count], ['succeeded', 2]);
      assert.equal(receiver.at(path).length, 1);
      assert.equal(receiver.at(moved.path)[0]!.headers['x-service-attempt'], '2');
    });

    /** Waits until the delivery has `n` recorded attempts. */
    async function waitForAttempts(deliveryId: string, n: number) {
      for (let i = 0; i < 400; i++) {
        const rows = await attemptsOf(h.db, deliveryId);
        if (rows.length >= n) return rows;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error(`attempt ${n} of ${deliveryId} was not recorded`);
    }

    test('a webhook deleted between attempts (DELETE /webhooks/config): the delivery ends failed, no further attempt', async () => {
      const { salon, path } = await salonWithWebhook('deleted', () => ({ status: 503, headers: { 'retry-after': '1' } }));
      const booking = await requestBooking(salon);
      const [queued] = await deliveriesOf(h.db, booking.bookingId);
      await waitForAttempts(queued!.delivery_id, 1);
      await deleteWebhook(h, salon);
      await new Promise((r) => setTimeout(r, 1300)); // past the Retry-After of 1 s
      const [row] = await deliveriesOf(h.db, booking.bookingId);
      assert.deepEqual([row!.status, row!.attempt_count, row!.outcome, row!.status_code], ['failed', 1, 'http_error', 503]);
      assert.equal(receiver.at(path).length, 1);
    });

    test('a configuration gone when the retry comes due: the worker ends the delivery failed without an attempt', async () => {
      const { salon, path } = await salonWithWebhook('gone', () => ({ status: 503, headers: { 'retry-after': '1' } }));
      const booking = await requestBooking(salon);
      const [queued] = await deliveriesOf(h.db, booking.bookingId);
      await waitForAttempts(queued!.delivery_id, 1);
      // the row alone, leaving the delivery queued: only the worker's check at attempt time can stop it
      await h.db.query('DELETE FROM webhook_configs WHERE business_id = $1', [salon.business.id]);
      const [row] = await waitForFinal(h.db, booking.bookingId, 1);
      assert.deepEqual([row!.status, row!.attempt_count, row!.outcome], ['failed', 1, 'http_error']);
      assert.equal(receiver.at(path).length, 1);
      assert.equal((await attemptsOf(h.db, row!.delivery_id)).length, 1);
    });

    test('a webhook deleted while an attempt is in flight: the attempt made is recorded, the delivery stays failed', async () => {
      const { salon, path } = await salonWithWebhook('deleted-in-flight', () => 'hang');
      const booking = await requestBooking(salon);
      await receiver.waitFor(() => receiver.at(path).length === 1);
      await deleteWebhook(h, salon);
      receiver.releaseHanging(); // the attempt ends (a network error) after the delete
      const [queued] = await deliveriesOf(h.db, booking.bookingId);
      await waitForAttempts(queued!.delivery_id, 1);
      const [row] = await deliveriesOf(h.db, booking.bookingId);
      assert.deepEqual([row!.status, row!.attempt_count], ['failed', 1]);
      // closed by the receiver after the delete, or cut by the timeout on a slow machine
      assert.ok(row!.outcome === 'network_error' || row!.outcome === 'timeout', String(row!.outcome));
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(receiver.at(path).length, 1);
    });

    test('no webhook configured: nothing is queued', async () => {
      const salon = await createSalon(h.app);
      const booking = await createOk(h, salon);
      assert.deepEqual(await deliveriesOf(h.db, booking.bookingId), []);
    });

    test('metrics: attempts counted by outcome, the backlog reported', async () => {
      const { salon: ok } = await salonWithWebhook('metrics-ok');
      const { salon: bad } = await salonWithWebhook('metrics-400', () => ({ status: 400 }));
      const before = await attemptCounts();
      await waitForFinal(h.db, (await requestBooking(ok)).bookingId, 1);
      await waitForFinal(h.db, (await requestBooking(bad)).bookingId, 1);
      const after = await attemptCounts();
      assert.equal((after.success ?? 0) - (before.success ?? 0), 1);
      assert.equal((after.http_error ?? 0) - (before.http_error ?? 0), 1);
      const backlog = (await metrics.registry.getSingleMetric('webhook_outbox_backlog')!.get()).values[0]!.value;
      assert.equal(typeof backlog, 'number');
      assert.ok(backlog >= 0);
    });

    async function attemptCounts(): Promise<Record<string, number>> {
      const m = await metrics.webhookAttempts.get();
      return Object.fromEntries(m.values.map((v) => [String(v.labels.outcome), v.value]));
    }

    if (target.name === 'postgres') {
      test('the LISTEN connection is killed: the worker survives and listens again', async () => {
        const listeners = async () =>
          (
            await h.db.query<{ pid: number }>(
              `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN webhook_outbox%'`,
            )
          ).rows.map((r) => r.pid);
        const [pid] = await listeners();
        assert.ok(pid, 'the worker listens');
        await h.db.query('SELECT pg_terminate_backend($1)', [pid]);
        for (let i = 0; i < 100 && !(await listeners()).some((p) => p !== pid); i++) await new Promise((r) => setTimeout(r, 50));
        const again = await listeners();
        assert.ok(again.length === 1 && again[0] !== pid, `listening again on a new connection: ${JSON.stringify(again)}`);
        const { salon } = await salonWithWebhook('after-reconnect');
        const [row] = await waitForFinal(h.db, (await requestBooking(salon)).bookingId, 1);
        assert.equal(row!.status, 'succeeded');
      });
    }

    test('two workers racing over many deliveries never send one attempt twice', async () => {
      const second = await testWorker(h, { concurrency: 3 });
      try {
        // Every other delivery fails its first attempt, so retries race too.
        const { salon, path } = await salonWithWebhook('race', (_n, req) =>
          receiver.at(req.path).filter((r) => r.headers['x-service-delivery-id'] === req.headers['x-service-delivery-id']).length === 1 &&
          req.headers['x-service-delivery-id']!.toString().charCodeAt(0) % 2 === 0
            ? { status: 500 }
            : { status: 200 },
        );
        const bookings = [];
        // 30 bookings, 60 deliveries: both staff members, 09:00 to 16:00 each
        for (let i = 0; i < 30; i++) {
          const slot = Math.floor(i / 2);
          const startTime = `${String(9 + Math.floor(slot / 2)).padStart(2, '0')}:${slot % 2 ? '30' : '00'}`;
          bookings.push(await createOk(h, salon, { staffId: salon.staff[i % 2]!.id, startTime }));
        }
        for (const b of bookings) await waitForFinal(h.db, b.bookingId, 2);
        const seen = receiver.at(path).map((r) => `${r.headers['x-service-delivery-id']}#${r.headers['x-service-attempt']}`);
        assert.equal(new Set(seen).size, seen.length, 'a (deliveryId, attempt) pair arrived twice');
        const rows = (await Promise.all(bookings.map((b) => deliveriesOf(h.db, b.bookingId)))).flat();
        assert.equal(rows.length, 60);
        assert.ok(
          rows.every((r) => r.status === 'succeeded'),
          JSON.stringify(
            await Promise.all(
              rows.filter((r) => r.status !== 'succeeded').map(async (r) => ({ ...r, attempts: await attemptsOf(h.db, r.delivery_id) })),
            ),
          ),
        );
        assert.equal(
          seen.length,
          rows.reduce((n, r) => n + r.attempt_count, 0),
        );
        assert.ok(
          rows.some((r) => r.attempt_count === 2),
          'some deliveries were retried',
        );
      } finally {
        await second.stop();
      }
    });
  });
}
