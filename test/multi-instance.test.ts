/**
 * Several instances behave as one service (issue 6, item 3): two API processes (WEBHOOK_WORKER=false)
 * and two webhook worker processes on one PostgreSQL and one Redis, started as real processes on
 * 127.0.0.1. Shared rate limits, one booking per slot, revocation seen at once by the
 * other process, each webhook attempt sent once. Runs when DATABASE_URL and REDIS_URL are set.
 * Bounded in time; every process it starts is stopped in `after`, whatever happened.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { CAPABILITIES } from '../src/domain/capabilities.ts';
import { MIGRATIONS } from '../src/store/migrations/index.ts';
import { PostgresDb } from '../src/store/postgres-db.ts';
import { startApi, startWorker, type ServiceProcess } from './helpers/api-process.ts';
import { openScratchPostgres } from './helpers/isolated-databases.ts';
import { uniqueSlug } from './helpers/fixtures.ts';
import { sleep, waitFor } from './helpers/processes.ts';

const DATABASE_URL = process.env.DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;
const ADMIN = `multi-instance-admin-${randomUUID()}`;

interface Res {
  status: number;
  headers: Headers;
  body: any;
}

async function http(
  base: string,
  method: string,
  path: string,
  token: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Res> {
  const h: Record<string, string> = { authorization: `Bearer ${token}`, ...headers };
  if (body !== undefined) h['content-type'] = 'application/json';
  const r = await fetch(`${base}${path}`, {
    method,
    headers: h,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await r.text();
  return { status: r.status, headers: r.headers, body: text ? JSON.parse(text) : undefined };
}

async function adminOk(base: string, method: string, path: string, body?: unknown): Promise<any> {
  const r = await http(base, method, `/admin/v1${path}`, ADMIN, body);
  assert.ok(r.status < 300, `${method} ${path} -> ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data;
}

/** The UTC date `n` days from today: far enough for the 60-minute notice, inside the horizon. */
function dateIn(n: number): string {
  return new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
}

const SUITE = 'two API processes and two workers on one PostgreSQL and Redis';
// A skipped describe() is not counted in the runner's "skipped" total; a skipped test is.
if (!(DATABASE_URL && REDIS_URL)) test(SUITE, { skip: 'needs DATABASE_URL and REDIS_URL' }, () => {});
else
  describe(SUITE, { timeout: 240_000 }, () => {
    const procs: ServiceProcess[] = [];
    let a: string;
    let b: string;
    let receiver: Server | undefined;
    // A database of its own: the workers claim every due delivery of their database, and must never
    // send other test files' deliveries.
    let scratch: Awaited<ReturnType<typeof openScratchPostgres>> | undefined;

    const env = () => ({
      DATABASE_URL: scratch!.url,
      REDIS_URL: REDIS_URL!,
      ADMIN_TOKEN: ADMIN,
      WEBHOOK_WORKER: 'false',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_RETRY_DELAYS: '50ms-100ms,50ms-100ms',
      WEBHOOK_TIMEOUT_MS: '2000',
      DB_POOL_MAX: '10',
      // A loaded test machine must not fail open (and so not count) while Redis is up.
      RATE_LIMIT_TIMEOUT_MS: '1000',
    });

    before(async () => {
      scratch = await openScratchPostgres(DATABASE_URL!);
      // Started together: migrations at start run under an advisory lock, so this is safe.
      const [pa, pb] = await Promise.all([startApi('api-a', env()), startApi('api-b', env())]);
      procs.push(pa, pb);
      a = pa.url!;
      b = pb.url!;
    });

    after(async () => {
      await Promise.all(procs.map((p) => p.stop()));
      await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
      await scratch?.close();
    });

    async function salon(opts: { tier?: string } = {}) {
      const slug = uniqueSlug('multi');
      await adminOk(a, 'POST', '/businesses', {
        slug,
        name: `Salon ${slug}`,
        currency: 'HUF',
        subscription: { plan: 'pro', status: 'active' },
      });
      const loc = (
        await adminOk(a, 'POST', `/businesses/${slug}/locations`, {
          slug: 'main',
          name: 'Main',
          timezone: 'Europe/Budapest',
          address: { city: 'Budapest', street: 'Fő utca 1.', zip: '1011' },
        })
      ).location;
      const service = (
        await adminOk(b, 'POST', `/businesses/${slug}/services`, {
          locationSlug: loc.slug,
          name: 'Haircut',
          durationMinutes: 30,
          priceType: 'fixed',
          price: { amount: 5000, currency: 'HUF' },
          requestAcceptancePolicy: 'automatic',
        })
      ).service;
      const workingHours = [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, start: '09:00', end: '17:00' }));
      const staff = (
        await adminOk(a, 'POST', `/businesses/${slug}/staff`, {
          locationSlug: loc.slug,
          name: 'Anna',
          serviceIds: [service.id],
          workingHours,
        })
      ).staff;
      const key = (
        await adminOk(b, 'POST', `/businesses/${slug}/api-keys`, {
          name: 'multi',
          type: 'integration',
          kind: 'owner',
          capabilities: [...CAPABILITIES],
          ...(opts.tier ? { tier: opts.tier } : {}),
        })
      ).apiKey;
      return { slug, location: loc.slug, service, staff, key: key.secret as string, keyId: key.id as string };
    }

    function bookingBody(s: Awaited<ReturnType<typeof salon>>, date: string, startTime: string) {
      return {
        salonSlug: s.slug,
        locationSlug: s.location,
        serviceId: s.service.id,
        expectedPricingVersion: s.service.pricingVersion,
        staffId: s.staff.id,
        slot: { date, startTime },
        guest: { name: 'Kiss Éva', phone: '+36 30 123 4567' },
        consent: {
          privacyNoticeVersion: 'pn-1',
          termsVersion: 'tos-1',
          locale: 'hu-HU',
          acceptedAt: new Date().toISOString(),
          policyConsentGiven: true,
        },
      };
    }

    test('rate limits are counted across both processes', async () => {
      const s = await salon();
      const n = 70; // the subscription group allows 60 per minute for a standard key
      const rs = await Promise.all(Array.from({ length: n }, (_, i) => http(i % 2 ? a : b, 'GET', '/v1/subscription', s.key)));
      const ok = rs.filter((r) => r.status === 200);
      const limited = rs.filter((r) => r.status === 429);
      assert.equal(ok.length, 60, rs.map((r) => r.status).join(','));
      assert.equal(limited.length, 10);
      for (const r of limited) {
        assert.equal(r.body.error.code, 'rate_limit.exceeded');
        const retryAfter = Number(r.headers.get('retry-after'));
        assert.ok(retryAfter >= 1 && retryAfter <= 60);
        assert.equal(r.body.error.details.retryAfterSeconds, retryAfter);
      }
      // One counter, not one per process (35 each would all have passed): both refuse now.
      for (const base of [a, b]) assert.equal((await http(base, 'GET', '/v1/subscription', s.key)).status, 429);
      for (const r of ok) assert.equal(r.headers.get('ratelimit-policy'), '"subscription";q=60;w=60');
    });

    test('concurrent creates for one slot through both processes: exactly one booking', async () => {
      const s = await salon({ tier: 'elevated' });
      const body = bookingBody(s, dateIn(3), '10:00');
      const rs = await Promise.all(
        Array.from({ length: 12 }, (_, i) => http(i % 2 ? a : b, 'POST', '/v1/bookings', s.key, body, { 'idempotency-key': randomUUID() })),
      );
      const created = rs.filter((r) => r.status === 201);
      assert.equal(created.length, 1, rs.map((r) => `${r.status} ${r.body?.error?.code ?? ''}`).join(', '));
      for (const r of rs.filter((x) => x.status !== 201)) {
        assert.equal(r.status, 409);
        assert.ok(['booking.slot_unavailable', 'booking.slot_no_longer_available'].includes(r.body.error.code), r.body.error.code);
      }
      const list = await http(b, 'GET', `/v1/bookings?salonSlug=${s.slug}`, s.key);
      assert.equal(list.status, 200);
      assert.equal(list.body.data.bookings.length, 1);
    });

    test('one Idempotency-Key raced through both processes: one booking, the rest replays or 503', async () => {
      const s = await salon({ tier: 'elevated' });
      const body = bookingBody(s, dateIn(4), '11:00');
      const key = randomUUID();
      const rs = await Promise.all(
        Array.from({ length: 10 }, (_, i) => http(i % 2 ? a : b, 'POST', '/v1/bookings', s.key, body, { 'idempotency-key': key })),
      );
      const ids = new Set(rs.filter((r) => r.status === 201).map((r) => r.body.data.booking.bookingId));
      assert.equal(ids.size, 1);
      for (const r of rs)
        assert.ok(r.status === 201 || (r.status === 503 && r.body.error.code === 'idempotency.request_in_progress'), `${r.status}`);
    });

    test('a key revoked through one process is refused by the other on its next request', async () => {
      const s = await salon();
      assert.equal((await http(b, 'GET', '/v1/subscription', s.key)).status, 200);
      await adminOk(a, 'DELETE', `/api-keys/${s.keyId}`);
      const r = await http(b, 'GET', '/v1/subscription', s.key);
      assert.equal(r.status, 401);
      assert.equal(r.body.error.code, 'auth.invalid_key');
      assert.equal((await http(a, 'GET', '/v1/subscription', s.key)).status, 401);
    });

    test('two processes started together on an empty database migrate it once', async () => {
      // An empty schema of the test database stands in for a fresh database: search_path puts every
      // table the migrations create there (public stays on the path for the btree_gist extension).
      const schema = `mig_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
      const admin = PostgresDb.open(scratch!.url, 2);
      await admin.query(`CREATE SCHEMA ${schema}`);
      const url = new URL(scratch!.url);
      url.searchParams.set('options', `-c search_path=${schema},public`);
      const fresh: ServiceProcess[] = [];
      try {
        const started = await Promise.allSettled(
          ['fresh-1', 'fresh-2'].map((name) => startApi(name, { ...env(), DATABASE_URL: url.toString() })),
        );
        for (const r of started) if (r.status === 'fulfilled') fresh.push(r.value);
        for (const r of started) assert.equal(r.status, 'fulfilled', r.status === 'rejected' ? String(r.reason) : '');
        const applied = await admin.query<{ name: string; n: number }>(
          `SELECT name, count(*)::int AS n FROM ${schema}.schema_migrations GROUP BY name ORDER BY name`,
        );
        assert.deepEqual(
          applied.rows.map((r) => [r.name, r.n]),
          MIGRATIONS.map((m) => [m.name, 1]),
        );
        for (const p of fresh) {
          const ready = await fetch(`${p.url}/readyz`, { signal: AbortSignal.timeout(5000) });
          assert.equal(ready.status, 200);
        }
      } finally {
        await Promise.all(fresh.map((p) => p.stop()));
        await admin.query(`DROP SCHEMA ${schema} CASCADE`);
        await admin.close();
      }
    });

    test('metrics are per process and each process serves its own', async () => {
      for (const base of [a, b]) {
        const r = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${ADMIN}` }, signal: AbortSignal.timeout(5000) });
        assert.equal(r.status, 200);
        assert.match(await r.text(), /http_requests_total\{route="\/v1\/subscription",method="GET",status="200"\}/);
      }
    });

    test('each webhook attempt is sent once with two worker processes', async () => {
      // A local receiver that fails every first attempt (503, retried) and accepts every second one,
      // so each delivery must arrive exactly twice: attempt 1 and attempt 2, each once.
      const seen: string[] = [];
      receiver = createServer((req: IncomingMessage, res) => {
        let raw = '';
        req.on('data', (c) => (raw += c));
        req.on('end', () => {
          let deliveryId = 'unparsable';
          try {
            deliveryId = JSON.parse(raw).deliveryId;
          } catch {
            /* counted as unparsable */
          }
          const attempt = String(req.headers['x-service-attempt']);
          seen.push(`${deliveryId}#${attempt}`);
          res.writeHead(attempt === '1' ? 503 : 200).end();
        });
      });
      await new Promise<void>((resolve) => receiver!.listen(0, '127.0.0.1', () => resolve()));
      const port = (receiver.address() as { port: number }).port;
      procs.push(startWorker('worker-1', env()), startWorker('worker-2', env()));

      const s = await salon({ tier: 'elevated' });
      const put = await http(
        a,
        'PUT',
        `/v1/webhooks/config?salonSlug=${s.slug}`,
        s.key,
        { url: `http://127.0.0.1:${port}/hook` },
        { 'idempotency-key': randomUUID() },
      );
      assert.equal(put.status, 200, JSON.stringify(put.body));
      // Five automatic bookings through both processes: two events each (requested, confirmed).
      for (let i = 0; i < 5; i++) {
        const r = await http(i % 2 ? a : b, 'POST', '/v1/bookings', s.key, bookingBody(s, dateIn(5), `${10 + i}:00`), {
          'idempotency-key': randomUUID(),
        });
        assert.equal(r.status, 201, JSON.stringify(r.body));
      }
      await waitFor('20 webhook attempts', async () => seen.length >= 20, 90_000, 100);
      await sleep(2000); // a duplicate would arrive within this time
      assert.equal(seen.length, 20, `attempts: ${seen.join(', ')}`);
      assert.equal(new Set(seen).size, 20, 'no attempt sent twice');
      const deliveries = new Set(seen.map((x) => x.split('#')[0]));
      assert.equal(deliveries.size, 10);
      for (const d of deliveries) assert.deepEqual(seen.filter((x) => x.startsWith(`${d}#`)).sort(), [`${d}#1`, `${d}#2`]);
    });
  });
