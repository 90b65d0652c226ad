/**
 * A business's members (business-side.md): the list, role changes that count from the very next
 * request, removal that ends access at once, and the rule that a business keeps at least one owner,
 * held under concurrent changes too.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dbTargets } from './helpers/databases.ts';
import { admin, adminOk, startHarness, type Harness } from './helpers/harness.ts';
import { createBusiness, createKey, createSalon } from './helpers/fixtures.ts';
import { invitedMember } from './helpers/invitations.ts';
import { asMember, insertMember, memberCookie, MEMBER_PASSWORD } from './helpers/members.ts';

function assertError(r: { status: number; body: any; raw: string }, status: number, code: string): void {
  assert.equal(r.status, status, r.raw);
  assert.equal(r.body.ok, false, r.raw);
  assert.equal(r.body.error.code, code, r.raw);
}

const serviceBody = (locationSlug: string) => ({
  locationSlug,
  name: 'Trim',
  durationMinutes: 20,
  priceType: 'fixed',
  price: { amount: 3000, currency: 'HUF' },
  requestAcceptancePolicy: 'automatic',
});

for (const target of dbTargets()) {
  describe(`members [${target.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(target);
    });
    after(() => h.close());

    test('the list shows id, email, name, role and createdAt of each member, to owners only; never a hash', async () => {
      const biz = await createBusiness(h.app);
      const owner = await invitedMember(h.app, biz.slug, 'owner');
      const manager = await invitedMember(h.app, biz.slug, 'manager');
      const r = await asMember(h.app, owner.cookie, 'GET', `/businesses/${biz.slug}/members`);
      assert.equal(r.status, 200, r.raw);
      const members = r.body.data.members;
      assert.deepEqual(
        members.map((m: any) => ({ ...m, createdAt: typeof m.createdAt })),
        [
          { id: owner.userId, email: owner.email, name: 'Invited Person', role: 'owner', createdAt: 'string' },
          { id: manager.userId, email: manager.email, name: 'Invited Person', role: 'manager', createdAt: 'string' },
        ],
      );
      assert.ok(!r.raw.includes('scrypt$') && !r.raw.includes(owner.password), 'no password or hash');
      assert.deepEqual((await adminOk(h.app, 'GET', `/businesses/${biz.slug}/members`)).members, members);
      const denied = await asMember(h.app, manager.cookie, 'GET', `/businesses/${biz.slug}/members`);
      assertError(denied, 403, 'auth.insufficient_capability');
      assert.deepEqual(denied.body.error.details.required, ['owner']);
      assertError(await admin(h.app, 'GET', '/businesses/no-such-business/members'), 404, 'request.not_found');
    });

    test('a role change takes effect on the next request: a manager demoted to frontDesk may no longer create services', async () => {
      const salon = await createSalon(h.app);
      const slug = salon.business.slug;
      const owner = await memberCookie(h.app, h.db, salon.business.id, 'owner');
      const manager = await memberCookie(h.app, h.db, salon.business.id, 'manager');
      const before = await asMember(h.app, manager.cookie, 'POST', `/businesses/${slug}/services`, serviceBody(salon.location.slug));
      assert.equal(before.status, 200, before.raw);
      const patched = await asMember(h.app, owner.cookie, 'PATCH', `/businesses/${slug}/members/${manager.userId}`, { role: 'frontDesk' });
      assert.equal(patched.status, 200, patched.raw);
      assert.deepEqual(
        { ...patched.body.data.member, createdAt: undefined },
        { id: manager.userId, email: manager.email, name: patched.body.data.member.name, role: 'frontDesk', createdAt: undefined },
      );
      const after = await asMember(h.app, manager.cookie, 'POST', `/businesses/${slug}/services`, serviceBody(salon.location.slug));
      assertError(after, 403, 'auth.insufficient_capability');
      assert.equal(after.body.error.details.granted, 'frontDesk');
      // reads stay allowed, and the session says the new role
      assert.equal((await asMember(h.app, manager.cookie, 'GET', `/businesses/${slug}/services`)).status, 200);
      assert.equal((await asMember(h.app, manager.cookie, 'GET', '/session')).body.data.member.memberships[0].role, 'frontDesk');
      // and promoted again, the write works again at once
      await adminOk(h.app, 'PATCH', `/businesses/${slug}/members/${manager.userId}`, { role: 'manager' });
      const again = await asMember(h.app, manager.cookie, 'POST', `/businesses/${slug}/services`, serviceBody(salon.location.slug));
      assert.equal(again.status, 200, again.raw);
    });

    test('only owners change roles or remove members; a userId that is not a member of the business is 404', async () => {
      const biz = await createBusiness(h.app);
      const other = await createBusiness(h.app);
      const owner = await memberCookie(h.app, h.db, biz.id, 'owner');
      const manager = await memberCookie(h.app, h.db, biz.id, 'manager');
      const outsider = await insertMember(h.db, other.id, 'owner');
      assertError(
        await asMember(h.app, manager.cookie, 'PATCH', `/businesses/${biz.slug}/members/${owner.userId}`, { role: 'frontDesk' }),
        403,
        'auth.insufficient_capability',
      );
      assertError(
        await asMember(h.app, manager.cookie, 'DELETE', `/businesses/${biz.slug}/members/${owner.userId}`),
        403,
        'auth.insufficient_capability',
      );
      for (const userId of [outsider.userId, 'usr_nobody']) {
        assertError(
          await asMember(h.app, owner.cookie, 'PATCH', `/businesses/${biz.slug}/members/${userId}`, { role: 'manager' }),
          404,
          'request.not_found',
        );
        assertError(await asMember(h.app, owner.cookie, 'DELETE', `/businesses/${biz.slug}/members/${userId}`), 404, 'request.not_found');
      }
      assertError(
        await asMember(h.app, owner.cookie, 'PATCH', `/businesses/${other.slug}/members/${outsider.userId}`, { role: 'manager' }),
        403,
        'auth.scope_mismatch',
      );
      const bad = await asMember(h.app, owner.cookie, 'PATCH', `/businesses/${biz.slug}/members/${manager.userId}`, { role: 'admin' });
      assertError(bad, 400, 'request.validation_failed');
    });

    test('the last owner can be neither demoted nor removed (409 member.last_owner); with two owners one may go', async () => {
      const biz = await createBusiness(h.app);
      const a = await memberCookie(h.app, h.db, biz.id, 'owner');
      const frontDesk = await insertMember(h.db, biz.id, 'frontDesk');
      const url = (userId: string) => `/businesses/${biz.slug}/members/${userId}`;
      assertError(await asMember(h.app, a.cookie, 'PATCH', url(a.userId), { role: 'manager' }), 409, 'member.last_owner');
      assertError(await asMember(h.app, a.cookie, 'DELETE', url(a.userId)), 409, 'member.last_owner');
      assertError(await admin(h.app, 'DELETE', url(a.userId)), 409, 'member.last_owner');
      // keeping the owner role is no demotion
      assert.equal((await asMember(h.app, a.cookie, 'PATCH', url(a.userId), { role: 'owner' })).status, 200);
      // a second owner, then the first may step down
      assert.equal((await asMember(h.app, a.cookie, 'PATCH', url(frontDesk.userId), { role: 'owner' })).status, 200);
      const down = await asMember(h.app, a.cookie, 'PATCH', url(a.userId), { role: 'manager' });
      assert.equal(down.status, 200, down.raw);
      assertError(await admin(h.app, 'DELETE', url(frontDesk.userId)), 409, 'member.last_owner');
      const roles = (await adminOk(h.app, 'GET', `/businesses/${biz.slug}/members`)).members.map((m: any) => m.role).sort();
      assert.deepEqual(roles, ['manager', 'owner']);
    });

    test('two owners demoting or removing each other at once: one wins, the other gets 409, one owner stays', async () => {
      for (const change of ['PATCH', 'DELETE'] as const) {
        const biz = await createBusiness(h.app);
        const a = await insertMember(h.db, biz.id, 'owner');
        const b = await insertMember(h.db, biz.id, 'owner');
        const results = await Promise.all(
          [a, b].map((m) =>
            admin(h.app, change, `/businesses/${biz.slug}/members/${m.userId}`, change === 'PATCH' ? { role: 'manager' } : undefined),
          ),
        );
        assert.deepEqual(results.map((r) => r.status).sort(), [200, 409], results.map((r) => r.raw).join('\n'));
        assert.equal(results.find((r) => r.status === 409)!.body.error.code, 'member.last_owner');
        const owners = await h.db.query(`SELECT 1 FROM memberships WHERE business_id = $1 AND role = 'owner'`, [biz.id]);
        assert.equal(owners.rows.length, 1, `${change}: exactly one owner left`);
      }
    });

    test('a removed member with another business left: this business is out of scope on the very next request', async () => {
      const biz = await createBusiness(h.app);
      const other = await createBusiness(h.app);
      await insertMember(h.db, biz.id, 'owner');
      const m = await memberCookie(h.app, h.db, biz.id, 'manager');
      await h.db.query(`INSERT INTO memberships (business_id, user_id, role) VALUES ($1, $2, 'frontDesk')`, [other.id, m.userId]);
      const personal = await createKey(h.app, biz.slug, { type: 'personal', userId: m.userId, capabilities: ['booking.read'] });
      assert.equal((await asMember(h.app, m.cookie, 'GET', `/businesses/${biz.slug}/locations`)).status, 200);
      const rm = await admin(h.app, 'DELETE', `/businesses/${biz.slug}/members/${m.userId}`);
      assert.equal(rm.status, 200, rm.raw);
      assert.deepEqual(rm.body.data.member, { userId: m.userId, revokedKeys: 1, endedSessions: 0 });
      assertError(await asMember(h.app, m.cookie, 'GET', `/businesses/${biz.slug}/locations`), 403, 'auth.scope_mismatch');
      const session = await asMember(h.app, m.cookie, 'GET', '/session');
      assert.equal(session.status, 200, session.raw);
      assert.deepEqual(
        session.body.data.member.memberships.map((x: any) => x.salonSlug),
        [other.slug],
      );
      const keyRow = (await h.db.query<any>('SELECT revoked_at FROM api_keys WHERE id = $1', [personal.id])).rows[0];
      assert.ok(keyRow.revoked_at, 'the personal key is revoked');
      assertError(await admin(h.app, 'DELETE', `/businesses/${biz.slug}/members/${m.userId}`), 404, 'request.not_found');
    });

    test('a member removed from their last business: every session ends, the cookie is 401 at once, sign-in fails', async () => {
      const biz = await createBusiness(h.app);
      const owner = await memberCookie(h.app, h.db, biz.id, 'owner');
      const m = await memberCookie(h.app, h.db, biz.id, 'frontDesk');
      const rm = await asMember(h.app, owner.cookie, 'DELETE', `/businesses/${biz.slug}/members/${m.userId}`);
      assert.equal(rm.status, 200, rm.raw);
      assert.equal(rm.body.data.member.endedSessions, 1);
      assertError(await asMember(h.app, m.cookie, 'GET', `/businesses/${biz.slug}/bookings`), 401, 'auth.invalid_key');
      assertError(await asMember(h.app, m.cookie, 'GET', '/session'), 401, 'auth.invalid_key');
      const signIn = await h.app.inject({
        method: 'POST',
        url: '/admin/v1/session',
        payload: { email: m.email, password: MEMBER_PASSWORD },
      });
      assert.equal(signIn.statusCode, 401, signIn.body);
      // the owner who removed them is untouched
      assert.equal((await asMember(h.app, owner.cookie, 'GET', `/businesses/${biz.slug}/members`)).status, 200);
    });
  });
}
