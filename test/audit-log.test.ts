/**
 * The audit log (clients-and-reports.md "Audit log"): every write route of the operator API has an
 * action (the route table walked against AUDIT_ACTIONS, both ways); writes of each kind by a member
 * and by the platform operator, and a guest's cancel on the manage page, each leave one entry with
 * the actor, action, target and field names; refused writes and reads leave none; no entry holds a
 * secret, password, token, phone or email; the read filters, pages and is for owners and managers.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AUDIT_ACTIONS } from '../src/domain/audit/actions.ts';
import { openapiPath, operatorRoutesOf } from '../src/http/route-table.ts';
import { bookingHarness, day, sql } from './helpers/bookings.ts';
import { dbTargets } from './helpers/databases.ts';
import { createSalon, type SalonFixture } from './helpers/fixtures.ts';
import { post } from './helpers/guest-page.ts';
import { admin, adminOk, type Harness } from './helpers/harness.ts';
import { asMember, memberCookie } from './helpers/members.ts';

const SECRETS_OF_THIS_TEST = ['+36', '36301234567', '@example.com', 'correct horse battery'];

for (const target of dbTargets()) {
  describe(`audit log [${target.name}]`, () => {
    let h: Harness;
    let salon: SalonFixture;
    let slug: string;
    let manager: { cookie: string; userId: string };
    before(async () => {
      h = await bookingHarness(target);
      salon = await createSalon(h.app);
      slug = salon.business.slug;
      const m = await memberCookie(h.app, h.db, salon.business.id, 'manager');
      manager = { cookie: m.cookie, userId: m.userId };
    });
    after(() => h.close());

    const entries = async (query = '') => (await adminOk(h.app, 'GET', `/businesses/${slug}/audit-log${query}`)).entries as any[];
    const asManager = (method: 'POST' | 'PATCH' | 'PUT' | 'DELETE' | 'GET', url: string, body?: unknown) =>
      asMember(h.app, manager.cookie, method, url, body);

    test('every write route of the operator API has its action, and every action is a route', () => {
      const writes = operatorRoutesOf(h.app.routeTable)
        .filter((r) => r.method !== 'GET')
        .map((r) => `${r.method} ${openapiPath(r.url).replace(/^\/admin\/v1/, '')}`);
      assert.deepEqual([...writes].sort(), Object.keys(AUDIT_ACTIONS).sort());
      for (const [route, action] of Object.entries(AUDIT_ACTIONS)) {
        if (action !== null) assert.match(action, /^[a-z][A-Za-z]*\.[a-z][A-Za-z]*$/, route);
      }
    });

    test('writes leave one entry each: who, what, on what, which fields; refusals and reads none', async () => {
      const before = (await entries()).length;
      const svc = await asManager('PATCH', `/services/${salon.service.id}`, { durationMinutes: 45, description: 'Longer now' });
      assert.equal(svc.status, 200, svc.raw);
      const refused = await asManager('PATCH', `/services/${salon.service.id}`, { durationMinutes: -1 });
      assert.equal(refused.status, 400);
      await asManager('GET', `/services/${salon.service.id}`);
      const booked = await asManager('POST', `/businesses/${slug}/bookings`, {
        locationSlug: salon.location.slug,
        serviceId: salon.service.id,
        staffId: salon.staff[0]!.id,
        date: day(3),
        startTime: '10:00',
        guest: { name: 'Audit Aladár', phone: '+36 30 123 4567', email: 'aladar@example.com' },
      });
      assert.equal(booked.status, 200, booked.raw);
      const bookingId = booked.body.data.booking.bookingId;
      const key = await adminOk(h.app, 'POST', `/businesses/${slug}/api-keys`, {
        name: 'widget',
        type: 'integration',
        kind: 'owner',
        capabilities: ['services.read'],
      });
      await adminOk(h.app, 'DELETE', `/api-keys/${key.apiKey.id}`);

      const all = await entries();
      assert.equal(all.length, before + 4, JSON.stringify(all.slice(0, 5)));
      const [revoke, create, booking, service] = all;
      assert.deepEqual(
        { ...service, id: undefined, at: undefined, requestId: undefined },
        {
          id: undefined,
          at: undefined,
          requestId: undefined,
          actor: { type: 'member', id: manager.userId, name: service.actor.name, role: 'manager' },
          action: 'service.update',
          target: { type: 'service', id: salon.service.id },
          fields: ['description', 'durationMinutes'],
        },
      );
      assert.match(service.requestId, /^req_/);
      assert.equal(booking.action, 'booking.create');
      assert.deepEqual(booking.target, { type: 'booking', id: bookingId });
      assert.deepEqual(booking.fields, ['date', 'guest', 'locationSlug', 'serviceId', 'staffId', 'startTime']);
      assert.equal(create.action, 'apiKey.create');
      assert.deepEqual(create.target, { type: 'apiKey', id: key.apiKey.id });
      assert.deepEqual(create.actor, { type: 'operator', id: null, name: 'Platform operator', role: null });
      assert.equal(revoke.action, 'apiKey.revoke');
      assert.deepEqual(revoke.target, { type: 'apiKey', id: key.apiKey.id });

      // a guest's cancel on the manage page
      const { manageUrl } = await adminOk(h.app, 'POST', `/bookings/${bookingId}/manage-link`);
      const cancelled = await post(h.app, `${new URL(manageUrl).pathname}/cancel`, { lang: 'en' });
      assert.equal(cancelled.status, 303, cancelled.html.slice(0, 200));
      const [guest, link] = await entries();
      assert.deepEqual(
        { actor: guest.actor, action: guest.action, target: guest.target, fields: guest.fields },
        {
          actor: { type: 'guest', id: bookingId, name: null, role: null },
          action: 'booking.cancel',
          target: { type: 'booking', id: bookingId },
          fields: [],
        },
      );
      assert.equal(link.action, 'booking.manageLink');

      // nothing of a secret, a password, a token, a phone or an email is kept
      const rows = await sql<{ row: string }>(h, 'SELECT row_to_json(a)::text AS row FROM audit_log a WHERE business_id = $1', [
        salon.business.id,
      ]);
      const text = rows.map((r) => r.row).join('\n');
      for (const s of [...SECRETS_OF_THIS_TEST, key.secret, manageUrl.split('/').at(-1)]) {
        assert.ok(!text.includes(s), `the audit log holds ${s}`);
      }
    });

    test('filters by actor, action or resource and dates; pages newest first; owners and managers only', async () => {
      const members = await entries('?actor=member');
      assert.ok(members.length > 0 && members.every((e) => e.actor.type === 'member'));
      assert.ok((await entries(`?actor=${manager.userId}`)).every((e) => e.actor.id === manager.userId));
      assert.ok((await entries('?action=booking')).every((e) => e.action.startsWith('booking.')));
      assert.deepEqual(
        (await entries('?action=apiKey.revoke')).map((e) => e.action),
        ['apiKey.revoke'],
      );
      assert.deepEqual(await entries('?to=2000-01-01'), []);
      const first = await admin(h.app, 'GET', `/businesses/${slug}/audit-log?limit=2`);
      const second = await adminOk(
        h.app,
        'GET',
        `/businesses/${slug}/audit-log?limit=2&cursor=${encodeURIComponent(first.body.meta.cursor)}`,
      );
      const ats = [...first.body.data.entries, ...second.entries].map((e: { at: string }) => e.at);
      assert.deepEqual([...ats].sort().reverse(), ats, 'newest first across pages');
      const desk = (await memberCookie(h.app, h.db, salon.business.id, 'frontDesk')).cookie;
      const refused = await asMember(h.app, desk, 'GET', `/businesses/${slug}/audit-log`);
      assert.equal(refused.status, 403, refused.raw);
      const bad = await admin(h.app, 'GET', `/businesses/${slug}/audit-log?from=yesterday`);
      assert.equal(bad.status, 400, bad.raw);
    });
  });
}
