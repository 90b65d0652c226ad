import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildApp } from '../src/app.ts';
import { seedDemoIfEmpty } from '../src/use-cases/operator/demo-seed.ts';
import { dbTargets } from './helpers/databases.ts';
import { adminOk, startHarness, testConfig, type Harness } from './helpers/harness.ts';
import { api, createBusiness, createKey, createLocation, createSalon, createService, createStaff } from './helpers/fixtures.ts';

const HEX12 = /^[0-9a-f]{12}$/;
const SERVICE_KEYS = [
  'deposit',
  'description',
  'durationMinutes',
  'id',
  'name',
  'price',
  'priceType',
  'pricingVersion',
  'requestAcceptancePolicy',
  'segments',
  'staffVariants',
];

function q(salonSlug: string, locationSlug: string): string {
  return `salonSlug=${encodeURIComponent(salonSlug)}&locationSlug=${encodeURIComponent(locationSlug)}`;
}

for (const target of dbTargets()) {
  describe(`GET /services and GET /staff [${target.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(target);
    });
    after(() => h.close());

    const services = async (key: string, salonSlug: string, locationSlug: string) => {
      const r = await api(h.app, key, 'GET', `/services?${q(salonSlug, locationSlug)}`);
      assert.equal(r.status, 200, r.raw);
      return r.body.data.services as any[];
    };
    const staff = async (key: string, salonSlug: string, locationSlug: string) => {
      const r = await api(h.app, key, 'GET', `/staff?${q(salonSlug, locationSlug)}`);
      assert.equal(r.status, 200, r.raw);
      return r.body.data.staff as any[];
    };

    test('Service has exactly the spec fields; unset description is omitted, not null', async () => {
      const salon = await createSalon(h.app);
      const described = await createService(h.app, salon.business.slug, salon.location.slug, {
        name: 'Blow-dry',
        description: 'Wash and blow-dry',
        durationMinutes: 20,
      });
      const r = await api(h.app, salon.key.secret, 'GET', `/services?${q(salon.business.slug, salon.location.slug)}`);
      assert.equal(r.status, 200, r.raw);
      assert.equal(r.body.ok, true);
      assert.equal(r.body.meta.v, '1');
      const list = r.body.data.services;
      assert.deepEqual(
        list.map((s: any) => s.name),
        ['Blow-dry', 'Colouring', 'Haircut'],
      );
      const haircut = list.find((s: any) => s.id === salon.service.id);
      assert.deepEqual(haircut, {
        id: salon.service.id,
        name: 'Haircut',
        durationMinutes: 30,
        priceType: 'fixed',
        pricingVersion: salon.service.pricingVersion,
        price: { amount: 5000, currency: 'HUF' },
        requestAcceptancePolicy: 'automatic',
        deposit: { required: false },
        segments: [{ kind: 'work', minutes: 30 }],
        staffVariants: [],
      });
      assert.ok(!('description' in haircut));
      const blow = list.find((s: any) => s.id === described.id);
      assert.deepEqual(Object.keys(blow).sort(), SERVICE_KEYS);
      assert.equal(blow.description, 'Wash and blow-dry');
      for (const s of list) assert.match(s.pricingVersion, HEX12);
      const colouring = list.find((s: any) => s.id === salon.manualService.id);
      assert.equal(colouring.priceType, 'from');
      assert.equal(colouring.requestAcceptancePolicy, 'manual');
    });

    test('prices are in major units: HUF whole, EUR with cents; negotiable is null', async () => {
      const huf = await createSalon(h.app);
      const hufList = await services(huf.key.secret, huf.business.slug, huf.location.slug);
      assert.deepEqual(hufList.find((s) => s.id === huf.service.id).price, { amount: 5000, currency: 'HUF' });

      const eur = await createSalon(h.app, { currency: 'EUR' });
      const cents = await createService(
        h.app,
        eur.business.slug,
        eur.location.slug,
        { name: 'Manicure', price: { amount: 19.99, currency: 'EUR' } },
        'EUR',
      );
      const talk = await createService(h.app, eur.business.slug, eur.location.slug, {
        name: 'Talk',
        priceType: 'negotiable',
        price: null,
      });
      const eurList = await services(eur.key.secret, eur.business.slug, eur.location.slug);
      assert.deepEqual(eurList.find((s) => s.id === cents.id).price, { amount: 19.99, currency: 'EUR' });
      assert.deepEqual(eurList.find((s) => s.id === eur.service.id).price, { amount: 50, currency: 'EUR' });
      assert.equal(eurList.find((s) => s.id === talk.id).price, null);
    });

    test('deposit shows termsVersion and amount when required', async () => {
      const salon = await createSalon(h.app);
      const dep = await createService(h.app, salon.business.slug, salon.location.slug, {
        name: 'Extensions',
        deposit: { required: true, termsVersion: 'dep-v3', amount: { amount: 10000, currency: 'HUF' } },
      });
      const termsOnly = await createService(h.app, salon.business.slug, salon.location.slug, {
        name: 'Perm',
        deposit: { required: true, termsVersion: 'dep-v1' },
      });
      const list = await services(salon.key.secret, salon.business.slug, salon.location.slug);
      assert.deepEqual(list.find((s) => s.id === dep.id).deposit, {
        required: true,
        termsVersion: 'dep-v3',
        amount: { amount: 10000, currency: 'HUF' },
      });
      assert.deepEqual(list.find((s) => s.id === termsOnly.id).deposit, { required: true, termsVersion: 'dep-v1' });
    });

    test('inactive, not online-bookable, price-rule-breaking and other-location services are excluded', async () => {
      const salon = await createSalon(h.app);
      const b = salon.business.slug;
      const l = salon.location.slug;
      const inactive = await createService(h.app, b, l, { name: 'Inactive', active: false });
      const offline = await createService(h.app, b, l, { name: 'Offline', onlineBookable: false });
      const fixedNoPrice = await createService(h.app, b, l, { name: 'Broken fixed' });
      const fromNoPrice = await createService(h.app, b, l, { name: 'Broken from', priceType: 'from' });
      const negotiablePriced = await createService(h.app, b, l, { name: 'Broken negotiable', priceType: 'negotiable', price: null });
      // Rows written around the operator API (it refuses these states) must still stay out of the listing.
      await h.db.query('UPDATE services SET price_minor = NULL WHERE id = ANY($1::text[])', [[fixedNoPrice.id, fromNoPrice.id]]);
      await h.db.query('UPDATE services SET price_minor = 100 WHERE id = $1', [negotiablePriced.id]);
      const other = await createLocation(h.app, b);
      const elsewhere = await createService(h.app, b, other.slug, { name: 'Elsewhere' });

      const ids = (await services(salon.key.secret, b, l)).map((s) => s.id);
      assert.deepEqual(ids.sort(), [salon.service.id, salon.manualService.id].sort());
      for (const excluded of [inactive, offline, fixedNoPrice, fromNoPrice, negotiablePriced, elsewhere]) {
        assert.ok(!ids.includes(excluded.id), excluded.name);
      }
      assert.deepEqual(
        (await services(salon.key.secret, b, other.slug)).map((s) => s.id),
        [elsewhere.id],
      );

      await adminOk(h.app, 'PATCH', `/services/${offline.id}`, { onlineBookable: true });
      await adminOk(h.app, 'PATCH', `/services/${inactive.id}`, { active: true });
      const again = (await services(salon.key.secret, b, l)).map((s) => s.id);
      assert.ok(again.includes(offline.id) && again.includes(inactive.id));
    });

    test('services are ordered by name, then id', async () => {
      const salon = await createSalon(h.app);
      const b = salon.business.slug;
      const l = salon.location.slug;
      const twins = [await createService(h.app, b, l, { name: 'Twin' }), await createService(h.app, b, l, { name: 'Twin' })];
      await createService(h.app, b, l, { name: 'apple' });
      await createService(h.app, b, l, { name: 'Zebra' });
      const list = await services(salon.key.secret, b, l);
      assert.deepEqual(
        list.map((s) => s.name),
        ['apple', 'Colouring', 'Haircut', 'Twin', 'Twin', 'Zebra'],
      );
      const twinIds = list.filter((s) => s.name === 'Twin').map((s) => s.id);
      assert.deepEqual(twinIds, twins.map((t) => t.id).sort());
    });

    test('pricingVersion changes only when priceType, price or duration change', async () => {
      const salon = await createSalon(h.app);
      const b = salon.business.slug;
      const l = salon.location.slug;
      const id = salon.service.id;
      const listed = async () => (await services(salon.key.secret, b, l)).find((s) => s.id === id).pricingVersion as string;
      const v0 = await listed();
      assert.equal(v0, salon.service.pricingVersion);
      await adminOk(h.app, 'PATCH', `/services/${id}`, {
        name: 'Haircut deluxe',
        description: 'More',
        requestAcceptancePolicy: 'manual',
        bufferBeforeMinutes: 5,
        deposit: { required: true, termsVersion: 'x' },
      });
      assert.equal(await listed(), v0);
      await adminOk(h.app, 'PATCH', `/services/${id}`, { price: { amount: 5500, currency: 'HUF' } });
      const v1 = await listed();
      assert.match(v1, HEX12);
      assert.notEqual(v1, v0);
      await adminOk(h.app, 'PATCH', `/services/${id}`, { durationMinutes: 40 });
      const v2 = await listed();
      assert.notEqual(v2, v1);
      await adminOk(h.app, 'PATCH', `/services/${id}`, { priceType: 'from' });
      const v3 = await listed();
      assert.notEqual(v3, v2);
      await adminOk(h.app, 'PATCH', `/services/${id}`, { name: 'Back', onSite: true });
      assert.equal(await listed(), v3);
    });

    test('StaffMember: id and name; bio and avatarUrl omitted when not set; active staff of the location only', async () => {
      const salon = await createSalon(h.app);
      const b = salon.business.slug;
      const l = salon.location.slug;
      const withAll = await createStaff(h.app, b, l, {
        name: 'Cecil',
        bio: 'Barber',
        avatarUrl: 'https://cdn.example.com/c.png',
      });
      const gone = await createStaff(h.app, b, l, { name: 'Dora' });
      await adminOk(h.app, 'PATCH', `/staff/${gone.id}`, { active: false });
      const other = await createLocation(h.app, b);
      await createStaff(h.app, b, other.slug, { name: 'Elsewhere' });

      const list = await staff(salon.key.secret, b, l);
      assert.deepEqual(list, [
        { id: salon.staff[0]!.id, name: 'Anna' },
        { id: salon.staff[1]!.id, name: 'Bence' },
        { id: withAll.id, name: 'Cecil', bio: 'Barber', avatarUrl: 'https://cdn.example.com/c.png' },
      ]);
      await adminOk(h.app, 'PATCH', `/staff/${withAll.id}`, { bio: null });
      const cecil = (await staff(salon.key.secret, b, l)).find((s) => s.id === withAll.id);
      assert.deepEqual(cecil, { id: withAll.id, name: 'Cecil', avatarUrl: 'https://cdn.example.com/c.png' });
    });

    test('staff are ordered by name, then id', async () => {
      const salon = await createSalon(h.app);
      const b = salon.business.slug;
      const l = salon.location.slug;
      const twins = [await createStaff(h.app, b, l, { name: 'Anna' }), await createStaff(h.app, b, l, { name: 'Anna' })];
      await createStaff(h.app, b, l, { name: 'ádám' });
      const list = await staff(salon.key.secret, b, l);
      assert.deepEqual(
        list.map((s) => s.name),
        ['ádám', 'Anna', 'Anna', 'Anna', 'Bence'],
      );
      const annaIds = list.filter((s) => s.name === 'Anna').map((s) => s.id);
      assert.deepEqual(annaIds, [salon.staff[0]!.id, ...twins.map((t) => t.id)].sort());
    });

    for (const path of ['/services', '/staff']) {
      test(`${path}: scope: another salon or an unknown location is 403 auth.scope_mismatch`, async () => {
        const salon = await createSalon(h.app);
        const other = await createSalon(h.app);
        const key = salon.key.secret;
        const cases = [
          q(other.business.slug, other.location.slug),
          q(other.business.slug, salon.location.slug),
          q(salon.business.slug, other.location.slug),
          q(salon.business.slug, 'no-such-location'),
          q('no-such-salon', salon.location.slug),
        ];
        for (const query of cases) {
          const r = await api(h.app, key, 'GET', `${path}?${query}`);
          assert.equal(r.status, 403, `${query}: ${r.raw}`);
          assert.equal(r.body.error.code, 'auth.scope_mismatch');
          assert.equal(r.body.error.retryable, false);
        }
      });

      test(`${path}: salonSlug and locationSlug are required`, async () => {
        const salon = await createSalon(h.app);
        const key = salon.key.secret;
        for (const [query, missing] of [
          [`locationSlug=${salon.location.slug}`, 'querystring.salonSlug'],
          [`salonSlug=${salon.business.slug}`, 'querystring.locationSlug'],
          ['', undefined],
          [`salonSlug=&locationSlug=${salon.location.slug}`, undefined],
        ] as const) {
          const r = await api(h.app, key, 'GET', `${path}?${query}`);
          assert.equal(r.status, 400, `${query}: ${r.raw}`);
          assert.equal(r.body.error.code, 'request.validation_failed');
          if (missing)
            assert.ok(
              r.body.error.details.issues.some((i: any) => i.path === missing),
              r.raw,
            );
        }
      });

      test(`${path}: a guest_partner key may call it`, async () => {
        const salon = await createSalon(h.app);
        const partner = await createKey(h.app, salon.business.slug, {
          kind: 'guest_partner',
          capabilities: ['services.read', 'staff.read'],
        });
        const r = await api(h.app, partner.secret, 'GET', `${path}?${q(salon.business.slug, salon.location.slug)}`);
        assert.equal(r.status, 200, r.raw);
        assert.equal(r.body.data[path.slice(1)].length, 2);
      });

      test(`${path}: no key is 401, a key without the capability is 403`, async () => {
        const salon = await createSalon(h.app);
        const capability = path === '/services' ? 'services.read' : 'staff.read';
        const lacking = await createKey(h.app, salon.business.slug, {
          capabilities: [capability === 'services.read' ? 'staff.read' : 'services.read'],
        });
        const query = `${path}?${q(salon.business.slug, salon.location.slug)}`;
        const none = await api(h.app, undefined, 'GET', query);
        assert.equal(none.status, 401);
        assert.equal(none.body.error.code, 'auth.invalid_key');
        const r = await api(h.app, lacking.secret, 'GET', query);
        assert.equal(r.status, 403, r.raw);
        assert.equal(r.body.error.code, 'auth.insufficient_capability');
        assert.deepEqual(r.body.error.details.required, [capability]);
      });
    }

    test('a location with no services or staff lists empty arrays', async () => {
      const biz = await createBusiness(h.app);
      const loc = await createLocation(h.app, biz.slug);
      const key = await createKey(h.app, biz.slug);
      assert.deepEqual(await services(key.secret, biz.slug, loc.slug), []);
      assert.deepEqual(await staff(key.secret, biz.slug, loc.slug), []);
    });

    if (target.name === 'pglite') {
      test('the demo seed builds a listable salon on an empty database, once', async () => {
        const db = await target.open();
        const app = await buildApp({ config: testConfig(), db, logger: false });
        try {
          const seed = await seedDemoIfEmpty(db, testConfig());
          assert.ok(seed);
          assert.deepEqual(
            { ...seed, apiKey: undefined, owner: undefined, serviceId: undefined, staffId: undefined },
            {
              salonSlug: 'demo-salon',
              locationSlug: 'downtown',
              apiKey: undefined,
              owner: undefined,
              serviceId: undefined,
              staffId: undefined,
            },
          );
          const query = q(seed.salonSlug, seed.locationSlug);
          const list = (await api(app, seed.apiKey, 'GET', `/services?${query}`)).body.data.services;
          assert.deepEqual(
            list.map((s: any) => [s.name, s.priceType, s.durationMinutes, s.requestAcceptancePolicy]),
            [
              ['Colouring', 'from', 90, 'manual'],
              ['Consultation', 'negotiable', 20, 'automatic'],
              ['Haircut', 'fixed', 30, 'automatic'],
            ],
          );
          const people = (await api(app, seed.apiKey, 'GET', `/staff?${query}`)).body.data.staff;
          assert.equal(people.length, 2);
          // the quick start (docs/integrator-guide.md) books these two: an automatic service and who performs it
          assert.equal(list.find((s: any) => s.id === seed.serviceId)?.name, 'Haircut');
          assert.equal(people.find((p: any) => p.id === seed.staffId)?.name, 'Anna Kovács');
          const sub = await api(app, seed.apiKey, 'GET', '/subscription');
          assert.equal(sub.body.data.subscription.plan, 'pro');
          // the demo owner signs in to the demo salon as its owner; the password is random, 16+ characters
          assert.equal(seed.owner.email, 'owner@demo.example');
          assert.ok(seed.owner.password.length >= 16);
          const signedIn = await app.inject({ method: 'POST', url: '/admin/v1/session', payload: seed.owner });
          assert.equal(signedIn.statusCode, 200, signedIn.body);
          assert.deepEqual(JSON.parse(signedIn.body).data.member.memberships, [
            { salonSlug: 'demo-salon', businessName: 'Demo Salon', role: 'owner' },
          ]);
          assert.equal(await seedDemoIfEmpty(db, testConfig()), undefined);
        } finally {
          await app.close();
          await db.close();
        }
      });
    }
  });
}
