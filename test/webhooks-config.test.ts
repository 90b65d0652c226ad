import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { decryptSigningSecret } from '../src/domain/webhooks/signing-secret.ts';
import { findWebhookConfig } from '../src/store/webhook-configs.ts';
import { dbTargets } from './helpers/databases.ts';
import { api, createSalon, type SalonFixture } from './helpers/fixtures.ts';
import { startHarness, type Harness, type JsonResponse } from './helpers/harness.ts';
import { bookingHarness, createOk, expectError, sql } from './helpers/bookings.ts';

const HEX64 = /^[0-9a-f]{64}$/;
const DAY_MS = 86_400_000;

function config(h: Harness, salon: SalonFixture, method: 'GET' | 'PUT' | 'DELETE', body?: unknown, headers: Record<string, string> = {}) {
  return api(h.app, salon.key.secret, method, `/webhooks/config?salonSlug=${salon.business.slug}`, body, headers);
}

function rotate(h: Harness, salon: SalonFixture, headers: Record<string, string> = {}) {
  return api(h.app, salon.key.secret, 'POST', `/webhooks/config/rotate-secret?salonSlug=${salon.business.slug}`, undefined, headers);
}

function deliveries(h: Harness, salon: SalonFixture, query = '') {
  return api(h.app, salon.key.secret, 'GET', `/webhooks/deliveries?salonSlug=${salon.business.slug}${query}`);
}

function okData(r: JsonResponse): any {
  assert.equal(r.status, 200, r.raw);
  assert.equal(r.body.ok, true, r.raw);
  return r.body.data;
}

/** The stored URL and the secret the worker would sign with (it decrypts the same way). */
async function target(h: Harness, salon: SalonFixture) {
  const config = await findWebhookConfig(h.db, salon.business.id);
  return config && { url: config.url, secret: decryptSigningSecret(h.app.ctx.serverSecret, config.secretCiphertext) };
}

/** A PUT that must create the configuration; returns the secret it showed. */
async function configure(h: Harness, salon: SalonFixture, url = 'https://hooks.example.com/booking'): Promise<string> {
  const data = okData(await config(h, salon, 'PUT', { url }));
  assert.match(data.webhook.signingSecret, HEX64);
  return data.webhook.signingSecret;
}

for (const t of dbTargets()) {
  describe(`webhook configuration [${t.name}]`, () => {
    let h: Harness;
    let logged = '';
    before(async () => {
      const sink = new Writable({
        write(chunk, _enc, done) {
          logged += String(chunk);
          done();
        },
      });
      h = await bookingHarness(t, { logger: pino({ level: 'trace' }, sink) });
    });
    after(() => h.close());

    test('first PUT shows the secret once; GET and later PUTs never do; the URL changes, the secret stays', async () => {
      const salon = await createSalon(h.app);
      const put = await config(h, salon, 'PUT', { url: 'https://hooks.example.com/a' });
      const first = okData(put).webhook;
      assert.deepEqual(Object.keys(first).sort(), ['createdAt', 'signingSecret', 'updatedAt', 'url']);
      assert.equal(first.url, 'https://hooks.example.com/a');
      assert.match(first.signingSecret, HEX64);
      assert.equal(first.createdAt, h.clock.now.toISOString());
      assert.equal(first.updatedAt, first.createdAt);

      const get = await config(h, salon, 'GET');
      assert.deepEqual(okData(get).webhook, { url: first.url, createdAt: first.createdAt, updatedAt: first.updatedAt });
      assert.ok(!get.raw.includes(first.signingSecret));

      // stored encrypted: the column is neither the secret nor contains it, and decrypts to it
      const [row] = await sql(h, 'SELECT secret_ciphertext FROM webhook_configs WHERE business_id = $1', [salon.business.id]);
      assert.ok(!row.secret_ciphertext.includes(first.signingSecret));
      assert.deepEqual(await target(h, salon), { url: first.url, secret: first.signingSecret });

      h.clock.now = new Date(h.clock.now.getTime() + 60_000);
      const second = okData(await config(h, salon, 'PUT', { url: 'https://hooks.example.com/b' })).webhook;
      assert.deepEqual(second, { url: 'https://hooks.example.com/b', createdAt: first.createdAt, updatedAt: h.clock.now.toISOString() });
      assert.deepEqual(await target(h, salon), { url: 'https://hooks.example.com/b', secret: first.signingSecret });

      // the same URL again changes nothing, not even updatedAt
      h.clock.now = new Date(h.clock.now.getTime() + 60_000);
      const third = okData(await config(h, salon, 'PUT', { url: 'https://hooks.example.com/b' })).webhook;
      assert.deepEqual(third, second);
    });

    test('rotate-secret shows a new secret once; the stored one decrypts to it; GET does not reveal it', async () => {
      const salon = await createSalon(h.app);
      const old = await configure(h, salon);
      h.clock.now = new Date(h.clock.now.getTime() + 1000);
      const rotated = okData(await rotate(h, salon)).webhook;
      assert.match(rotated.signingSecret, HEX64);
      assert.notEqual(rotated.signingSecret, old);
      assert.equal(rotated.updatedAt, h.clock.now.toISOString());
      assert.deepEqual(await target(h, salon), { url: rotated.url, secret: rotated.signingSecret });
      const get = await config(h, salon, 'GET');
      assert.equal(okData(get).webhook.signingSecret, undefined);
      assert.ok(!get.raw.includes(rotated.signingSecret));
      assert.ok(!get.raw.includes(old));
      // a second rotation replaces it again
      const again = okData(await rotate(h, salon)).webhook.signingSecret;
      assert.notEqual(again, rotated.signingSecret);
      assert.equal((await target(h, salon))?.secret, again);
    });

    test('GET, DELETE and rotate with none configured: 404 webhook.not_configured', async () => {
      const salon = await createSalon(h.app);
      expectError(await config(h, salon, 'GET'), 404, 'webhook.not_configured');
      expectError(await config(h, salon, 'DELETE'), 404, 'webhook.not_configured');
      expectError(await rotate(h, salon), 404, 'webhook.not_configured');
      assert.equal(await target(h, salon), undefined);
    });

    test('DELETE returns the webhook as it was and removes it; the next PUT makes a new secret', async () => {
      const salon = await createSalon(h.app);
      const secret = await configure(h, salon);
      const before = okData(await config(h, salon, 'GET')).webhook;
      const del = await config(h, salon, 'DELETE');
      assert.deepEqual(okData(del).webhook, before);
      assert.ok(!del.raw.includes(secret));
      expectError(await config(h, salon, 'GET'), 404, 'webhook.not_configured');
      assert.equal(await target(h, salon), undefined);
      const fresh = await configure(h, salon);
      assert.notEqual(fresh, secret);
    });

    test('URL rules through HTTP: 422 webhook.invalid_url with details.rule; nothing is stored', async () => {
      const salon = await createSalon(h.app);
      const cases: Array<[string, string]> = [
        ['http://example.com/', 'scheme'],
        ['ftp://example.com/', 'scheme'],
        [`https://example.com/${'a'.repeat(481)}`, 'length'],
        ['https://user:pass@example.com/', 'credentials'],
        ['https://0x7f000001/', 'loopback'],
        ['https://localhost./', 'loopback'],
        ['https://[::ffff:127.0.0.1]/', 'loopback'],
        ['https://192.168.1.10/', 'private'],
        ['https://[fd00::1]/', 'private'],
        ['https://169.254.169.254/', 'link-local'],
        ['https://224.0.0.1/', 'reserved'],
        ['not a url', 'format'],
        // delivery (WHATWG) would go to evil.example; another reader sees a user at 127.0.0.1
        ['https://evil.example\\@127.0.0.1/hook', 'format'],
        ['https:evil.example/hook', 'format'],
        ['https://134744072/', 'format'],
        ['https://hooks.example.com/b#@evil.example', 'format'],
        ['https://2130706433/', 'loopback'],
      ];
      for (const [url, rule] of cases) {
        const r = await config(h, salon, 'PUT', { url });
        expectError(r, 422, 'webhook.invalid_url');
        assert.equal(r.body.error.retryable, false);
        assert.deepEqual(r.body.error.details, { rule }, url);
      }
      expectError(await config(h, salon, 'GET'), 404, 'webhook.not_configured');
      // exactly 500 characters is allowed
      await configure(h, salon, `https://example.com/${'a'.repeat(480)}`);
    });

    test('the URL is stored and returned normalised: PUT, GET and the row hold the same text; a respelling changes nothing', async () => {
      const salon = await createSalon(h.app);
      const sent = 'HTTPS://Hooks.Example.COM:443/a/../Booking/ü?x=ä';
      const normalised = 'https://hooks.example.com/Booking/%C3%BC?x=%C3%A4';
      const put = okData(await config(h, salon, 'PUT', { url: sent })).webhook;
      assert.equal(put.url, normalised);
      assert.equal(okData(await config(h, salon, 'GET')).webhook.url, normalised);
      assert.equal((await target(h, salon))?.url, normalised);

      // another spelling of the same URL is the URL already configured: nothing moves
      h.clock.now = new Date(h.clock.now.getTime() + 60_000);
      const again = okData(await config(h, salon, 'PUT', { url: 'https://hooks.example.com/x/%2e%2e/Booking/%C3%BC?x=ä' })).webhook;
      assert.deepEqual(again, { url: normalised, createdAt: put.createdAt, updatedAt: put.updatedAt });
      assert.equal(okData(await config(h, salon, 'DELETE')).webhook.url, normalised);
    });

    test('body and scope: url required, no extra fields, salonSlug required and must be the key business', async () => {
      const salon = await createSalon(h.app);
      const other = await createSalon(h.app);
      expectError(await config(h, salon, 'PUT', {}), 400, 'request.validation_failed');
      expectError(await config(h, salon, 'PUT', { url: 5 }), 400, 'request.validation_failed');
      expectError(await config(h, salon, 'PUT', { url: 'https://example.com/', secret: 'x' }), 400, 'request.validation_failed');
      const base = (m: 'GET' | 'PUT' | 'DELETE') =>
        api(h.app, salon.key.secret, m, '/webhooks/config', m === 'PUT' ? { url: 'https://example.com/' } : undefined);
      for (const m of ['GET', 'PUT', 'DELETE'] as const) expectError(await base(m), 400, 'request.validation_failed');
      expectError(await api(h.app, salon.key.secret, 'POST', '/webhooks/config/rotate-secret'), 400, 'request.validation_failed');
      expectError(await api(h.app, salon.key.secret, 'GET', '/webhooks/deliveries'), 400, 'request.validation_failed');
      const foreign = (path: string, m: 'GET' | 'PUT' | 'DELETE' | 'POST', body?: unknown) =>
        api(h.app, salon.key.secret, m, `${path}?salonSlug=${other.business.slug}`, body);
      expectError(await foreign('/webhooks/config', 'GET'), 403, 'auth.scope_mismatch');
      expectError(await foreign('/webhooks/config', 'PUT', { url: 'https://example.com/' }), 403, 'auth.scope_mismatch');
      expectError(await foreign('/webhooks/config', 'DELETE'), 403, 'auth.scope_mismatch');
      expectError(await foreign('/webhooks/config/rotate-secret', 'POST'), 403, 'auth.scope_mismatch');
      expectError(await foreign('/webhooks/deliveries', 'GET'), 403, 'auth.scope_mismatch');
      // the query's own checks come first: a bad window is a 400 whatever the salon
      expectError(
        await api(h.app, salon.key.secret, 'GET', `/webhooks/deliveries?salonSlug=${other.business.slug}&from=yesterday`),
        400,
        'request.validation_failed',
      );
      // a cursor is read after the scope, as in GET /bookings
      expectError(
        await api(h.app, salon.key.secret, 'GET', `/webhooks/deliveries?salonSlug=${other.business.slug}&cursor=abc`),
        403,
        'auth.scope_mismatch',
      );
      expectError(
        await api(h.app, salon.key.secret, 'GET', `/bookings?salonSlug=${other.business.slug}&cursor=abc`),
        403,
        'auth.scope_mismatch',
      );
      expectError(await config(h, other, 'GET'), 404, 'webhook.not_configured');
    });

    test('idempotent replay of the first PUT returns the same secret; the stored response holds it only encrypted', async () => {
      const salon = await createSalon(h.app);
      const key = { 'idempotency-key': randomUUID() };
      const live = await config(h, salon, 'PUT', { url: 'https://hooks.example.com/x' }, key);
      const secret = okData(live).webhook.signingSecret;
      assert.match(secret, HEX64);
      const replay = await config(h, salon, 'PUT', { url: 'https://hooks.example.com/x' }, key);
      assert.equal(replay.status, 200);
      assert.equal(replay.body.meta.idempotent, true);
      assert.deepEqual(replay.body.data, live.body.data);
      const [record] = await sql(h, 'SELECT response_body FROM idempotency_records WHERE business_id = $1 AND idempotency_key = $2', [
        salon.business.id,
        key['idempotency-key'],
      ]);
      assert.ok(record.response_body.length > 0);
      assert.ok(!record.response_body.includes(secret), 'the idempotency record holds the secret in clear');
      assert.ok(!JSON.parse(record.response_body).data.webhook.signingSecret);
      // another body with the same key
      expectError(await config(h, salon, 'PUT', { url: 'https://hooks.example.com/y' }, key), 409, 'idempotency.payload_mismatch');
      // a later PUT with a new key shows no secret; its replay shows none either
      const key2 = { 'idempotency-key': randomUUID() };
      const later = okData(await config(h, salon, 'PUT', { url: 'https://hooks.example.com/y' }, key2));
      assert.equal(later.webhook.signingSecret, undefined);
      const laterReplay = await config(h, salon, 'PUT', { url: 'https://hooks.example.com/y' }, key2);
      assert.equal(laterReplay.body.meta.idempotent, true);
      assert.equal(laterReplay.body.data.webhook.signingSecret, undefined);

      // rotate: the replay shows the same new secret, stored encrypted
      const key3 = { 'idempotency-key': randomUUID() };
      const rotated = okData(await rotate(h, salon, key3)).webhook.signingSecret;
      const rotatedReplay = await rotate(h, salon, key3);
      assert.equal(rotatedReplay.body.meta.idempotent, true);
      assert.equal(rotatedReplay.body.data.webhook.signingSecret, rotated);
      assert.equal((await target(h, salon))?.secret, rotated);
      const [r3] = await sql(h, 'SELECT response_body FROM idempotency_records WHERE business_id = $1 AND idempotency_key = $2', [
        salon.business.id,
        key3['idempotency-key'],
      ]);
      assert.ok(!r3.response_body.includes(rotated));
    });

    test('concurrent first PUTs: exactly one response shows the secret, and it is the stored one', async () => {
      const salon = await createSalon(h.app);
      const rs = await Promise.all(Array.from({ length: 4 }, (_, i) => config(h, salon, 'PUT', { url: `https://hooks.example.com/${i}` })));
      const secrets = rs.map((r) => okData(r).webhook.signingSecret).filter((s) => s !== undefined);
      assert.equal(secrets.length, 1);
      assert.equal((await target(h, salon))?.secret, secrets[0]);
    });

    test('DELETE ends pending, processing and scheduled deliveries as failed; ended ones stay', async () => {
      const salon = await createSalon(h.app);
      await configure(h, salon);
      const a = await createOk(h, salon); // automatic: requested + confirmed
      const b = await createOk(h, salon, { startTime: '12:00' });
      const rows = await sql(h, 'SELECT delivery_id, status FROM webhook_deliveries WHERE business_id = $1 ORDER BY delivery_id', [
        salon.business.id,
      ]);
      assert.equal(rows.length, 4);
      assert.ok(rows.every((r) => r.status === 'pending'));
      const [d1, d2, d3, d4] = rows.map((r) => r.delivery_id as string);
      const future = new Date(h.clock.now.getTime() + 60_000);
      await sql(h, `UPDATE webhook_deliveries SET status = 'processing', locked_until = $2 WHERE delivery_id = $1`, [d2, future]);
      await sql(
        h,
        `UPDATE webhook_deliveries SET status = 'retry_scheduled', attempt_count = 1, next_attempt_at = $2 WHERE delivery_id = $1`,
        [d3, future],
      );
      await sql(
        h,
        `UPDATE webhook_deliveries SET status = 'succeeded', attempt_count = 1, next_attempt_at = NULL, outcome = 'success', status_code = 200 WHERE delivery_id = $1`,
        [d4],
      );

      okData(await config(h, salon, 'DELETE'));
      const after = await sql(
        h,
        'SELECT delivery_id, status, next_attempt_at, locked_until FROM webhook_deliveries WHERE business_id = $1',
        [salon.business.id],
      );
      const byId = new Map(after.map((r) => [r.delivery_id, r]));
      for (const id of [d1, d2, d3]) {
        assert.equal(byId.get(id)?.status, 'failed', id);
        assert.equal(byId.get(id)?.next_attempt_at, null);
        assert.equal(byId.get(id)?.locked_until, null);
      }
      assert.equal(byId.get(d4)?.status, 'succeeded');
      // no webhook: new events queue nothing
      await api(h.app, salon.key.secret, 'POST', `/bookings/${a.bookingId}/cancel`);
      const count = await sql(h, 'SELECT count(*)::int AS n FROM webhook_deliveries WHERE business_id = $1', [salon.business.id]);
      assert.equal(count[0].n, 4);
      assert.ok(b.bookingId);
    });

    test('the secret never reaches the log', async () => {
      const salon = await createSalon(h.app);
      const secret = await configure(h, salon);
      const rotated = okData(await rotate(h, salon)).webhook.signingSecret;
      assert.ok(logged.length > 0, 'the test logger saw nothing');
      assert.ok(!logged.includes(secret));
      assert.ok(!logged.includes(rotated));
    });
  });

  describe(`webhook configuration with WEBHOOK_ALLOW_PRIVATE_TARGETS [${t.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(t, { webhookAllowPrivateTargets: true });
    });
    after(() => h.close());

    test('http:// and loopback/private targets are allowed; the other rules still hold', async () => {
      const salon = await createSalon(h.app);
      const data = okData(await config(h, salon, 'PUT', { url: 'http://127.0.0.1:1234/' }));
      assert.equal(data.webhook.url, 'http://127.0.0.1:1234/');
      okData(await config(h, salon, 'PUT', { url: 'https://10.0.0.5/hook' }));
      okData(await config(h, salon, 'PUT', { url: 'http://localhost:8080/hook' }));
      for (const [url, rule] of [
        ['ftp://127.0.0.1/', 'scheme'],
        ['http://user:pw@127.0.0.1/', 'credentials'],
        ['https://224.0.0.1/', 'reserved'],
        [`http://127.0.0.1/${'a'.repeat(490)}`, 'length'],
      ] as const) {
        const r = await config(h, salon, 'PUT', { url });
        expectError(r, 422, 'webhook.invalid_url');
        assert.equal(r.body.error.details.rule, rule, url);
      }
    });
  });

  describe(`webhook delivery log [${t.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await bookingHarness(t);
    });
    after(() => h.close());

    /** A salon with a webhook and one booking whose events are the hooks for seeded deliveries. */
    async function seededSalon() {
      const salon = await createSalon(h.app);
      await configure(h, salon);
      const booking = await createOk(h, salon);
      return { salon, booking };
    }

    let nextSequence = 100;
    /** A business event (sequence beyond the booking's own) and its delivery record, as the worker would leave it. */
    async function seed(
      salon: SalonFixture,
      bookingId: string,
      d: {
        event?: string;
        createdAt: Date;
        status: string;
        outcome?: string | null;
        statusCode?: number | null;
        nextAttemptAt?: Date | null;
        attempts?: Array<{ outcome: string; statusCode: number | null; error: string | null; durationMs: number }>;
      },
    ): Promise<string> {
      const deliveryId = randomBytes(16).toString('hex');
      const sequence = nextSequence++;
      const event = d.event ?? 'booking.confirmed';
      await sql(
        h,
        `INSERT INTO booking_events (booking_id, sequence, business_id, event, transition_id, from_status, to_status, occurred_at, delivery_id, payload)
         VALUES ($1, $2, $3, $4, NULL, 'requested', 'confirmed', $5, $6, '{}')`,
        [bookingId, sequence, salon.business.id, event, d.createdAt, deliveryId],
      );
      const attempts = d.attempts ?? [];
      const last = attempts.length > 0 ? new Date(d.createdAt.getTime() + (attempts.length - 1) * 60_000) : null;
      await sql(
        h,
        `INSERT INTO webhook_deliveries (delivery_id, business_id, booking_id, sequence, event, status, attempt_count,
            next_attempt_at, last_attempt_at, outcome, status_code, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        [
          deliveryId,
          salon.business.id,
          bookingId,
          sequence,
          event,
          d.status,
          attempts.length,
          d.nextAttemptAt ?? null,
          last,
          d.outcome ?? null,
          d.statusCode ?? null,
          d.createdAt,
        ],
      );
      for (const [i, a] of attempts.entries()) {
        await sql(
          h,
          `INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, outcome, status_code, error)
           VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [deliveryId, i + 1, new Date(d.createdAt.getTime() + i * 60_000), a.durationMs, a.outcome, a.statusCode, a.error],
        );
      }
      return deliveryId;
    }

    const ago = (ms: number) => new Date(h.clock.now.getTime() - ms);

    test('one record per business event with its attempts; pending shows as processing', async () => {
      const { salon, booking } = await seededSalon();
      // the booking's own events as the events endpoint shows them (before seeding events it cannot render)
      const liveEvents = okData(await api(h.app, salon.key.secret, 'GET', `/bookings/${booking.bookingId}/events`)).events;
      const exhausted = await seed(salon, booking.bookingId, {
        createdAt: ago(3 * 3600_000),
        status: 'exhausted',
        outcome: 'http_error',
        statusCode: 503,
        attempts: [
          { outcome: 'timeout', statusCode: null, error: 'timed out after 8000 ms', durationMs: 8000 },
          { outcome: 'network_error', statusCode: null, error: 'ECONNREFUSED', durationMs: 3 },
          { outcome: 'http_error', statusCode: 503, error: null, durationMs: 42 },
        ],
      });
      const scheduledAt = new Date(h.clock.now.getTime() + 90_000);
      const scheduled = await seed(salon, booking.bookingId, {
        event: 'booking.cancelled',
        createdAt: ago(2 * 3600_000),
        status: 'retry_scheduled',
        outcome: 'http_error',
        statusCode: 500,
        nextAttemptAt: scheduledAt,
        attempts: [{ outcome: 'http_error', statusCode: 500, error: null, durationMs: 12 }],
      });
      const data = okData(await deliveries(h, salon));
      assert.equal(data.deliveries.length, 4);
      // newest first: the booking's two live events (now), then the seeded ones
      const [c1, c2, s, e] = data.deliveries;
      assert.deepEqual([c1.event, c2.event].sort(), ['booking.confirmed', 'booking.requested']);
      for (const live of [c1, c2]) {
        assert.equal(live.status, 'processing');
        assert.equal(live.attemptCount, 0);
        assert.equal(live.outcome, null);
        assert.equal(live.statusCode, null);
        assert.equal(live.lastAttemptAt, null);
        assert.deepEqual(live.attempts, []);
        assert.equal(live.bookingId, booking.bookingId);
        assert.equal(live.createdAt, h.clock.now.toISOString());
      }
      assert.deepEqual(new Set([c1.deliveryId, c2.deliveryId]), new Set(liveEvents.map((x: any) => x.deliveryId)));
      assert.deepEqual([c1, c2].map((d) => d.sequence).sort(), [1, 2]);
      assert.deepEqual(s, {
        deliveryId: scheduled,
        event: 'booking.cancelled',
        bookingId: booking.bookingId,
        sequence: s.sequence,
        status: 'retry_scheduled',
        attemptCount: 1,
        lastAttemptAt: ago(2 * 3600_000).toISOString(),
        nextAttemptAt: scheduledAt.toISOString(),
        outcome: 'http_error',
        statusCode: 500,
        attempts: [
          { attempt: 1, startedAt: ago(2 * 3600_000).toISOString(), durationMs: 12, outcome: 'http_error', statusCode: 500, error: null },
        ],
        createdAt: ago(2 * 3600_000).toISOString(),
      });
      assert.equal(e.deliveryId, exhausted);
      assert.equal(e.status, 'exhausted');
      assert.equal(e.nextAttemptAt, null);
      assert.equal(e.attemptCount, 3);
      assert.deepEqual(
        e.attempts.map((a: any) => [a.attempt, a.outcome, a.statusCode, a.error]),
        [
          [1, 'timeout', null, 'timed out after 8000 ms'],
          [2, 'network_error', null, 'ECONNREFUSED'],
          [3, 'http_error', 503, null],
        ],
      );
      assert.equal(e.outcome, 'http_error');
      assert.equal(e.statusCode, 503);
    });

    test('filters: event and outcome; another business never shows', async () => {
      const { salon, booking } = await seededSalon();
      await seed(salon, booking.bookingId, {
        event: 'booking.cancelled',
        createdAt: ago(3600_000),
        status: 'succeeded',
        outcome: 'success',
        statusCode: 204,
        attempts: [{ outcome: 'success', statusCode: 204, error: null, durationMs: 5 }],
      });
      await seed(salon, booking.bookingId, {
        event: 'booking.cancelled',
        createdAt: ago(7200_000),
        status: 'failed',
        outcome: 'http_error',
        statusCode: 410,
        attempts: [{ outcome: 'http_error', statusCode: 410, error: null, durationMs: 5 }],
      });
      await seed(salon, booking.bookingId, {
        event: 'booking.declined',
        createdAt: ago(9000_000),
        status: 'succeeded',
        outcome: 'success',
        statusCode: 200,
        attempts: [{ outcome: 'success', statusCode: 200, error: null, durationMs: 5 }],
      });
      const other = await seededSalon();

      const cancelled = okData(await deliveries(h, salon, '&event=booking.cancelled')).deliveries;
      assert.deepEqual(
        cancelled.map((d: any) => d.statusCode),
        [204, 410],
      );
      const success = okData(await deliveries(h, salon, '&outcome=success')).deliveries;
      assert.deepEqual(
        success.map((d: any) => d.event),
        ['booking.cancelled', 'booking.declined'],
      );
      const both = okData(await deliveries(h, salon, '&event=booking.cancelled&outcome=http_error')).deliveries;
      assert.deepEqual(
        both.map((d: any) => d.statusCode),
        [410],
      );
      assert.equal(okData(await deliveries(h, salon, '&event=booking.no_show')).deliveries.length, 0);
      const all = okData(await deliveries(h, salon)).deliveries;
      assert.equal(all.length, 5);
      assert.ok(all.every((d: any) => d.bookingId === booking.bookingId));
      assert.ok(!all.some((d: any) => d.bookingId === other.booking.bookingId));
      expectError(await deliveries(h, salon, '&event=booking.nope'), 400, 'request.validation_failed');
      expectError(await deliveries(h, salon, '&outcome=maybe'), 400, 'request.validation_failed');
    });

    test('cursor pagination: newest first, every record once, bound to its filters', async () => {
      const { salon, booking } = await seededSalon();
      // same createdAt for several records: the id breaks the tie
      const same = ago(5 * 60_000);
      for (let i = 0; i < 4; i++)
        await seed(salon, booking.bookingId, { createdAt: same, status: 'succeeded', outcome: 'success', statusCode: 200 });
      for (let i = 0; i < 3; i++)
        await seed(salon, booking.bookingId, {
          createdAt: ago((10 + i) * 60_000),
          status: 'failed',
          outcome: 'http_error',
          statusCode: 400,
        });
      const full = okData(await deliveries(h, salon)).deliveries.map((d: any) => d.deliveryId);
      assert.equal(full.length, 9);

      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const r = await deliveries(h, salon, `&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        const data = okData(r);
        assert.ok(data.deliveries.length <= 2);
        seen.push(...data.deliveries.map((d: any) => d.deliveryId));
        cursor = r.body.meta.cursor;
        pages++;
      } while (cursor && pages < 20);
      assert.equal(pages, 5);
      assert.deepEqual(seen, full);

      const first = await deliveries(h, salon, '&limit=2');
      const c = first.body.meta.cursor as string;
      assert.ok(c);
      expectError(await deliveries(h, salon, `&limit=3&cursor=${encodeURIComponent(c)}`), 400, 'request.invalid_cursor');
      expectError(await deliveries(h, salon, `&limit=2&outcome=success&cursor=${encodeURIComponent(c)}`), 400, 'request.invalid_cursor');
      expectError(
        await deliveries(h, salon, `&limit=2&event=booking.confirmed&cursor=${encodeURIComponent(c)}`),
        400,
        'request.invalid_cursor',
      );
      const tampered = c.slice(0, -2) + (c.endsWith('A') ? 'BB' : 'AA');
      expectError(await deliveries(h, salon, `&limit=2&cursor=${encodeURIComponent(tampered)}`), 400, 'request.invalid_cursor');
      expectError(await deliveries(h, salon, '&limit=2&cursor=garbage'), 400, 'request.invalid_cursor');
      // another business cannot use it
      const other = await seededSalon();
      expectError(await deliveries(h, other.salon, `&limit=2&cursor=${encodeURIComponent(c)}`), 400, 'request.invalid_cursor');
      // a list cursor of GET /bookings is not a delivery cursor
      const bookingsPage = await api(h.app, salon.key.secret, 'GET', `/bookings?salonSlug=${salon.business.slug}&limit=1`);
      await createOk(h, salon, { startTime: '13:00' });
      const bookingsCursor = (await api(h.app, salon.key.secret, 'GET', `/bookings?salonSlug=${salon.business.slug}&limit=1`)).body.meta
        .cursor;
      assert.ok(bookingsPage.status === 200 && bookingsCursor);
      expectError(await deliveries(h, salon, `&limit=2&cursor=${encodeURIComponent(bookingsCursor)}`), 400, 'request.invalid_cursor');
      expectError(await deliveries(h, salon, '&limit=0'), 400, 'request.validation_failed');
      expectError(await deliveries(h, salon, '&limit=101'), 400, 'request.validation_failed');
    });

    test('a cursor keeps the window of its first page while the clock moves', async () => {
      const { salon, booking } = await seededSalon();
      for (let i = 0; i < 3; i++)
        await seed(salon, booking.bookingId, {
          createdAt: ago((89 * 24 + i) * 3600_000),
          status: 'succeeded',
          outcome: 'success',
          statusCode: 200,
        });
      const r1 = await deliveries(h, salon, '&limit=3');
      assert.equal(okData(r1).deliveries.length, 3);
      h.clock.now = new Date(h.clock.now.getTime() + 2 * DAY_MS);
      try {
        const r2 = await deliveries(h, salon, `&limit=3&cursor=${encodeURIComponent(r1.body.meta.cursor)}`);
        assert.equal(okData(r2).deliveries.length, 2);
      } finally {
        h.clock.now = new Date(h.clock.now.getTime() - 2 * DAY_MS);
      }
    });

    test('from/to: at most 90 days, to after from, clear 400s; default is the last 90 days', async () => {
      const { salon, booking } = await seededSalon();
      const old = await seed(salon, booking.bookingId, {
        createdAt: ago(100 * DAY_MS),
        status: 'succeeded',
        outcome: 'success',
        statusCode: 200,
      });
      const mid = await seed(salon, booking.bookingId, {
        createdAt: ago(45 * DAY_MS),
        status: 'succeeded',
        outcome: 'success',
        statusCode: 200,
      });
      const ids = (r: JsonResponse) => okData(r).deliveries.map((d: any) => d.deliveryId);

      // default: the last 90 days
      const recent = ids(await deliveries(h, salon));
      assert.ok(recent.includes(mid));
      assert.ok(!recent.includes(old));

      const iso = (d: Date) => encodeURIComponent(d.toISOString());
      const oldWindow = ids(await deliveries(h, salon, `&from=${iso(ago(120 * DAY_MS))}&to=${iso(ago(30 * DAY_MS))}`));
      assert.deepEqual(oldWindow, [mid, old]);
      // only from: up to now, still at most 90 days
      assert.deepEqual(ids(await deliveries(h, salon, `&from=${iso(ago(50 * DAY_MS))}`)).includes(mid), true);
      // only to: the 90 days before it
      assert.deepEqual(ids(await deliveries(h, salon, `&to=${iso(ago(60 * DAY_MS))}`)), [old]);
      // from inclusive, to exclusive
      const at = ago(100 * DAY_MS);
      assert.deepEqual(ids(await deliveries(h, salon, `&from=${iso(at)}&to=${iso(new Date(at.getTime() + 1))}`)), [old]);
      assert.deepEqual(ids(await deliveries(h, salon, `&from=${iso(new Date(at.getTime() - 1000))}&to=${iso(at)}`)), []);
      // dates: a whole day each way; offsets, including an unencoded + arriving as a space
      const day = at.toISOString().slice(0, 10);
      assert.deepEqual(ids(await deliveries(h, salon, `&from=${day}&to=${day}`)), [old]);
      const plusTwo = `${new Date(at.getTime() + 2 * 3600_000).toISOString().slice(0, 19)}+02:00`;
      assert.deepEqual(ids(await deliveries(h, salon, `&from=${encodeURIComponent(plusTwo)}&to=${day}`)), [old]);
      assert.deepEqual(ids(await deliveries(h, salon, `&from=${plusTwo}&to=${day}`)), [old]);

      const bad = async (query: string, path: string) => {
        const r = await deliveries(h, salon, query);
        expectError(r, 400, 'request.validation_failed');
        assert.equal(r.body.error.details.issues[0].path, path, r.raw);
        return r;
      };
      const wide = await bad(`&from=${iso(ago(91 * DAY_MS))}&to=${iso(ago(0))}`, 'query.to');
      assert.match(wide.body.error.message, /90 days/);
      await bad(`&from=${iso(ago(91 * DAY_MS))}`, 'query.from');
      await bad('&from=2031-01-01&to=2031-04-01', 'query.to'); // 91 days with the whole last day
      okData(await deliveries(h, salon, '&from=2031-01-01&to=2031-03-31')); // exactly 90 days
      await bad(`&from=${iso(ago(DAY_MS))}&to=${iso(ago(2 * DAY_MS))}`, 'query.to');
      await bad(`&from=${iso(ago(DAY_MS))}&to=${iso(ago(DAY_MS))}`, 'query.to');
      await bad('&from=yesterday', 'query.from');
      await bad('&from=2031-02-30', 'query.from');
      await bad('&to=2031-05-01T10:00:00', 'query.to'); // no zone
      await bad('&to=2031-05-01T25:00:00Z', 'query.to');
    });
  });
}
