/**
 * Resources (salon-scheduling.md "Resources"), the catalogue part: the operator's create, list and
 * patch of a location's resources, who may write them, a service's `resourceIds`, and that both
 * bump the business's version (what the cached catalogue and availability answers are read under).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dbTargets } from './helpers/databases.ts';
import { admin, adminOk, startHarness, type Harness } from './helpers/harness.ts';
import { api, createLocation, createSalon, createService, type SalonFixture } from './helpers/fixtures.ts';
import { asMember, memberCookie } from './helpers/members.ts';

type Res = { status: number; body: any; raw: string };

function assertError(r: Res, status: number, code: string, path?: string): void {
  assert.equal(r.status, status, r.raw);
  assert.equal(r.body.ok, false);
  assert.equal(r.body.error.code, code);
  if (path !== undefined) {
    assert.ok(
      r.body.error.details.issues.some((i: { path: string }) => i.path === path),
      `expected an issue at ${path}: ${r.raw}`,
    );
  }
}

for (const target of dbTargets()) {
  describe(`resources [${target.name}]`, () => {
    let h: Harness;
    let salon: SalonFixture;
    let slug: string;
    before(async () => {
      h = await startHarness(target);
      salon = await createSalon(h.app);
      slug = salon.business.slug;
    });
    after(() => h.close());

    const create = (body: unknown, businessSlug = slug) => admin(h.app, 'POST', `/businesses/${businessSlug}/resources`, body);
    const newResource = async (name: string, quantity = 1, locationSlug = salon.location.slug) => {
      const r = await create({ locationSlug, name, quantity });
      assert.equal(r.status, 201, r.raw);
      return r.body.data.resource as { id: string; locationSlug: string; name: string; quantity: number; active: boolean };
    };
    const version = async (businessId: string) =>
      Number(
        (await h.db.query<{ version: string }>('SELECT version FROM business_versions WHERE business_id = $1', [businessId])).rows[0]!
          .version,
      );

    test('create answers 201 with the resource; the list shows it, by name, and filters by location', async () => {
      const r = await create({ locationSlug: salon.location.slug, name: 'Wash basin', quantity: 2 });
      assert.equal(r.status, 201, r.raw);
      const basin = r.body.data.resource;
      assert.match(basin.id, /^res_[0-9a-z]{20}$/);
      assert.deepEqual(basin, { id: basin.id, locationSlug: salon.location.slug, name: 'Wash basin', quantity: 2, active: true });

      const chair = await newResource('Chair', 5);
      const elsewhere = await createLocation(h.app, slug);
      const far = await newResource('Aardvark chair', 1, elsewhere.slug);

      const all = await adminOk(h.app, 'GET', `/businesses/${slug}/resources`);
      const names = all.resources.map((x: { name: string }) => x.name);
      assert.deepEqual(
        names.filter((n: string) => ['Aardvark chair', 'Chair', 'Wash basin'].includes(n)),
        ['Aardvark chair', 'Chair', 'Wash basin'],
      );
      const here = await adminOk(h.app, 'GET', `/businesses/${slug}/resources?locationSlug=${salon.location.slug}`);
      const hereIds = here.resources.map((x: { id: string }) => x.id);
      assert.ok(hereIds.includes(chair.id) && hereIds.includes(basin.id));
      assert.ok(!hereIds.includes(far.id));
      const there = await adminOk(h.app, 'GET', `/businesses/${slug}/resources?locationSlug=${elsewhere.slug}`);
      assert.deepEqual(there.resources, [far]);

      assertError(await admin(h.app, 'GET', `/businesses/${slug}/resources?locationSlug=nowhere`), 404, 'request.not_found');
      assertError(await create({ locationSlug: 'nowhere', name: 'X', quantity: 1 }), 404, 'request.not_found');
      assertError(
        await create({ locationSlug: salon.location.slug, name: 'X', quantity: 1 }, 'no-such-business'),
        404,
        'request.not_found',
      );
    });

    test('create refuses a quantity outside 1 to 50, a missing or empty name and unknown fields', async () => {
      const base = { locationSlug: salon.location.slug, name: 'Chair', quantity: 1 };
      for (const quantity of [0, 51, 2.5, -1, '3']) {
        assertError(await create({ ...base, quantity }), 400, 'request.validation_failed', 'body.quantity');
      }
      assertError(await create({ ...base, name: '' }), 400, 'request.validation_failed', 'body.name');
      const { name: _n, ...noName } = base;
      assertError(await create(noName), 400, 'request.validation_failed');
      assertError(await create({ ...base, active: false }), 400, 'request.validation_failed');
      assert.ok((await create({ ...base, quantity: 50 })).status === 201);
    });

    test('patch changes name, quantity and active; fields left out stay; unknown is catalog.resource_not_found', async () => {
      const r = await newResource('Dryer', 2);
      const patched = await adminOk(h.app, 'PATCH', `/resources/${r.id}`, { quantity: 4 });
      assert.deepEqual(patched.resource, { ...r, quantity: 4 });
      const renamed = await adminOk(h.app, 'PATCH', `/resources/${r.id}`, { name: 'Hood dryer', active: false });
      assert.deepEqual(renamed.resource, { ...r, name: 'Hood dryer', quantity: 4, active: false });
      assertError(await admin(h.app, 'PATCH', `/resources/${r.id}`, { quantity: 51 }), 400, 'request.validation_failed', 'body.quantity');
      assertError(await admin(h.app, 'PATCH', `/resources/${r.id}`, { quantity: 0 }), 400, 'request.validation_failed', 'body.quantity');
      assertError(await admin(h.app, 'PATCH', `/resources/${r.id}`, { locationSlug: 'x' }), 400, 'request.validation_failed');
      assertError(await admin(h.app, 'PATCH', '/resources/res_nothere', { quantity: 2 }), 404, 'catalog.resource_not_found');
      const listed = await adminOk(h.app, 'GET', `/businesses/${slug}/resources`);
      assert.deepEqual(
        listed.resources.find((x: { id: string }) => x.id === r.id),
        { ...r, name: 'Hood dryer', quantity: 4, active: false },
      );
    });

    test('owner and manager write, the front desk reads; another business answers 403 like an unknown one', async () => {
      const r = await newResource('Chair', 3);
      const owner = (await memberCookie(h.app, h.db, salon.business.id, 'owner')).cookie;
      const manager = (await memberCookie(h.app, h.db, salon.business.id, 'manager')).cookie;
      const frontDesk = (await memberCookie(h.app, h.db, salon.business.id, 'frontDesk')).cookie;
      const body = { locationSlug: salon.location.slug, name: 'Basin', quantity: 1 };

      for (const cookie of [owner, manager]) {
        assert.equal((await asMember(h.app, cookie, 'POST', `/businesses/${slug}/resources`, body)).status, 201);
        assert.equal((await asMember(h.app, cookie, 'PATCH', `/resources/${r.id}`, { quantity: 2 })).status, 200);
      }
      const list = await asMember(h.app, frontDesk, 'GET', `/businesses/${slug}/resources`);
      assert.equal(list.status, 200, list.raw);
      assert.ok(list.body.data.resources.some((x: { id: string }) => x.id === r.id));
      const denied = await asMember(h.app, frontDesk, 'POST', `/businesses/${slug}/resources`, body);
      assertError(denied, 403, 'auth.insufficient_capability');
      assert.deepEqual(denied.body.error.details.required, ['owner', 'manager']);
      assertError(await asMember(h.app, frontDesk, 'PATCH', `/resources/${r.id}`, { quantity: 1 }), 403, 'auth.insufficient_capability');

      const other = await createSalon(h.app);
      const theirs = (
        await adminOk(h.app, 'POST', `/businesses/${other.business.slug}/resources`, { ...body, locationSlug: other.location.slug })
      ).resource;
      const foreign = await asMember(h.app, owner, 'PATCH', `/resources/${theirs.id}`, { quantity: 1 });
      const unknown = await asMember(h.app, owner, 'PATCH', '/resources/res_nothere', { quantity: 1 });
      assertError(foreign, 403, 'auth.scope_mismatch');
      assertError(unknown, 403, 'auth.scope_mismatch');
      assertError(await asMember(h.app, owner, 'GET', `/businesses/${other.business.slug}/resources`), 403, 'auth.scope_mismatch');
    });

    test('a service takes resourceIds of active resources of its location, shown sorted by id in operator reads only', async () => {
      const a = await newResource('Chair', 2);
      const b = await newResource('Basin', 1);
      const sorted = [a.id, b.id].sort();
      const service = await createService(h.app, slug, salon.location.slug, { name: 'Wash and cut', resourceIds: [b.id, a.id] });
      assert.deepEqual(service.resourceIds, sorted);
      assert.deepEqual((await adminOk(h.app, 'GET', `/services/${service.id}`)).service.resourceIds, sorted);
      const listed = await adminOk(h.app, 'GET', `/businesses/${slug}/services?locationSlug=${salon.location.slug}`);
      assert.deepEqual(listed.services.find((s: { id: string }) => s.id === service.id).resourceIds, sorted);
      assert.deepEqual(listed.services.find((s: { id: string }) => s.id === salon.service.id).resourceIds, []);

      const onlyB = await adminOk(h.app, 'PATCH', `/services/${service.id}`, { resourceIds: [b.id] });
      assert.deepEqual(onlyB.service.resourceIds, [b.id]);
      const untouched = await adminOk(h.app, 'PATCH', `/services/${service.id}`, { name: 'Wash, cut' });
      assert.deepEqual(untouched.service.resourceIds, [b.id], 'a patch without resourceIds keeps them');
      assert.deepEqual((await adminOk(h.app, 'PATCH', `/services/${service.id}`, { resourceIds: [] })).service.resourceIds, []);

      const pub = await api(h.app, salon.key.secret, 'GET', `/services?salonSlug=${slug}&locationSlug=${salon.location.slug}`);
      assert.equal(pub.status, 200, pub.raw);
      for (const s of pub.body.data.services) assert.ok(!('resourceIds' in s), 'public reads do not show resourceIds');
    });

    test('resourceIds refused: duplicates, more than 5, another location, another business, unknown, inactive', async () => {
      const service = await createService(h.app, slug, salon.location.slug, { name: 'Blow-dry' });
      const patch = (resourceIds: unknown) => admin(h.app, 'PATCH', `/services/${service.id}`, { resourceIds });
      const a = await newResource('Chair', 2);
      assertError(await patch([a.id, a.id]), 400, 'request.validation_failed', 'body.resourceIds');
      const six = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => newResource(`Chair ${i}`)));
      assertError(await patch(six.map((r) => r.id)), 400, 'request.validation_failed', 'body.resourceIds');
      assert.equal((await patch(six.slice(0, 5).map((r) => r.id))).status, 200);

      const elsewhere = await createLocation(h.app, slug);
      const far = await newResource('Far chair', 1, elsewhere.slug);
      const other = await createSalon(h.app);
      const theirs = (
        await adminOk(h.app, 'POST', `/businesses/${other.business.slug}/resources`, {
          locationSlug: other.location.slug,
          name: 'Theirs',
          quantity: 1,
        })
      ).resource;
      const off = await newResource('Old chair');
      await adminOk(h.app, 'PATCH', `/resources/${off.id}`, { active: false });
      for (const bad of [far.id, theirs.id, 'res_nothere', off.id]) {
        const r = await patch([a.id, bad]);
        assertError(r, 404, 'catalog.resource_not_found');
        assert.deepEqual(r.body.error.details.resourceIds, [bad]);
        const c = await admin(h.app, 'POST', `/businesses/${slug}/services`, {
          locationSlug: salon.location.slug,
          name: 'Refused',
          durationMinutes: 30,
          priceType: 'fixed',
          price: { amount: 5000, currency: 'HUF' },
          requestAcceptancePolicy: 'automatic',
          resourceIds: [bad],
        });
        assertError(c, 404, 'catalog.resource_not_found');
      }
      assert.deepEqual(
        (await adminOk(h.app, 'GET', `/services/${service.id}`)).service.resourceIds,
        six
          .slice(0, 5)
          .map((r) => r.id)
          .sort(),
        'a refused patch changed nothing',
      );

      // A resource made inactive after a service needs it stays accepted in that service's list.
      await adminOk(h.app, 'PATCH', `/services/${service.id}`, { resourceIds: [a.id] });
      await adminOk(h.app, 'PATCH', `/resources/${a.id}`, { active: false });
      assert.deepEqual((await adminOk(h.app, 'PATCH', `/services/${service.id}`, { resourceIds: [a.id] })).service.resourceIds, [a.id]);
    });

    test("every write of a resource or of a service's resources bumps the business's version", async () => {
      const id = salon.business.id;
      let v = await version(id);
      const bumped = async (what: string) => {
        const now = await version(id);
        assert.ok(now > v, `${what} bumps the version (${v} -> ${now})`);
        v = now;
      };
      const r = await newResource('Versioned chair', 2);
      await bumped('a create');
      await adminOk(h.app, 'PATCH', `/resources/${r.id}`, { quantity: 3 });
      await bumped('a patch');
      // Only the link table is written here: the service row itself is left as it was.
      await h.db.query('INSERT INTO service_resources (service_id, resource_id) VALUES ($1, $2)', [salon.manualService.id, r.id]);
      await bumped('a service_resources insert');
      await h.db.query('DELETE FROM service_resources WHERE service_id = $1 AND resource_id = $2', [salon.manualService.id, r.id]);
      await bumped('a service_resources delete');
      const other = await createSalon(h.app);
      const before = await version(other.business.id);
      await adminOk(h.app, 'PATCH', `/resources/${r.id}`, { quantity: 1 });
      assert.equal(await version(other.business.id), before, "another business's version stays");
    });
  });
}
