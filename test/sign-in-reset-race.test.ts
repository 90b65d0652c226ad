/**
 * A sign-in with the old password that races a password reset gets no session that outlives the
 * reset (src/store/member-sessions.ts insertSession): the reset's transaction has set the new hash
 * and ended the sessions but not yet committed while the sign-in checks the old password and makes
 * its session. PostgreSQL only: PGlite has one connection, so the two cannot interleave there.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { hashPassword } from '../src/domain/members/password.ts';
import { endSessionsOfUser } from '../src/store/member-sessions.ts';
import { setPasswordHash } from '../src/store/users.ts';
import { dbTargets } from './helpers/databases.ts';
import { createBusiness } from './helpers/fixtures.ts';
import { call, startHarness, type Harness } from './helpers/harness.ts';
import { insertMember } from './helpers/members.ts';

for (const target of dbTargets()) {
  describe(`sign-in racing a password reset [${target.name}]`, {
    skip: target.name === 'pglite' && 'one connection: nothing can interleave',
  }, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(target);
    });
    after(() => h?.close());

    test('the old password makes no session once the reset commits', async () => {
      const business = await createBusiness(h.app);
      const member = await insertMember(h.db, business.id, 'owner');
      const newHash = await hashPassword('the owner took it back');
      let resetWrote!: () => void;
      const wrote = new Promise<void>((r) => (resetWrote = r));
      let commit!: () => void;
      const committing = new Promise<void>((r) => (commit = r));
      // What confirmPasswordReset does, held open before its commit.
      const reset = h.db.transaction(async (tx) => {
        await setPasswordHash(tx, member.userId, newHash);
        await endSessionsOfUser(tx, member.userId);
        resetWrote();
        await committing;
      });
      await wrote;
      const signIn = call(h.app, { method: 'POST', url: '/admin/v1/session', payload: { email: member.email, password: member.password } });
      // Long enough for the sign-in's scrypt check (~0.1 s) and its session statement to be reached.
      await new Promise((r) => setTimeout(r, 1500));
      commit();
      await reset;
      const r = await signIn;
      assert.equal(r.status, 401, r.raw);
      const left = await h.db.query('SELECT count(*)::int AS n FROM member_sessions WHERE user_id = $1', [member.userId]);
      assert.equal(left.rows[0]?.n, 0, 'no session made with the old password');
    });
  });
}
