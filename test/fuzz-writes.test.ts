/**
 * Property tests over every public write of the route table (every public route but GETs: POST
 * /bookings, cancel, and the webhook configuration writes once they exist): generated
 * bodies, queries, headers and paths — valid (real ids, free slots, fresh Idempotency-Keys),
 * near-valid and hostile (huge numbers, unicode, deep nesting, prototype-pollution keys, wrong
 * types, 1 MB strings, method-override and forwarded headers, odd path suffixes) — sent with a
 * valid full-capability key (eight elevated keys in turn, so rate limits leave room to reach the
 * handlers; a 429 is still a well-formed answer).
 *
 * For every response: never 5xx; an error is a catalog code with the catalog's status, in the
 * envelope. A rejected write changes no row of the business (catalogue, keys, subscription and
 * quota, bookings, events, webhook configuration and deliveries). Idempotency records are left out
 * of the comparison on purpose: a refused request's answer is stored under its key so that a retry
 * gets the same answer (spec rule 11), which is bookkeeping, not business data.
 *
 * Bounds like test/fuzz.test.ts: at most FUZZ_RUNS (150) runs per route, the whole file within
 * FUZZ_WRITES_BUDGET_MS (24 s) split over databases and routes. FUZZ_SEED replays a failure.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { dbTargets } from './helpers/databases.ts';
import { api, createKey, createSalon, type SalonFixture } from './helpers/fixtures.ts';
import {
  describeRequest,
  hostileString,
  requestArb,
  sendChecked,
  shortHostileString,
  slugsIn,
  snapshot,
  toInject,
  type FuzzRequest,
} from './helpers/fuzz-requests.ts';
import { startHarness, type Harness } from './helpers/harness.ts';
import { label, openapiDoc, publicRoutes } from './helpers/route-samples.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const BUDGET_MS = Number(process.env.FUZZ_WRITES_BUDGET_MS ?? 24_000);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const TARGETS = dbTargets();

const TZ_DATE = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Budapest', year: 'numeric', month: '2-digit', day: '2-digit' });
/** Budapest local date n days from today: inside the booking horizon, past the minimum notice. */
const localDate = (n: number) => TZ_DATE.format(new Date(Date.now() + n * 86_400_000));
/** 09:00 to 16:30 on the 15-minute grid: inside createSalon's working hours. */
const GRID = Array.from(
  { length: 31 },
  (_, i) => `${String(9 + Math.floor(i / 4)).padStart(2, '0')}:${String((i % 4) * 15).padStart(2, '0')}`,
);

/** Odd endings of the path: encoded dots and slashes, matrix parameters, trailing slashes. */
const PATH_SUFFIXES = ['', '/', '//', '/.', '/%2e%2e', '%2F..%2Fadmin', ';x=1', '/%00', '/..%2f..%2fhealthz'];

/** The rows a write may change, for one business: the catalogue digest plus its bookings and webhooks. */
async function writeSnapshot(h: Harness, businessId: string, slugs: string[]): Promise<string> {
  const r = await h.db.query<Record<string, string>>(
    `SELECT
       (SELECT count(*) || ':' || md5(coalesce(string_agg(x::text, '|' ORDER BY x.id), '')) FROM bookings x WHERE x.business_id = $1) AS bookings,
       (SELECT count(*) || ':' || md5(coalesce(string_agg(x::text, '|' ORDER BY x.booking_id, x.sequence), '')) FROM booking_events x
         WHERE x.business_id = $1) AS events,
       (SELECT count(*) || ':' || md5(coalesce(string_agg(x::text, '|' ORDER BY x.business_id), '')) FROM webhook_configs x
         WHERE x.business_id = $1) AS webhook_configs,
       (SELECT count(*) || ':' || md5(coalesce(string_agg(x::text, '|' ORDER BY x.delivery_id), '')) FROM webhook_deliveries x
         WHERE x.business_id = $1) AS webhook_deliveries`,
    [businessId],
  );
  return `${await snapshot(h, [businessId], slugs)} ${JSON.stringify(r.rows[0])}`;
}

function withPathSuffix(o: InjectOptions, suffix: string): InjectOptions {
  if (suffix === '') return o;
  const url = String(o.url);
  const q = url.indexOf('?');
  return { ...o, url: q < 0 ? url + suffix : url.slice(0, q) + suffix + url.slice(q) };
}

for (const target of TARGETS) {
  describe(`fuzz: every public write [${target.name}]`, () => {
    let h: Harness;
    let doc: any;
    let salon: SalonFixture;
    let pools: Record<string, string[]>;
    /** elevated keys taken in turn, so the per-key rate limits leave the runs room to reach the handlers */
    let keys: string[];

    before(async () => {
      h = await startHarness(target);
      doc = openapiDoc(h.app);
      salon = await createSalon(h.app, { subscription: { plan: 'business', status: 'active' } });
      // bookings to cancel: real ids in the pool next to a well-formed unknown one
      const bookingIds: string[] = [];
      for (let i = 0; i < 4; i++) {
        const r = await api(h.app, salon.key.secret, 'POST', '/bookings', {
          salonSlug: salon.business.slug,
          locationSlug: salon.location.slug,
          serviceId: salon.service.id,
          staffId: salon.staff[i % 2]!.id,
          slot: { date: localDate(2 + i), startTime: '09:00' },
          guest: { name: 'Fuzz Guest', phone: '+36301112233' },
          consent: {
            privacyNoticeVersion: 'p1',
            termsVersion: 't1',
            locale: 'hu-HU',
            acceptedAt: new Date().toISOString(),
            policyConsentGiven: true,
          },
        });
        assert.equal(r.status, 201, r.raw);
        bookingIds.push(r.body.data.booking.bookingId);
      }
      keys = [];
      for (let i = 0; i < 8; i++) keys.push((await createKey(h.app, salon.business.slug, { tier: 'elevated' })).secret);
      pools = {
        bookingId: [...bookingIds, 'bkg_00000000000000000000'],
        serviceId: [salon.service.id, salon.manualService.id],
        staffId: salon.staff.map((s) => s.id),
        expectedPricingVersion: [salon.service.pricingVersion, salon.manualService.pricingVersion],
      };
    });
    after(() => h.close());

    function hints(): Record<string, fc.Arbitrary<unknown>> {
      const rare = <T>(a: fc.Arbitrary<T>) => fc.oneof({ weight: 9, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: a });
      const mostly = <T>(v: fc.Arbitrary<T>) => fc.oneof({ weight: 8, arbitrary: v }, { weight: 1, arbitrary: hostileString });
      const h: Record<string, fc.Arbitrary<unknown>> = {
        salonSlug: mostly(fc.constant(salon.business.slug)),
        locationSlug: mostly(fc.constant(salon.location.slug)),
        slot: fc.record({ date: fc.integer({ min: 1, max: 12 }).map(localDate), startTime: fc.constantFrom(...GRID) }),
        date: fc.integer({ min: -2, max: 12 }).map(localDate),
        from: fc.integer({ min: -2, max: 12 }).map(localDate),
        to: fc.integer({ min: 10, max: 50 }).map(localDate),
        startTime: fc.constantFrom(...GRID),
        name: mostly(fc.constantFrom('Kiss Éva', "O'Brien", '李雷')),
        phone: mostly(fc.constantFrom('+36301234567', '06 30 123 4567', '301234567')),
        email: fc.oneof(fc.constant(undefined), fc.constantFrom('guest@example.com', 'not-an-email', 'A@B.HU')),
        policyConsentGiven: fc.oneof({ weight: 8, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
        sessionId: rare(shortHostileString),
        slotToken: rare(shortHostileString),
        // A holdId binds a create to a hold; a made-up one is rare, or no create would ever pass.
        holdId: rare(shortHostileString),
        // A visit (or serviceIds) instead of serviceId is an alternative, not an addition: rare, or
        // almost every create would name both and be refused before the rules behind validation.
        visit: rare(
          fc.array(fc.record({ serviceId: fc.constantFrom(salon.service.id, salon.manualService.id) }), { minLength: 2, maxLength: 4 }),
        ),
        serviceIds: rare(fc.array(fc.constantFrom(salon.service.id, salon.manualService.id), { minLength: 2, maxLength: 4 })),
        serviceLocation: rare(fc.record({ address: fc.string({ minLength: 1, maxLength: 20 }) })),
        depositTermsAcceptance: rare(
          fc.record({ termsVersion: fc.string({ maxLength: 5 }), acceptedAt: fc.constant(new Date().toISOString()) }),
        ),
        url: mostly(
          fc.constantFrom('https://hooks.example.com/booking', 'http://127.0.0.1/x', 'https://user:pw@example.com/', 'https://10.0.0.1/'),
        ),
      };
      for (const [k, pool] of Object.entries(pools)) h[k] = mostly(fc.constantFrom(...pool));
      return h;
    }

    test('public writes', async (t) => {
      const routes = publicRoutes(h.app).filter((r) => r.method !== 'GET');
      assert.ok(
        routes.some((r) => r.url === '/v1/bookings'),
        'POST /v1/bookings is a public write',
      );
      assert.ok(
        routes.some((r) => r.url === '/v1/bookings/:bookingId/cancel'),
        'cancel is a public write',
      );
      for (const r of routes) {
        await t.test(label(r), async (tt) => {
          const arb = fc.tuple(
            requestArb(doc, r, pools, hints(), { idempotencyKey: fc.uuid({ version: 4 }), hostileHeaders: true }),
            fc.oneof({ weight: 6, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constantFrom(...PATH_SUFFIXES) }),
          );
          // a configured webhook, so rotate and delete reach their handlers whatever ran before
          if (r.url.startsWith('/v1/webhooks')) {
            await api(h.app, keys[0], 'PUT', `/webhooks/config?salonSlug=${salon.business.slug}`, {
              url: 'https://hooks.example.com/fuzz',
            });
          }
          const deadline =
            Date.now() + (r.url === '/v1/bookings' ? 2 : 1) * Math.max(500, Math.floor(BUDGET_MS / TARGETS.length / routes.length));
          let before = await writeSnapshot(h, salon.business.id, []);
          // `before` covers the slugs it was taken with; a run naming others (or none) takes its own
          let beforeSlugs = JSON.stringify([]);
          let runs = 0;
          let accepted = 0;
          const codes = new Map<string, number>();
          await fc.assert(
            fc.asyncProperty(arb, async ([req, suffix]: [FuzzRequest, string]) => {
              if (Date.now() > deadline) return;
              runs += 1;
              const slugs = slugsIn(req).filter((s) => s !== salon.business.slug);
              if (JSON.stringify(slugs) !== beforeSlugs) {
                before = await writeSnapshot(h, salon.business.id, slugs);
                beforeSlugs = JSON.stringify(slugs);
              }
              const opts = withPathSuffix(toInject(r, req, `Bearer ${keys[runs % keys.length]}`), suffix);
              const res = await sendChecked(h, r, opts, codes);
              const afterSnap = await writeSnapshot(h, salon.business.id, slugs);
              if (res.status >= 400) {
                assert.equal(
                  afterSnap,
                  before,
                  `${label(r)} -> ${res.status}: rows changed by ${describeRequest(opts)}\n${res.raw.slice(0, 300)}`,
                );
              } else accepted += 1;
              before = afterSnap;
            }),
            // creates get twice the runs: a valid one is a few in a hundred (each field may be hostile)
            {
              numRuns: r.url === '/v1/bookings' ? 2 * RUNS : RUNS,
              includeErrorInReport: true,
              ...(SEED === undefined ? {} : { seed: SEED }),
            },
          );
          const seen = [...codes].sort((a, b) => b[1] - a[1]).map(([c, n]) => `${c} ${n}`);
          tt.diagnostic(`${runs} runs, ${accepted} writes accepted; ${seen.join(', ')}`);
          // The generator reaches the handler: valid creates get through (a generator that only ever
          // produced 400s would prove nothing about the rules behind validation).
          if (r.url === '/v1/bookings' && runs >= 20) assert.ok(accepted > 0, `no create accepted in ${runs} runs: ${seen.join(', ')}`);
        });
      }
    });

    test('nothing was polluted', () => {
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
      assert.equal(Object.hasOwn(Object.prototype, 'polluted'), false);
    });
  });
}
