/**
 * Property tests over the real route table: every operator route and every public GET route gets
 * generated requests (valid-ish from its OpenAPI schema, near-valid mutations, and hostile values)
 * with a valid credential, so they get past authentication into parsing, validation and handlers.
 *
 * For every response: never 5xx; an error is a catalog code with the catalog's status in the
 * envelope, leaking nothing. A rejected write changes no row of the fuzzed businesses
 * (businesses, subscriptions, locations, services, staff, api_keys, ...), and a public GET changes
 * nothing at all.
 *
 * Bounds: at most FUZZ_RUNS (default 150) runs per route, and the whole file within FUZZ_BUDGET_MS
 * (default 36 s) of fuzzing, split evenly over databases and routes (runs past a route's share are
 * skipped), so adding routes or a loaded machine never makes it slow; each route
 * reports how many runs it made and which codes it saw. FUZZ_SEED replays a reported failure.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { dbTargets } from './helpers/databases.ts';
import { dateArb, describeRequest, hostileString, requestArb, sendChecked, slugsIn, snapshot, toInject } from './helpers/fuzz-requests.ts';
import { ADMIN_TOKEN, call, startHarness, type Harness } from './helpers/harness.ts';
import { createBusiness, createKey, type BusinessFixture } from './helpers/fixtures.ts';
import { addMember } from './helpers/members.ts';
import { ensureLocation, FIELD_HINTS, label, minimalRequest, openapiDoc, operatorRoutes, publicRoutes } from './helpers/route-samples.ts';
import type { RouteTableEntry } from '../src/http/context.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
/** Wall-clock budget of the whole file; split evenly over databases and routes. */
const BUDGET_MS = Number(process.env.FUZZ_BUDGET_MS ?? 36_000);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const TARGETS = dbTargets();
const LOCATION = 'main';

/** Gives the business a location, a service and a staff member through the operator routes that exist. */
async function seedCatalog(h: Harness, doc: any, slug: string): Promise<{ serviceId?: string; staffId?: string }> {
  await ensureLocation(h.app, slug, LOCATION);
  const out: { serviceId?: string; staffId?: string } = {};
  for (const [suffix, field] of [
    ['services', 'service'],
    ['staff', 'staff'],
  ] as const) {
    const r = h.app.routeTable.find((x) => x.method === 'POST' && x.url === `/admin/v1/businesses/:slug/${suffix}`);
    if (!r) continue;
    const req = minimalRequest(doc, r, { salonSlug: slug, locationSlug: LOCATION }, { slug });
    const body = suffix === 'staff' && out.serviceId ? { ...(req.body as object), serviceIds: [out.serviceId] } : req.body;
    const res = await call(h.app, {
      method: 'POST',
      url: req.url,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: body as object,
    });
    const id = res.body?.data?.[field]?.id;
    if (typeof id === 'string') out[field === 'service' ? 'serviceId' : 'staffId'] = id;
  }
  return out;
}

for (const target of TARGETS) {
  describe(`fuzz: every operator route and every public GET route [${target.name}]`, () => {
    let h: Harness;
    let doc: any;
    let pub: BusinessFixture;
    let opb: BusinessFixture;
    let keySecret: string;
    let pubPools: Record<string, string[]>;
    let opPools: Record<string, string[]>;
    let ids: string[];

    before(async () => {
      h = await startHarness(target);
      doc = openapiDoc(h.app);
      pub = await createBusiness(h.app, { plan: 'business', status: 'active' });
      opb = await createBusiness(h.app, { plan: 'business', status: 'active' });
      ids = [pub.id, opb.id];
      keySecret = (await createKey(h.app, pub.slug)).secret;
      const pubCatalog = await seedCatalog(h, doc, pub.slug);
      const opCatalog = await seedCatalog(h, doc, opb.slug);
      const personalKey = async (b: BusinessFixture, userId: string) => {
        await addMember(h.db, b.id, userId);
        return createKey(h.app, b.slug, { type: 'personal', userId, capabilities: ['services.read'] });
      };
      const sacrificial = [await createKey(h.app, opb.slug), await personalKey(opb, 'fuzz-user')];
      pubPools = {
        bookingId: ['bkg_00000000000000000000'],
        serviceId: pubCatalog.serviceId ? [pubCatalog.serviceId] : [],
        staffId: pubCatalog.staffId ? [pubCatalog.staffId] : [],
      };
      opPools = {
        slug: [opb.slug],
        locationSlug: [LOCATION],
        serviceId: opCatalog.serviceId ? [opCatalog.serviceId] : [],
        staffId: opCatalog.staffId ? [opCatalog.staffId] : [],
        keyId: sacrificial.map((k) => k.id),
        userId: ['fuzz-user', 'nobody'],
        bookingId: ['bkg_00000000000000000000'],
      };
    });
    after(() => h.close());

    const hintsFor = (salonSlug: string, extra: Record<string, string[]>): Record<string, fc.Arbitrary<unknown>> => {
      const hints: Record<string, fc.Arbitrary<unknown>> = {
        salonSlug: fc.oneof({ weight: 8, arbitrary: fc.constant(salonSlug) }, { weight: 1, arbitrary: hostileString }),
        locationSlug: fc.oneof({ weight: 8, arbitrary: fc.constant(LOCATION) }, { weight: 1, arbitrary: hostileString }),
        from: dateArb,
        to: dateArb,
        date: dateArb,
        cursor: fc.oneof(fc.constant(undefined), hostileString, fc.base64String({ maxLength: 80 })),
      };
      for (const [k, pool] of Object.entries(extra)) if (pool.length > 0) hints[k] = fc.constantFrom(...pool);
      for (const k of ['currency', 'timezone', 'phone', 'email', 'startTime', 'endTime', 'start', 'end'] as const) {
        const v = FIELD_HINTS[k]!({ salonSlug });
        hints[k] = fc.oneof({ weight: 3, arbitrary: fc.constant(v) }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) });
      }
      return hints;
    };

    async function fuzzRoute(
      t: { diagnostic(msg: string): void },
      r: RouteTableEntry,
      authorization: string,
      pools: Record<string, string[]>,
      salonSlug: string,
      routeCount: number,
    ) {
      const arb = requestArb(doc, r, pools, hintsFor(salonSlug, pools));
      const known = new Set([pub.slug, opb.slug]);
      const isRead = r.method === 'GET';
      const start = await snapshot(h, ids, []);
      let before = start;
      // `before` digests the rows of the slugs it was taken with: a run naming other slugs (or none)
      // needs its own, or a business the last run named would look deleted.
      let beforeSlugs = JSON.stringify([]);
      // A time budget per route, checked inside the property: fast-check's own interruptAfterTimeLimit
      // would leave the run in flight, still writing while the next route's runs compare snapshots.
      const deadline = Date.now() + Math.max(400, Math.floor(BUDGET_MS / TARGETS.length / Math.max(1, routeCount)));
      let runs = 0;
      let accepted = 0;
      const codes = new Map<string, number>();
      await fc.assert(
        fc.asyncProperty(arb, async (req) => {
          if (Date.now() > deadline) return;
          runs += 1;
          const slugs = slugsIn(req).filter((s) => !known.has(s));
          const slugKey = JSON.stringify(slugs);
          if (!isRead && slugKey !== beforeSlugs) {
            before = await snapshot(h, ids, slugs);
            beforeSlugs = slugKey;
          }
          const opts = toInject(r, req, authorization);
          const res = await sendChecked(h, r, opts, codes);
          if (isRead) return; // reads are checked once, over the whole run
          const after = await snapshot(h, ids, slugs);
          if (res.status >= 400) {
            assert.equal(after, before, `${label(r)} -> ${res.status}: rows changed by ${describeRequest(opts)}\n${res.raw.slice(0, 300)}`);
          } else {
            accepted += 1;
          }
          before = after;
        }),
        {
          numRuns: RUNS,
          includeErrorInReport: true,
          ...(SEED === undefined ? {} : { seed: SEED }),
        },
      );
      if (isRead) assert.equal(await snapshot(h, ids, []), start, `${label(r)}: a read changed rows`);
      const seen = [...codes].sort((a, b) => b[1] - a[1]).map(([c, n]) => `${c} ${n}`);
      t.diagnostic(`${runs} runs, ${accepted} writes accepted; ${seen.join(', ')}`);
    }

    test('public GET routes (full-capability key)', async (t) => {
      const routes = publicRoutes(h.app).filter((r) => r.method === 'GET');
      assert.ok(routes.length > 0);
      const total = routes.length + operatorRoutes(h.app).length;
      for (const r of routes) {
        await t.test(label(r), async (tt) => {
          await fuzzRoute(tt, r, `Bearer ${keySecret}`, pubPools, pub.slug, total);
        });
      }
    });

    test('operator routes (operator token)', async (t) => {
      const routes = operatorRoutes(h.app);
      assert.ok(routes.length > 0);
      const total = routes.length + publicRoutes(h.app).filter((r) => r.method === 'GET').length;
      for (const r of routes) {
        await t.test(label(r), async (tt) => {
          await fuzzRoute(tt, r, `Bearer ${ADMIN_TOKEN}`, opPools, opb.slug, total);
        });
      }
    });

    test('nothing was polluted', () => {
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
      assert.equal(Object.hasOwn(Object.prototype, 'polluted'), false);
    });
  });
}
