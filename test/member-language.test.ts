/**
 * The member's own language (issue 27): stored with the account, answered by every read of the
 * member, changed only by the member themself, for every business and session of theirs.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dbTargets } from './helpers/databases.ts';
import { call, startHarness, type Harness } from './helpers/harness.ts';
import { createBusiness } from './helpers/fixtures.ts';
import { asMember, memberCookie, signIn } from './helpers/members.ts';

for (const target of dbTargets()) {
  describe(`member language [${target.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(target);
    });
    after(() => h.close());

    test('a new account is English; PATCH /session changes it for the next sign-in and every session', async () => {
      const biz = await createBusiness(h.app);
      const m = await memberCookie(h.app, h.db, biz.id, 'frontDesk');
      const before = await asMember(h.app, m.cookie, 'GET', '/session');
      assert.equal(before.body.data.member.language, 'en', before.raw);

      const changed = await asMember(h.app, m.cookie, 'PATCH', '/session', { language: 'hu' });
      assert.equal(changed.status, 200, changed.raw);
      assert.equal(changed.body.data.member.language, 'hu');
      assert.equal(changed.body.data.member.id, m.userId);

      assert.equal((await asMember(h.app, m.cookie, 'GET', '/session')).body.data.member.language, 'hu');
      const second = await signIn(h.app, m.email, m.password);
      assert.equal((await asMember(h.app, second, 'GET', '/session')).body.data.member.language, 'hu');
      const signedIn = await call(h.app, { method: 'POST', url: '/admin/v1/session', payload: { email: m.email, password: m.password } });
      assert.equal(signedIn.body.data.member.language, 'hu', 'the sign-in answer carries it too');
    });

    test('an unknown language is a validation failure; without a session or from a foreign origin it is refused', async () => {
      const biz = await createBusiness(h.app);
      const m = await memberCookie(h.app, h.db, biz.id, 'owner');
      const bad = await asMember(h.app, m.cookie, 'PATCH', '/session', { language: 'de' });
      assert.equal(bad.status, 400, bad.raw);
      assert.equal(bad.body.error.code, 'request.validation_failed');
      const none = await call(h.app, { method: 'PATCH', url: '/admin/v1/session', payload: { language: 'hu' } });
      assert.equal(none.status, 401, none.raw);
      const foreign = await asMember(h.app, m.cookie, 'PATCH', '/session', { language: 'hu' }, 'https://evil.example');
      assert.equal(foreign.status, 403, foreign.raw);
      assert.equal((await asMember(h.app, m.cookie, 'GET', '/session')).body.data.member.language, 'en');
    });
  });
}
