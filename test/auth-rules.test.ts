/**
 * Authentication and access rules on EVERY route of the route table (app.routeTable), in the order
 * decisions.md fixes: route exists, key (401), plan (403), kind (403), capability (403), rate limit
 * (429), Idempotency-Key form (400), body/query schema (400), scope (403), business rules.
 *
 * The routes come from the running app, not from a list here: a route added later is covered by
 * every test below without touching this file.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { generateApiKeySecret } from '../src/domain/api-key-secret.ts';
import { CAPABILITIES, GUEST_PARTNER_CAPABILITIES, type Capability } from '../src/domain/capabilities.ts';
import type { ErrorCode } from '../src/domain/errors.ts';
import { dbTargets } from './helpers/databases.ts';
import { admin, ADMIN_TOKEN, startHarness, type Harness, type JsonResponse } from './helpers/harness.ts';
import { createBusiness, createKey, uniqueSlug, type BusinessFixture, type KeyFixture } from './helpers/fixtures.ts';
import { addMember } from './helpers/members.ts';
import {
  assertErrorEnvelope,
  ensureLocation,
  isWrite,
  label,
  minimalRequest,
  openapiDoc,
  operationOf,
  operatorRoutes,
  paramsOf,
  bodySchemaOf,
  publicRoutes,
  salonSlugPlace,
  send,
  takesLocationSlug,
  type PublicRoute,
  type RouteRequest,
} from './helpers/route-samples.ts';

/** The spec's endpoint table (booking-api-v1.md "Endpoints"); checked for the routes that exist. */
const SPEC_ENDPOINTS: Record<string, { capability: Capability; guestPartner: boolean }> = {
  'GET /v1/services': { capability: 'services.read', guestPartner: true },
  'GET /v1/staff': { capability: 'staff.read', guestPartner: true },
  'POST /v1/availability/search': { capability: 'availability.read', guestPartner: true },
  'POST /v1/bookings': { capability: 'booking.create', guestPartner: true },
  'GET /v1/bookings': { capability: 'booking.read', guestPartner: false },
  'GET /v1/bookings/:bookingId': { capability: 'booking.read', guestPartner: false },
  'GET /v1/bookings/:bookingId/events': { capability: 'booking.read', guestPartner: false },
  'POST /v1/bookings/:bookingId/cancel': { capability: 'booking.cancel', guestPartner: false },
  'GET /v1/subscription': { capability: 'subscription.read', guestPartner: false },
  'GET /v1/webhooks/config': { capability: 'webhook.manage', guestPartner: false },
  'PUT /v1/webhooks/config': { capability: 'webhook.manage', guestPartner: false },
  'DELETE /v1/webhooks/config': { capability: 'webhook.manage', guestPartner: false },
  'POST /v1/webhooks/config/rotate-secret': { capability: 'webhook.manage', guestPartner: false },
  'GET /v1/webhooks/deliveries': { capability: 'webhook.manage', guestPartner: false },
  // added to v1 after the spec (docs/decisions.md "Changes to v1")
  'POST /v1/webhooks/deliveries/:deliveryId/redeliver': { capability: 'webhook.manage', guestPartner: false },
  // v1.4.0, guest-side.md "Holds": guest-facing, so guest_partner keys may call both
  'POST /v1/holds': { capability: 'booking.create', guestPartner: true },
  'DELETE /v1/holds/:holdId': { capability: 'booking.create', guestPartner: true },
  // v1.4.0, salon-scheduling.md "Explain": availability.read, guest_partner keys too
  'POST /v1/availability/explain': { capability: 'availability.read', guestPartner: true },
};

/** Codes that mean "stopped before the route's own logic by key, plan, kind or capability". */
const ACCESS_DENIALS: readonly string[] = [
  'auth.invalid_key',
  'auth.plan_insufficient',
  'auth.kind_endpoint_denied',
  'auth.insufficient_capability',
];

const LOCATION = 'main';

/** Idempotency-Key values that are not an RFC 4122 UUID of version 1 to 5. */
const BAD_IDEMPOTENCY_KEYS: Record<string, string> = {
  'not a uuid': 'not-a-uuid',
  'v0 (nil)': '00000000-0000-0000-0000-000000000000',
  v0: 'a0eebc99-9c0b-0ef8-bb6d-6bb9bd380a11',
  v6: '1ec9414c-232a-6b00-b3c8-9e6bdeced846',
  v7: '017f22e2-79b0-7cc3-98c4-dc0c0c07398f',
  v8: '320c3d4d-cc00-875b-8ec9-32d5f69181c0',
  'v4 with a non-RFC variant': '9b2f3c1e-4d5a-4b6c-c7d8-e9f0a1b2c3d4',
  'v4 without dashes': '9b2f3c1e4d5a4b6c87d8e9f0a1b2c3d4',
  'v4 in braces': '{9b2f3c1e-4d5a-4b6c-87d8-e9f0a1b2c3d4}',
  'v4 with trailing garbage': '9b2f3c1e-4d5a-4b6c-87d8-e9f0a1b2c3d4x',
};
const GOOD_IDEMPOTENCY_KEYS: Record<string, string> = {
  v1: 'c232ab00-9414-11ec-b3c8-9e6bdeced846',
  v3: '5df41881-3aed-3515-88a7-2f4a814cf09e',
  v4: '9b2f3c1e-4d5a-4b6c-87d8-e9f0a1b2c3d4',
  'v4 upper case': '9B2F3C1E-4D5A-4B6C-A7D8-E9F0A1B2C3D4',
  v5: '2ed6657d-e927-568b-95e1-2665a8aea6a2',
};

function errorCode(res: JsonResponse): string | undefined {
  return res.body?.error?.code;
}

/** The request got past key, plan, kind and capability (whatever it did next). */
function assertPassesAccess(res: JsonResponse, context: string): void {
  const code = errorCode(res);
  assert.ok(
    res.status < 500 && (code === undefined || !ACCESS_DENIALS.includes(code)),
    `${context}: expected to pass the access checks, got ${res.status} ${res.raw.slice(0, 300)}`,
  );
  if (res.status >= 400) assertErrorEnvelope(res, undefined, context);
}

function expectError(res: JsonResponse, code: ErrorCode, context: string): void {
  assertErrorEnvelope(res, code, context);
}

/**
 * A request that fails the route's schema (checked with a full key by the caller): an array for a
 * body; otherwise required query parameters left out, or an over-long / wrong-typed value.
 */
function invalidRequest(doc: any, r: PublicRoute, valid: RouteRequest): { req: RouteRequest; body?: unknown } | undefined {
  const op = operationOf(doc, r);
  if (bodySchemaOf(doc, op)) return { req: valid, body: [{ not: 'an object' }] };
  const query = paramsOf(doc, op, 'query');
  const path = valid.url.split('?')[0]!;
  if (query.some((p) => p.required)) {
    const kept = new URLSearchParams();
    for (const [k, v] of Object.entries(valid.query)) if (!query.find((p) => p.name === k)?.required) kept.set(k, v);
    const qs = kept.toString();
    return { req: { ...valid, url: qs ? `${path}?${qs}` : path } };
  }
  const p = query[0];
  if (!p) return undefined;
  const s = p.schema ?? {};
  let bad = '';
  if (Array.isArray(s.enum)) bad = 'not-in-the-enum';
  else if (s.type === 'integer' || s.type === 'number') bad = 'not-a-number';
  else if (typeof s.maxLength === 'number') bad = 'x'.repeat(s.maxLength + 1);
  else if (typeof s.minLength === 'number' && s.minLength > 0) bad = '';
  else return undefined;
  return { req: { ...valid, url: `${path}?${new URLSearchParams({ [p.name]: bad })}` } };
}

for (const target of dbTargets()) {
  describe(`auth rules on every public route [${target.name}]`, () => {
    let h: Harness;
    let doc: any;
    let routes: PublicRoute[];
    let biz: BusinessFixture;
    let other: BusinessFixture;
    let fullKey: KeyFixture;
    let locationsReady = false;

    const requestFor = (r: PublicRoute, salonSlug = biz.slug) =>
      minimalRequest(doc, r, { salonSlug, ...(locationsReady ? { locationSlug: LOCATION } : {}) });

    before(async () => {
      h = await startHarness(target);
      doc = openapiDoc(h.app);
      routes = publicRoutes(h.app);
      biz = await createBusiness(h.app);
      other = await createBusiness(h.app);
      fullKey = await createKey(h.app, biz.slug);
      locationsReady = (await ensureLocation(h.app, biz.slug, LOCATION)) && (await ensureLocation(h.app, other.slug, LOCATION));
    });
    after(() => h.close());

    test('the route table lists the public routes with their access config', () => {
      assert.ok(routes.length > 0, 'no public routes found');
      assert.ok(routes.some((r) => label(r) === 'GET /v1/subscription'));
      for (const r of routes) {
        assert.ok((CAPABILITIES as readonly string[]).includes(r.access.capability), `${label(r)} capability`);
        assert.ok(r.url.startsWith('/v1/'), `${label(r)} is under /v1`);
        const spec = SPEC_ENDPOINTS[label(r)];
        if (spec) {
          assert.equal(r.access.capability, spec.capability, `${label(r)}: capability of the spec's endpoint table`);
          assert.equal(r.access.guestPartner === true, spec.guestPartner, `${label(r)}: guest-partner endpoint`);
        } else {
          assert.notEqual(r.access.guestPartner, true, `${label(r)}: only the spec's guest endpoints are guest routes`);
        }
        if (r.access.guestPartner) {
          assert.ok(GUEST_PARTNER_CAPABILITIES.includes(r.access.capability), `${label(r)}: a guest key may hold its capability`);
        }
        if (isWrite(r)) assert.notEqual(r.method, 'GET', `${label(r)}: a GET is never an idempotent write`);
        if (label(r) === 'POST /v1/bookings' || label(r) === 'POST /v1/bookings/:bookingId/cancel') {
          assert.ok(isWrite(r), `${label(r)} requires an Idempotency-Key`);
        }
      }
    });

    test('every public route generates a schema-valid request', () => {
      for (const r of routes) {
        const req = requestFor(r);
        assert.deepEqual(req.problems, [], `${label(r)}: add a FIELD_HINTS entry in test/helpers/route-samples.ts`);
      }
    });

    test('a full-capability owner key on an active pro plan passes the access checks', async (t) => {
      for (const r of routes) {
        await t.test(label(r), async () => {
          assertPassesAccess(await send(h.app, r, requestFor(r), { token: fullKey.secret }), label(r));
        });
      }
    });

    test('401 auth.invalid_key: no, malformed or unknown key (before anything else)', async (t) => {
      const unknown = generateApiKeySecret().secret;
      const flipped = fullKey.secret.slice(0, -1) + (fullKey.secret.endsWith('A') ? 'B' : 'A');
      const variants: Record<string, string | undefined> = {
        'no Authorization header': undefined,
        'empty header': '',
        'Bearer without token': 'Bearer',
        'Bearer and spaces': 'Bearer    ',
        'garbage token': 'Bearer garbage',
        'Basic scheme with the key': `Basic ${fullKey.secret}`,
        'Token scheme with the key': `Token ${fullKey.secret}`,
        'key with a wrong checksum': `Bearer ${flipped}`,
        'key truncated': `Bearer ${fullKey.secret.slice(0, -3)}`,
        'key with a suffix': `Bearer ${fullKey.secret}x`,
        'two tokens': `Bearer ${fullKey.secret} ${fullKey.secret}`,
        'well-formed unknown key': `Bearer ${unknown}`,
        'operator token as API key': `Bearer ${ADMIN_TOKEN}`,
      };
      for (const r of routes) {
        await t.test(label(r), async () => {
          const req = requestFor(r);
          for (const [name, authorization] of Object.entries(variants)) {
            const o = authorization === undefined ? {} : { authorization };
            expectError(await send(h.app, r, req, o), 'auth.invalid_key', `${label(r)} ${name}`);
            // ... also with an invalid body, an invalid query and no Idempotency-Key
            const bad = await send(
              h.app,
              r,
              { ...req, url: `${req.url}${req.url.includes('?') ? '&' : '?'}salonSlug=` },
              {
                ...o,
                idempotencyKey: null,
                ...(req.hasBody ? { body: [1, 2, 3] } : {}),
              },
            );
            expectError(bad, 'auth.invalid_key', `${label(r)} ${name}, invalid request`);
          }
        });
      }
    });

    test('401 auth.invalid_key: an expired key', async () => {
      const key = await createKey(h.app, biz.slug, { expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
      for (const r of routes) assertPassesAccess(await send(h.app, r, requestFor(r), { token: key.secret }), `${label(r)} before expiry`);
      await h.db.query(`UPDATE api_keys SET expires_at = now() - interval '1 minute' WHERE id = $1`, [key.id]);
      for (const r of routes)
        expectError(await send(h.app, r, requestFor(r), { token: key.secret }), 'auth.invalid_key', `${label(r)} expired`);
    });

    test('401 auth.invalid_key: a revoked key, from the very next request', async () => {
      const key = await createKey(h.app, biz.slug);
      const keep = await createKey(h.app, biz.slug);
      const first = routes[0]!;
      assertPassesAccess(await send(h.app, first, requestFor(first), { token: key.secret }), 'before revocation');
      const rev = await admin(h.app, 'DELETE', `/api-keys/${key.id}`);
      assert.equal(rev.status, 200, rev.raw);
      assert.equal(typeof rev.body.data.apiKey.revokedAt, 'string');
      for (const r of routes) {
        expectError(await send(h.app, r, requestFor(r), { token: key.secret }), 'auth.invalid_key', `${label(r)} revoked`);
        // another key of the same business is untouched
        assertPassesAccess(await send(h.app, r, requestFor(r), { token: keep.secret }), `${label(r)} other key`);
      }
      // revoking again is harmless and the key stays revoked
      assert.equal((await admin(h.app, 'DELETE', `/api-keys/${key.id}`)).status, 200);
      expectError(await send(h.app, first, requestFor(first), { token: key.secret }), 'auth.invalid_key', 'revoked twice');
    });

    test('401 auth.invalid_key: a personal key whose member was removed', async () => {
      const userId = uniqueSlug('user');
      const otherUser = uniqueSlug('user');
      // owners: a personal key acts only with what its holder's role allows, and these call every route
      await addMember(h.db, biz.id, userId, 'owner');
      await addMember(h.db, biz.id, otherUser, 'owner');
      const personal = await createKey(h.app, biz.slug, { type: 'personal', userId });
      const personal2 = await createKey(h.app, biz.slug, { type: 'personal', userId });
      const stays = await createKey(h.app, biz.slug, { type: 'personal', userId: otherUser });
      const integration = await createKey(h.app, biz.slug);
      const first = routes[0]!;
      assertPassesAccess(await send(h.app, first, requestFor(first), { token: personal.secret }), 'member present');
      const rm = await admin(h.app, 'DELETE', `/businesses/${biz.slug}/members/${encodeURIComponent(userId)}`);
      assert.equal(rm.status, 200, rm.raw);
      assert.equal(rm.body.data.member.revokedKeys, 2);
      for (const r of routes) {
        for (const k of [personal, personal2]) {
          expectError(await send(h.app, r, requestFor(r), { token: k.secret }), 'auth.invalid_key', `${label(r)} member removed`);
        }
        assertPassesAccess(await send(h.app, r, requestFor(r), { token: stays.secret }), `${label(r)} other member's key`);
        assertPassesAccess(await send(h.app, r, requestFor(r), { token: integration.secret }), `${label(r)} integration key`);
      }
    });

    test('403 auth.plan_insufficient: starter plan, non-API statuses, apiAccess override off', async (t) => {
      const denied: Array<Record<string, unknown>> = [
        { plan: 'starter', status: 'active' },
        { plan: 'starter', status: 'trialing' },
        { plan: 'starter', status: 'past_due' },
        { plan: null, status: 'setup' },
        { plan: 'pro', status: 'canceled' },
        { plan: 'pro', status: 'unpaid' },
        { plan: 'pro', status: 'paused' },
        { plan: 'business', status: 'canceled' },
        { plan: 'business', status: 'unpaid' },
        { plan: 'business', status: 'paused' },
        { plan: 'pro', status: 'active', features: { apiAccess: false } },
        { plan: 'business', status: 'trialing', features: { apiAccess: false } },
      ];
      const allowed: Array<Record<string, unknown>> = [
        { plan: 'pro', status: 'active' },
        { plan: 'pro', status: 'trialing' },
        { plan: 'pro', status: 'past_due' },
        { plan: 'business', status: 'active' },
        { plan: 'business', status: 'trialing' },
        { plan: 'business', status: 'past_due' },
      ];
      for (const sub of [...denied, ...allowed]) {
        const name = JSON.stringify(sub);
        await t.test(name, async () => {
          const b = await createBusiness(h.app, sub);
          const key = await createKey(h.app, b.slug);
          const guest = await createKey(h.app, b.slug, { kind: 'guest_partner', capabilities: [...GUEST_PARTNER_CAPABILITIES] });
          const weak = await createKey(h.app, b.slug, { capabilities: ['staff.read'] });
          for (const r of routes) {
            const req = requestFor(r, b.slug);
            const res = await send(h.app, r, req, { token: key.secret });
            if (denied.includes(sub)) {
              expectError(res, 'auth.plan_insufficient', `${label(r)} ${name}`);
              // plan comes before kind and before capability
              expectError(await send(h.app, r, req, { token: guest.secret }), 'auth.plan_insufficient', `${label(r)} ${name} guest key`);
              expectError(await send(h.app, r, req, { token: weak.secret }), 'auth.plan_insufficient', `${label(r)} ${name} weak key`);
            } else {
              assertPassesAccess(res, `${label(r)} ${name}`);
            }
          }
        });
      }
    });

    test('plan changes take effect on the next request', async () => {
      const b = await createBusiness(h.app, { plan: 'pro', status: 'active' });
      const key = await createKey(h.app, b.slug);
      const r = routes[0]!;
      assertPassesAccess(await send(h.app, r, requestFor(r, b.slug), { token: key.secret }), 'active');
      assert.equal((await admin(h.app, 'PATCH', `/businesses/${b.slug}/subscription`, { status: 'unpaid' })).status, 200);
      expectError(await send(h.app, r, requestFor(r, b.slug), { token: key.secret }), 'auth.plan_insufficient', 'unpaid');
      assert.equal((await admin(h.app, 'PATCH', `/businesses/${b.slug}/subscription`, { plan: 'starter', status: 'active' })).status, 200);
      expectError(await send(h.app, r, requestFor(r, b.slug), { token: key.secret }), 'auth.plan_insufficient', 'starter');
      assert.equal((await admin(h.app, 'PATCH', `/businesses/${b.slug}/subscription`, { plan: 'business' })).status, 200);
      assertPassesAccess(await send(h.app, r, requestFor(r, b.slug), { token: key.secret }), 'business');
    });

    test('key before plan: an expired or revoked key on a starter plan is 401, not 403', async () => {
      const b = await createBusiness(h.app, { plan: 'starter', status: 'active' });
      const revoked = await createKey(h.app, b.slug);
      const expired = await createKey(h.app, b.slug, { expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
      assert.equal((await admin(h.app, 'DELETE', `/api-keys/${revoked.id}`)).status, 200);
      await h.db.query(`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1`, [expired.id]);
      for (const r of routes) {
        for (const k of [revoked, expired]) {
          expectError(await send(h.app, r, requestFor(r, b.slug), { token: k.secret }), 'auth.invalid_key', `${label(r)} starter`);
        }
      }
    });

    test('403 auth.kind_endpoint_denied: a guest_partner key on every non-guest route', async (t) => {
      const guest = await createKey(h.app, biz.slug, { kind: 'guest_partner', capabilities: [...GUEST_PARTNER_CAPABILITIES] });
      const narrowGuest = await createKey(h.app, biz.slug, { kind: 'guest_partner', capabilities: ['services.read'] });
      for (const r of routes) {
        await t.test(label(r), async () => {
          const req = requestFor(r);
          if (r.access.guestPartner) {
            assertPassesAccess(await send(h.app, r, req, { token: guest.secret }), `${label(r)} guest route`);
            if (r.access.capability !== 'services.read') {
              const res = await send(h.app, r, req, { token: narrowGuest.secret });
              expectError(res, 'auth.insufficient_capability', `${label(r)} narrow guest key`);
            }
          } else {
            expectError(await send(h.app, r, req, { token: guest.secret }), 'auth.kind_endpoint_denied', label(r));
            // kind before capability: the narrow key lacks the capability too, the kind still decides
            expectError(await send(h.app, r, req, { token: narrowGuest.secret }), 'auth.kind_endpoint_denied', `${label(r)} narrow`);
            // ... and before the Idempotency-Key and the body
            const res = await send(h.app, r, req, { token: guest.secret, idempotencyKey: null, ...(req.hasBody ? { body: [] } : {}) });
            expectError(res, 'auth.kind_endpoint_denied', `${label(r)} without Idempotency-Key, bad body`);
          }
        });
      }
    });

    test('400: a guest_partner key cannot be created with a non-guest capability', async () => {
      const b = await createBusiness(h.app);
      const count = async () =>
        (await h.db.query<{ n: number }>('SELECT count(*)::int AS n FROM api_keys WHERE business_id = $1', [b.id])).rows[0]!.n;
      const before = await count();
      for (const cap of CAPABILITIES.filter((c) => !GUEST_PARTNER_CAPABILITIES.includes(c))) {
        for (const caps of [[cap], ['services.read', cap]]) {
          const res = await admin(h.app, 'POST', `/businesses/${b.slug}/api-keys`, {
            name: 'guest',
            type: 'integration',
            kind: 'guest_partner',
            capabilities: caps,
          });
          expectError(res, 'request.validation_failed', `guest key with ${caps.join(',')}`);
          assert.ok(Array.isArray(res.body.error.details?.issues), 'details.issues');
        }
      }
      assert.equal(await count(), before, 'no key was created');
      const okRes = await admin(h.app, 'POST', `/businesses/${b.slug}/api-keys`, {
        name: 'guest',
        type: 'integration',
        kind: 'guest_partner',
        capabilities: [...GUEST_PARTNER_CAPABILITIES],
      });
      assert.equal(okRes.status, 200, okRes.raw);
      assert.equal(await count(), before + 1);
    });

    test('403 auth.insufficient_capability with details.required and details.granted', async (t) => {
      for (const r of routes) {
        await t.test(label(r), async () => {
          const granted = CAPABILITIES.filter((c) => c !== r.access.capability);
          const key = await createKey(h.app, biz.slug, { capabilities: granted });
          const req = requestFor(r);
          const res = await send(h.app, r, req, { token: key.secret });
          expectError(res, 'auth.insufficient_capability', label(r));
          const details = res.body.error.details;
          assert.ok(Array.isArray(details?.required) && details.required.includes(r.access.capability), 'details.required');
          assert.ok(Array.isArray(details?.granted), 'details.granted');
          assert.deepEqual([...details.granted].sort(), [...granted].sort(), 'details.granted is what the key holds');

          // a key holding only that capability passes
          const only = await createKey(h.app, biz.slug, { capabilities: [r.access.capability] });
          assertPassesAccess(await send(h.app, r, req, { token: only.secret }), `${label(r)} only its capability`);

          // capability before the Idempotency-Key
          if (isWrite(r)) {
            const noKey = await send(h.app, r, req, { token: key.secret, idempotencyKey: null });
            expectError(noKey, 'auth.insufficient_capability', `${label(r)} without Idempotency-Key`);
            const badKey = await send(h.app, r, req, { token: key.secret, idempotencyKey: 'nope' });
            expectError(badKey, 'auth.insufficient_capability', `${label(r)} bad Idempotency-Key`);
          }

          // capability before validation: the same invalid request is a 400 for a key that has it
          const invalid = invalidRequest(doc, r, req);
          if (invalid) {
            const o = 'body' in invalid ? { body: invalid.body } : {};
            const full = await send(h.app, r, invalid.req, { token: fullKey.secret, ...o });
            expectError(full, 'request.validation_failed', `${label(r)} invalid request, full key`);
            const weak = await send(h.app, r, invalid.req, { token: key.secret, ...o });
            expectError(weak, 'auth.insufficient_capability', `${label(r)} invalid request, key without the capability`);
          }
        });
      }
    });

    const writes = () => routes.filter(isWrite);

    test('400 idempotency.key_required / key_invalid on every write, before the body', async (t) => {
      if (writes().length === 0) {
        t.skip('no public write route (idempotentOperation) is registered yet');
        return;
      }
      for (const r of writes()) {
        await t.test(label(r), async () => {
          const req = requestFor(r);
          const badBody = req.hasBody ? { body: { unexpected: ['x'], salonSlug: 42 } } : {};
          for (const [o, name] of [
            [{}, 'valid body'],
            [badBody, 'invalid body'],
          ] as const) {
            expectError(
              await send(h.app, r, req, { token: fullKey.secret, idempotencyKey: null, ...o }),
              'idempotency.key_required',
              `${label(r)} missing, ${name}`,
            );
            for (const [kind, value] of Object.entries(BAD_IDEMPOTENCY_KEYS)) {
              expectError(
                await send(h.app, r, req, { token: fullKey.secret, idempotencyKey: value, ...o }),
                'idempotency.key_invalid',
                `${label(r)} ${kind}, ${name}`,
              );
            }
          }
          const blank = await send(h.app, r, req, { token: fullKey.secret, idempotencyKey: '' });
          assert.ok(
            ['idempotency.key_required', 'idempotency.key_invalid'].includes(errorCode(blank) ?? ''),
            `${label(r)} blank Idempotency-Key -> ${blank.raw}`,
          );
          assertErrorEnvelope(blank, undefined, `${label(r)} blank`);
          if (req.hasBody) {
            for (const [kind, value] of Object.entries(GOOD_IDEMPOTENCY_KEYS)) {
              const res = await send(h.app, r, req, { token: fullKey.secret, idempotencyKey: value, body: [] });
              expectError(res, 'request.validation_failed', `${label(r)} ${kind} key passes, then the body fails`);
            }
          }
        });
      }
    });

    test('GET routes never ask for an Idempotency-Key', async () => {
      for (const r of routes.filter((x) => x.method === 'GET')) {
        const res = await send(h.app, r, requestFor(r), { token: fullKey.secret, headers: { 'idempotency-key': 'garbage' } });
        assertPassesAccess(res, label(r));
        assert.ok(!String(errorCode(res)).startsWith('idempotency.'), `${label(r)} -> ${res.raw}`);
      }
    });

    test('403 auth.scope_mismatch (never 404) for the salonSlug of another business', async (t) => {
      const scoped = routes.filter((r) => salonSlugPlace(doc, r) !== undefined);
      if (scoped.length === 0) {
        t.skip('no route takes salonSlug');
        return;
      }
      for (const r of scoped) {
        await t.test(label(r), async () => {
          const own = await send(h.app, r, requestFor(r), { token: fullKey.secret });
          t.diagnostic(`${label(r)}: own salon -> ${own.status} ${errorCode(own) ?? ''}`);
          assert.notEqual(errorCode(own), 'request.validation_failed', `${label(r)}: the generated request must be valid: ${own.raw}`);
          if (locationsReady || !takesLocationSlug(doc, r)) {
            assert.notEqual(errorCode(own), 'auth.scope_mismatch', `${label(r)} own salon: ${own.raw}`);
          }
          for (const slug of [other.slug, `no-such-salon-${Date.now()}`]) {
            const res = await send(h.app, r, requestFor(r, slug), { token: fullKey.secret });
            expectError(res, 'auth.scope_mismatch', `${label(r)} salonSlug=${slug}`);
          }
          // the other business's own key sees the same shape of request as in scope
          const otherKey = await createKey(h.app, other.slug);
          const mirrored = await send(h.app, r, requestFor(r, other.slug), { token: otherKey.secret });
          if (locationsReady || !takesLocationSlug(doc, r))
            assert.notEqual(errorCode(mirrored), 'auth.scope_mismatch', `${label(r)} other business's own key: ${mirrored.raw}`);
        });
      }
    });

    test('every error response is a catalog error in the envelope', async () => {
      // covered by expectError/assertPassesAccess above; here once more with a caller-chosen request id
      const r = routes[0]!;
      const res = await send(h.app, r, requestFor(r), { headers: { 'x-request-id': 'client-trace-0001' } });
      expectError(res, 'auth.invalid_key', 'with X-Request-Id');
      assert.equal(res.body.meta.requestId, 'client-trace-0001');
      const junk = await send(h.app, r, requestFor(r), { headers: { 'x-request-id': 'bad id with spaces' } });
      expectError(junk, 'auth.invalid_key', 'with an unusable X-Request-Id');
      assert.notEqual(junk.body.meta.requestId, 'bad id with spaces');
    });
  });

  describe(`operator API token [${target.name}]`, () => {
    let h: Harness;
    let doc: any;
    let bizSlug: string;
    before(async () => {
      h = await startHarness(target);
      doc = openapiDoc(h.app);
      bizSlug = (await createBusiness(h.app)).slug;
    });
    after(() => h.close());

    test('401 auth.invalid_key without the right token on every operator route', async (t) => {
      const routes = operatorRoutes(h.app);
      assert.ok(routes.length >= 5, 'operator routes found');
      const variants: Record<string, string | undefined> = {
        'no header': undefined,
        empty: '',
        'Bearer only': 'Bearer',
        'wrong token': 'Bearer wrong-token-0123456789',
        'token with a suffix': `Bearer ${ADMIN_TOKEN}x`,
        'token truncated': `Bearer ${ADMIN_TOKEN.slice(0, -1)}`,
        'Basic scheme': `Basic ${ADMIN_TOKEN}`,
        'raw token': ADMIN_TOKEN,
        'an API key': `Bearer ${generateApiKeySecret().secret}`,
      };
      for (const r of routes) {
        await t.test(label(r), async () => {
          const req = minimalRequest(doc, r, { salonSlug: bizSlug, locationSlug: LOCATION });
          for (const [name, authorization] of Object.entries(variants)) {
            const o = authorization === undefined ? {} : { authorization };
            expectError(await send(h.app, r, req, o), 'auth.invalid_key', `${label(r)} ${name}`);
            if (req.hasBody) {
              expectError(await send(h.app, r, req, { ...o, body: [] }), 'auth.invalid_key', `${label(r)} ${name}, bad body`);
            }
          }
          const res = await send(h.app, r, req, { authorization: `bearer ${ADMIN_TOKEN}` });
          assert.notEqual(res.status, 401, `${label(r)} right token: ${res.raw}`);
          assert.ok(res.status < 500, `${label(r)} right token: ${res.raw}`);
        });
      }
    });
  });

  describe(`operator API without ADMIN_TOKEN [${target.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(target, { adminToken: undefined });
    });
    after(() => h.close());

    test('every operator route answers 401 auth.invalid_key', async () => {
      const doc = openapiDoc(h.app);
      const routes = operatorRoutes(h.app);
      assert.ok(routes.length >= 5);
      const absent = uniqueSlug('absent');
      for (const r of routes) {
        const req = minimalRequest(doc, r, { salonSlug: absent, locationSlug: LOCATION });
        for (const authorization of [undefined, `Bearer ${ADMIN_TOKEN}`, 'Bearer ', 'Bearer undefined']) {
          const res = await send(h.app, r, req, authorization === undefined ? {} : { authorization });
          expectError(res, 'auth.invalid_key', `${label(r)} ${authorization}`);
        }
      }
      const count = await h.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM businesses WHERE slug = $1`, [absent]);
      assert.equal(count.rows[0]!.n, 0);
    });
  });
}
