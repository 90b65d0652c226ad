/**
 * A personal API key never outlives its holder's authority (issue 23; members-and-sessions.md "Keys a
 * member issues"): it acts with what it holds that the holder's current role allows, from the very
 * next request after a role change on every instance, and it cannot be issued beyond that role.
 * Two instances on one PostgreSQL and Redis when DATABASE_URL and REDIS_URL are set (the key cached
 * on the other instance first); and one process on each database (PGlite: with its key cache).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { hashSecret } from '../src/domain/api-key-secret.ts';
import { CAPABILITIES } from '../src/domain/capabilities.ts';
import type { App } from '../src/http/context.ts';
import type { Db } from '../src/store/db.ts';
import { dbTargets } from './helpers/databases.ts';
import { admin, adminOk, startHarness, type Harness } from './helpers/harness.ts';
import { api, createBusiness, createKey, createSalon, uniqueSlug, type SalonFixture } from './helpers/fixtures.ts';
import { addMember } from './helpers/members.ts';
import { useTwoInstances } from './helpers/two-instances.ts';

const DATABASE_URL = process.env.DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;

interface World {
  /** the instance the role changes are made on */
  a: App;
  /** the other instance, whose key cache is warm */
  b: App;
  db: Db;
}

const OWNER_ONLY = ['webhook.manage', 'subscription.read'];

function publicCalls(s: SalonFixture) {
  const q = `salonSlug=${s.business.slug}`;
  return {
    putWebhook: (app: App, key: string, url: string) => api(app, key, 'PUT', `/webhooks/config?${q}`, { url }),
    getWebhook: (app: App, key: string) => api(app, key, 'GET', `/webhooks/config?${q}`),
    rotate: (app: App, key: string) => api(app, key, 'POST', `/webhooks/config/rotate-secret?${q}`),
    subscription: (app: App, key: string) => api(app, key, 'GET', '/subscription'),
    bookings: (app: App, key: string) => api(app, key, 'GET', `/bookings?${q}`),
    services: (app: App, key: string) => api(app, key, 'GET', `/services?${q}&locationSlug=${s.location.slug}`),
  };
}

function expectDenied(r: { status: number; raw: string; body: any }, required: string, label: string): void {
  assert.equal(r.status, 403, `${label}: ${r.raw}`);
  assert.equal(r.body.error.code, 'auth.insufficient_capability', label);
  assert.deepEqual(r.body.error.details.required, [required], label);
  // what the key may do now: what it holds, less what the role does not allow
  assert.deepEqual(
    r.body.error.details.granted,
    CAPABILITIES.filter((c) => !OWNER_ONLY.includes(c)),
    label,
  );
}

function authority(world: () => World): void {
  test('a demoted owner’s personal key loses the owner-only capabilities on the very next request on every instance; promoted back, it has them again', async () => {
    const { a, b, db } = world();
    const s = await createSalon(a);
    const holder = uniqueSlug('user');
    await addMember(db, s.business.id, holder, 'owner');
    // a second owner, so the holder may be demoted (member.last_owner otherwise)
    await addMember(db, s.business.id, uniqueSlug('user'), 'owner');
    const key = (await createKey(a, s.business.slug, { type: 'personal', userId: holder })).secret;
    const call = publicCalls(s);

    const put = await call.putWebhook(a, key, 'https://hooks.example.com/owner');
    assert.equal(put.status, 200, put.raw);
    // b reads with the key until it is in b's memory: a stale entry would now answer the calls below
    for (let i = 0; i < 2; i++) {
      assert.equal((await call.getWebhook(b, key)).status, 200);
      assert.equal((await call.subscription(b, key)).status, 200);
      assert.equal((await call.bookings(b, key)).status, 200);
    }
    // (PostgreSQL without Redis caches nothing: mode off)
    if (b.ctx.caches.mode !== 'off') assert.ok(b.ctx.caches.cachedKey(hashSecret(key)), 'the key is cached on b');

    for (const role of ['manager', 'frontDesk']) {
      const patch = await admin(a, 'PATCH', `/businesses/${s.business.slug}/members/${encodeURIComponent(holder)}`, { role });
      assert.equal(patch.status, 200, patch.raw);
      for (const [name, app] of [
        ['b', b],
        ['a', a],
      ] as const) {
        const label = `${role} on ${name}`;
        expectDenied(await call.putWebhook(app, key, 'https://hooks.example.com/demoted'), 'webhook.manage', `${label} PUT webhook`);
        expectDenied(await call.rotate(app, key), 'webhook.manage', `${label} rotate`);
        expectDenied(await call.getWebhook(app, key), 'webhook.manage', `${label} GET webhook`);
        expectDenied(await call.subscription(app, key), 'subscription.read', `${label} GET subscription`);
        const bookings = await call.bookings(app, key);
        assert.equal(bookings.status, 200, `${label} bookings: ${bookings.raw}`);
        assert.equal((await call.services(app, key)).status, 200, `${label} services`);
      }
    }
    // nothing the demoted key tried reached the webhook
    const kept = await call.getWebhook(a, s.key.secret);
    assert.equal(kept.body.data.webhook.url, 'https://hooks.example.com/owner', kept.raw);

    await adminOk(a, 'PATCH', `/businesses/${s.business.slug}/members/${encodeURIComponent(holder)}`, { role: 'owner' });
    const again = await call.rotate(b, key);
    assert.equal(again.status, 200, again.raw);
    assert.equal((await call.subscription(b, key)).status, 200);
  });

  test('an integration key and an owner’s personal key keep their capabilities when other members’ roles change', async () => {
    const { a, b, db } = world();
    const s = await createSalon(a);
    const owner = uniqueSlug('user');
    const other = uniqueSlug('user');
    await addMember(db, s.business.id, owner, 'owner');
    await addMember(db, s.business.id, other, 'owner');
    const personal = (await createKey(a, s.business.slug, { type: 'personal', userId: owner })).secret;
    const call = publicCalls(s);
    await adminOk(a, 'PATCH', `/businesses/${s.business.slug}/members/${encodeURIComponent(other)}`, { role: 'frontDesk' });
    for (const k of [personal, s.key.secret]) {
      assert.equal((await call.putWebhook(b, k, 'https://hooks.example.com/kept')).status, 200);
      assert.equal((await call.subscription(b, k)).status, 200);
    }
  });
}

function creation(world: () => World): void {
  test('a personal key beyond its holder’s role is refused (400 on body.capabilities) and nothing is stored; within it, issued', async () => {
    const { a, db } = world();
    const biz = await createBusiness(a);
    const manager = uniqueSlug('user');
    const frontDesk = uniqueSlug('user');
    const owner = uniqueSlug('user');
    await addMember(db, biz.id, manager, 'manager');
    await addMember(db, biz.id, frontDesk, 'frontDesk');
    await addMember(db, biz.id, owner, 'owner');
    const post = (userId: string, capabilities: readonly string[]) =>
      admin(a, 'POST', `/businesses/${biz.slug}/api-keys`, { name: 'phone', type: 'personal', kind: 'owner', capabilities, userId });
    const keys = async () => (await adminOk(a, 'GET', `/businesses/${biz.slug}/api-keys`)).apiKeys;

    const refused: Array<[string, string[], string]> = [
      [manager, ['booking.read', 'webhook.manage'], 'webhook.manage'],
      [frontDesk, ['subscription.read'], 'subscription.read'],
      [manager, [...CAPABILITIES], 'webhook.manage, subscription.read'],
    ];
    for (const [userId, capabilities, named] of refused) {
      const r = await post(userId, capabilities);
      assert.equal(r.status, 400, r.raw);
      assert.equal(r.body.error.code, 'request.validation_failed');
      assert.deepEqual(
        r.body.error.details.issues.map((i: any) => i.path),
        ['body.capabilities'],
      );
      assert.ok(r.body.error.details.issues[0].message.includes(named), r.raw);
    }
    assert.deepEqual(await keys(), []);

    const within = CAPABILITIES.filter((c) => !OWNER_ONLY.includes(c));
    for (const [userId, capabilities] of [
      [manager, within],
      [frontDesk, within],
      [owner, [...CAPABILITIES]],
    ] as const) {
      const r = await post(userId, capabilities);
      assert.equal(r.status, 200, r.raw);
      assert.deepEqual(r.body.data.apiKey.capabilities, capabilities);
    }
    // an integration key is nobody's: any capability, as before
    const integration = await admin(a, 'POST', `/businesses/${biz.slug}/api-keys`, {
      name: 'site',
      type: 'integration',
      kind: 'owner',
      capabilities: [...CAPABILITIES],
    });
    assert.equal(integration.status, 200, integration.raw);
  });
}

const PG_SUITE = 'personal key authority across two instances on one PostgreSQL and Redis';
if (!(DATABASE_URL && REDIS_URL)) test(PG_SUITE, { skip: 'needs DATABASE_URL and REDIS_URL' }, () => {});
else
  describe(PG_SUITE, { timeout: 120_000 }, () => {
    const two = useTwoInstances(DATABASE_URL, REDIS_URL, 'keyauth');
    authority(two);
    creation(two);

    test('a creation racing a demotion is decided on the role the demotion commits (the membership is share-locked)', async () => {
      const w = two();
      const biz = await createBusiness(w.a);
      const holder = uniqueSlug('user');
      await addMember(w.db, biz.id, holder, 'owner');
      await addMember(w.db, biz.id, uniqueSlug('user'), 'owner');
      let creating: Promise<{ status: number; raw: string; body: any }> | undefined;
      // The demotion holds the membership row until it commits; the creation, started meanwhile on
      // the other instance, must wait for it and then see the new role.
      await w.db.transaction(async (tx) => {
        await tx.query(`UPDATE memberships SET role = 'manager' WHERE business_id = $1 AND user_id = $2`, [biz.id, holder]);
        creating = admin(w.b, 'POST', `/businesses/${biz.slug}/api-keys`, {
          name: 'phone',
          type: 'personal',
          kind: 'owner',
          capabilities: ['webhook.manage'],
          userId: holder,
        });
        await new Promise((res) => setTimeout(res, 300));
      });
      const r = await creating!;
      assert.equal(r.status, 400, r.raw);
      assert.equal(r.body.error.details.issues[0].path, 'body.capabilities');
    });
  });

for (const target of dbTargets()) {
  describe(`personal key authority in one process [${target.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(target);
      if (target.name === 'pglite') assert.equal(h.app.ctx.caches.mode, 'local');
    });
    after(() => h.close());
    authority(() => ({ a: h.app, b: h.app, db: h.db }));
    creation(() => ({ a: h.app, b: h.app, db: h.db }));
  });
}
