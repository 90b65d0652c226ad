/**
 * Invitations (business-side.md "Accounts and sessions"): the platform operator or an owner invites,
 * the link is single use and 7 days valid, acceptance creates the account or joins an existing one,
 * signs in, and is one transaction that exactly one of two racing acceptances wins.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { dbTargets } from './helpers/databases.ts';
import { admin, adminOk, startHarness, type Harness } from './helpers/harness.ts';
import { createBusiness } from './helpers/fixtures.ts';
import { accept, invite, invitedMember, tokenOf } from './helpers/invitations.ts';
import { asMember, cookiePair, memberCookie } from './helpers/members.ts';

function assertError(r: { status: number; body: any; raw: string }, status: number, code: string): void {
  assert.equal(r.status, status, r.raw);
  assert.equal(r.body.ok, false, r.raw);
  assert.equal(r.body.error.code, code, r.raw);
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
let n = 0;
const freshEmail = () => `invitee-${process.pid}-${Date.now().toString(36)}-${++n}@example.com`;
const PASSWORD = 'a long enough password';

for (const target of dbTargets()) {
  describe(`invitations [${target.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(target);
    });
    after(() => h.close());

    test('a removed member cannot come back through a second open link, nor a demoted owner through one they sent', async () => {
      const biz = await createBusiness(h.app);
      const owner = await invitedMember(h.app, biz.slug, 'owner');
      // A resend: two open links to one address, the second with a higher role.
      const email = freshEmail();
      const first = await invite(h.app, biz.slug, email, 'manager');
      const second = await invite(h.app, biz.slug, email.toUpperCase(), 'owner').catch(() => undefined);
      const joined = await accept(h.app, { token: tokenOf(first.acceptUrl), password: PASSWORD });
      assert.equal(joined.status, 200, joined.raw);
      if (second) {
        // Accepting one link spends the others to the same address.
        assertError(await accept(h.app, { token: tokenOf(second.acceptUrl), password: PASSWORD }), 404, 'request.not_found');
      }
      const third = await asMember(h.app, owner.cookie, 'POST', `/businesses/${biz.slug}/invitations`, {
        email: freshEmail(),
        role: 'owner',
      });
      assert.equal(third.status, 200, third.raw);
      const member = joined.body.data.member.id;
      // An owner-made link to an address the member holds is withdrawn when the member is removed.
      const pending = await invite(h.app, biz.slug, freshEmail(), 'owner');
      await h.db.query('UPDATE invitations SET email = $2 WHERE id = $1', [pending.id, email]);
      assert.equal((await admin(h.app, 'DELETE', `/businesses/${biz.slug}/members/${member}`)).status, 200);
      assertError(await accept(h.app, { token: tokenOf(pending.acceptUrl), password: PASSWORD }), 404, 'request.not_found');

      // The owner's own invitation (to an address of theirs) ends when they stop being an owner.
      const other = await invitedMember(h.app, biz.slug, 'owner');
      assert.equal((await admin(h.app, 'PATCH', `/businesses/${biz.slug}/members/${owner.userId}`, { role: 'frontDesk' })).status, 200);
      assertError(
        await accept(h.app, { token: tokenOf(third.body.data.invitation.acceptUrl), password: PASSWORD }),
        404,
        'request.not_found',
      );
      const open = (await adminOk(h.app, 'GET', `/businesses/${biz.slug}/invitations`)).invitations;
      assert.deepEqual(open, []);
      assert.ok(other.userId);
    });

    test('the platform operator invites the first owner: the link is returned once, only its hash is stored', async () => {
      const biz = await createBusiness(h.app);
      const email = freshEmail();
      const r = await admin(h.app, 'POST', `/businesses/${biz.slug}/invitations`, { email: email.toUpperCase(), role: 'owner' });
      assert.equal(r.status, 200, r.raw);
      const inv = r.body.data.invitation;
      assert.deepEqual(Object.keys(inv).sort(), ['acceptUrl', 'createdAt', 'email', 'expiresAt', 'id', 'mailSent', 'role']);
      assert.equal(inv.email, email, 'stored lower-cased');
      assert.equal(inv.role, 'owner');
      assert.equal(inv.mailSent, false, 'no SMTP_URL: no mail');
      assert.ok(inv.acceptUrl.startsWith(`${h.app.ctx.config.publicBaseUrl}/dashboard/accept-invitation?token=`), inv.acceptUrl);
      const token = tokenOf(inv.acceptUrl);
      assert.match(token, /^[A-Za-z0-9_-]{43}$/);
      const days = (Date.parse(inv.expiresAt) - Date.parse(inv.createdAt)) / 86_400_000;
      assert.ok(Math.abs(days - 7) < 0.01, `valid 7 days, got ${days}`);
      const row = (await h.db.query<any>('SELECT * FROM invitations WHERE id = $1', [inv.id])).rows[0];
      assert.equal(row.token_hash, sha256(token));
      assert.ok(!JSON.stringify(row).includes(token), 'the token itself is stored nowhere');

      const list = await admin(h.app, 'GET', `/businesses/${biz.slug}/invitations`);
      assert.equal(list.status, 200, list.raw);
      assert.deepEqual(list.body.data.invitations, [
        { id: inv.id, email, role: 'owner', createdAt: inv.createdAt, expiresAt: inv.expiresAt },
      ]);
      assert.ok(!list.raw.includes(token), 'the list never carries a token');
    });

    test('accepting creates the account, makes the membership, signs in; the link then is used up', async () => {
      const biz = await createBusiness(h.app);
      const email = freshEmail();
      const inv = await invite(h.app, biz.slug, email, 'owner');
      const token = tokenOf(inv.acceptUrl);
      const r = await accept(h.app, { token, name: '  Olga Owner ', password: PASSWORD });
      assert.equal(r.status, 200, r.raw);
      assert.deepEqual(r.body.data.member, {
        id: r.body.data.member.id,
        email,
        name: 'Olga Owner',
        language: 'en',
        memberships: [{ salonSlug: biz.slug, businessName: `Salon ${biz.slug}`, role: 'owner' }],
      });
      const setCookie = String(r.headers['set-cookie']);
      assert.match(setCookie, /^bk_session=[A-Za-z0-9_-]{43};/);
      assert.match(setCookie, /; HttpOnly/i);
      assert.match(setCookie, /; SameSite=Lax/i);
      assert.match(setCookie, /; Path=\//);
      for (const secret of [token, PASSWORD, 'scrypt$', cookiePair(r.headers['set-cookie']).split('=')[1]!]) {
        assert.ok(!r.raw.includes(secret), `the answer carries no ${secret.slice(0, 8)}…`);
      }
      const cookie = cookiePair(r.headers['set-cookie']);
      const session = await asMember(h.app, cookie, 'GET', '/session');
      assert.equal(session.status, 200, session.raw);
      assert.equal(session.body.data.member.id, r.body.data.member.id);
      // the new owner may act as owner at once
      const members = await asMember(h.app, cookie, 'GET', `/businesses/${biz.slug}/members`);
      assert.equal(members.status, 200, members.raw);
      assert.deepEqual(
        members.body.data.members.map((m: any) => [m.email, m.role]),
        [[email, 'owner']],
      );
      const user = (await h.db.query<any>('SELECT password_hash FROM users WHERE email = $1', [email])).rows[0];
      assert.match(user.password_hash, /^scrypt\$/);
      const row = (await h.db.query<any>('SELECT accepted_at, accepted_by FROM invitations WHERE id = $1', [inv.id])).rows[0];
      assert.ok(row.accepted_at);
      assert.equal(row.accepted_by, r.body.data.member.id);
      // single use: the second acceptance fails, and the accepted one is no longer listed
      assertError(await accept(h.app, { token, password: PASSWORD }), 404, 'request.not_found');
      assert.deepEqual((await adminOk(h.app, 'GET', `/businesses/${biz.slug}/invitations`)).invitations, []);
      // and the account signs in with its password
      const signIn = await h.app.inject({ method: 'POST', url: '/admin/v1/session', payload: { email, password: PASSWORD } });
      assert.equal(signIn.statusCode, 200, signIn.body);
    });

    test('an expired, a withdrawn, an unknown and a malformed token all answer 404 request.not_found', async () => {
      const biz = await createBusiness(h.app);
      const expired = await invite(h.app, biz.slug, freshEmail(), 'manager');
      await h.db.query(`UPDATE invitations SET expires_at = now() - interval '1 second' WHERE id = $1`, [expired.id]);
      const withdrawn = await invite(h.app, biz.slug, freshEmail(), 'frontDesk');
      const w = await admin(h.app, 'DELETE', `/invitations/${withdrawn.id}`);
      assert.equal(w.status, 200, w.raw);
      assert.equal(w.body.data.invitation.id, withdrawn.id);
      assert.equal(typeof w.body.data.invitation.withdrawnAt, 'string');
      assert.ok(!w.raw.includes(tokenOf(withdrawn.acceptUrl)));
      assertError(await admin(h.app, 'DELETE', `/invitations/${withdrawn.id}`), 404, 'request.not_found');
      assertError(await admin(h.app, 'DELETE', `/invitations/${expired.id}`), 404, 'request.not_found');
      assertError(await admin(h.app, 'DELETE', '/invitations/inv_unknown'), 404, 'request.not_found');
      for (const token of [tokenOf(expired.acceptUrl), tokenOf(withdrawn.acceptUrl), 'A'.repeat(43), 'not-a-token']) {
        assertError(await accept(h.app, { token, password: PASSWORD }), 404, 'request.not_found');
      }
      assert.deepEqual((await adminOk(h.app, 'GET', `/businesses/${biz.slug}/invitations`)).invitations, []);
      const users = await h.db.query('SELECT 1 FROM users WHERE email IN ($1, $2)', [expired.email, withdrawn.email]);
      assert.equal(users.rows.length, 0, 'no account was made');
    });

    test('a password under 10 characters is refused, naming body.password; the link stays usable', async () => {
      const biz = await createBusiness(h.app);
      const inv = await invite(h.app, biz.slug, freshEmail(), 'owner');
      const r = await accept(h.app, { token: tokenOf(inv.acceptUrl), password: '123456789' });
      assertError(r, 400, 'request.validation_failed');
      assert.ok(
        r.body.error.details.issues.some((i: any) => i.path === 'body.password'),
        JSON.stringify(r.body.error.details),
      );
      assert.equal((await accept(h.app, { token: tokenOf(inv.acceptUrl), password: '1234567890' })).status, 200);
    });

    test('an existing account joins with its own password; a wrong one is 401 and leaves the link open', async () => {
      const first = await createBusiness(h.app);
      const second = await createBusiness(h.app);
      const m = await invitedMember(h.app, first.slug, 'frontDesk');
      const inv = await invite(h.app, second.slug, m.email.toUpperCase(), 'manager');
      const token = tokenOf(inv.acceptUrl);
      assertError(await accept(h.app, { token, password: 'not the password at all' }), 401, 'auth.invalid_key');
      assert.equal((await adminOk(h.app, 'GET', `/businesses/${second.slug}/invitations`)).invitations.length, 1, 'still open');
      const r = await accept(h.app, { token, name: 'Another Name', password: m.password });
      assert.equal(r.status, 200, r.raw);
      assert.equal(r.body.data.member.id, m.userId, 'the same account');
      assert.equal(r.body.data.member.name, 'Invited Person', 'the existing name is kept');
      assert.deepEqual(
        r.body.data.member.memberships.map((x: any) => [x.salonSlug, x.role]).sort(),
        [
          [first.slug, 'frontDesk'],
          [second.slug, 'manager'],
        ].sort(),
      );
      const hashes = await h.db.query('SELECT 1 FROM users WHERE email = $1', [m.email]);
      assert.equal(hashes.rows.length, 1);
    });

    test('an email that is already a member cannot be invited again (400 body.email); a role changes with PATCH', async () => {
      const biz = await createBusiness(h.app);
      const m = await invitedMember(h.app, biz.slug, 'manager');
      const r = await admin(h.app, 'POST', `/businesses/${biz.slug}/invitations`, { email: m.email, role: 'owner' });
      assertError(r, 400, 'request.validation_failed');
      assert.equal(r.body.error.details.issues[0].path, 'body.email');
    });

    test('accepting one of two links to one address spends the other; a member keeps their role', async () => {
      const biz = await createBusiness(h.app);
      const email = freshEmail();
      const early = await invite(h.app, biz.slug, email, 'owner');
      const late = await invite(h.app, biz.slug, email, 'frontDesk');
      const joined = await accept(h.app, { token: tokenOf(late.acceptUrl), password: PASSWORD });
      assert.equal(joined.status, 200, joined.raw);
      assert.deepEqual(joined.body.data.member.memberships, [
        { salonSlug: biz.slug, businessName: `Salon ${biz.slug}`, role: 'frontDesk' },
      ]);
      assertError(await accept(h.app, { token: tokenOf(early.acceptUrl), password: PASSWORD }), 404, 'request.not_found');
      assert.equal(
        (await asMember(h.app, cookiePair(joined.headers['set-cookie']), 'GET', '/session')).body.data.member.memberships[0].role,
        'frontDesk',
      );
    });

    test('two acceptances of one token at once: exactly one wins, one account, one membership', async () => {
      const biz = await createBusiness(h.app);
      const email = freshEmail();
      const inv = await invite(h.app, biz.slug, email, 'manager');
      const token = tokenOf(inv.acceptUrl);
      const results = await Promise.all([1, 2, 3].map(() => accept(h.app, { token, password: PASSWORD })));
      const statuses = results.map((r) => r.status).sort();
      assert.deepEqual(statuses, [200, 404, 404], results.map((r) => r.raw).join('\n'));
      const users = await h.db.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [email]);
      assert.equal(users.rows.length, 1);
      const memberships = await h.db.query('SELECT 1 FROM memberships WHERE user_id = $1', [users.rows[0]!.id]);
      assert.equal(memberships.rows.length, 1);
      const sessions = await h.db.query('SELECT 1 FROM member_sessions WHERE user_id = $1', [users.rows[0]!.id]);
      assert.equal(sessions.rows.length, 1, 'only the winner was signed in');
    });

    test('owners invite and withdraw in their own business only; other roles may not', async () => {
      const biz = await createBusiness(h.app);
      const other = await createBusiness(h.app);
      const owner = await memberCookie(h.app, h.db, biz.id, 'owner');
      const manager = await memberCookie(h.app, h.db, biz.id, 'manager');
      const created = await asMember(h.app, owner.cookie, 'POST', `/businesses/${biz.slug}/invitations`, {
        email: freshEmail(),
        role: 'manager',
      });
      assert.equal(created.status, 200, created.raw);
      const row = (await h.db.query<any>('SELECT invited_by FROM invitations WHERE id = $1', [created.body.data.invitation.id])).rows[0];
      assert.equal(row.invited_by, owner.userId);
      const listed = await asMember(h.app, owner.cookie, 'GET', `/businesses/${biz.slug}/invitations`);
      assert.equal(listed.status, 200, listed.raw);
      assert.equal(listed.body.data.invitations.length, 1);

      const denied = await asMember(h.app, manager.cookie, 'POST', `/businesses/${biz.slug}/invitations`, {
        email: freshEmail(),
        role: 'owner',
      });
      assertError(denied, 403, 'auth.insufficient_capability');
      assert.deepEqual(denied.body.error.details.required, ['owner']);
      assertError(await asMember(h.app, manager.cookie, 'GET', `/businesses/${biz.slug}/invitations`), 403, 'auth.insufficient_capability');
      assertError(
        await asMember(h.app, manager.cookie, 'DELETE', `/invitations/${created.body.data.invitation.id}`),
        403,
        'auth.insufficient_capability',
      );

      const foreign = await invite(h.app, other.slug, freshEmail(), 'owner');
      assertError(await asMember(h.app, owner.cookie, 'DELETE', `/invitations/${foreign.id}`), 403, 'auth.scope_mismatch');
      assertError(
        await asMember(h.app, owner.cookie, 'POST', `/businesses/${other.slug}/invitations`, { email: freshEmail(), role: 'owner' }),
        403,
        'auth.scope_mismatch',
      );
      const withdrawn = await asMember(h.app, owner.cookie, 'DELETE', `/invitations/${created.body.data.invitation.id}`);
      assert.equal(withdrawn.status, 200, withdrawn.raw);
      assert.equal((await adminOk(h.app, 'GET', `/businesses/${other.slug}/invitations`)).invitations.length, 1, 'untouched');
    });

    test('an acceptance posted from a foreign page is 403 auth.origin_denied and changes nothing', async () => {
      const biz = await createBusiness(h.app);
      const inv = await invite(h.app, biz.slug, freshEmail(), 'owner');
      assertError(
        await accept(h.app, { token: tokenOf(inv.acceptUrl), password: PASSWORD }, 'https://evil.example'),
        403,
        'auth.origin_denied',
      );
      // curl and servers name no origin and pass
      assert.equal((await accept(h.app, { token: tokenOf(inv.acceptUrl), password: PASSWORD }, null)).status, 200);
    });

    test('an unknown business is 404 for the platform operator', async () => {
      assertError(
        await admin(h.app, 'POST', '/businesses/no-such-business/invitations', { email: freshEmail(), role: 'owner' }),
        404,
        'request.not_found',
      );
      assertError(await admin(h.app, 'GET', '/businesses/no-such-business/invitations'), 404, 'request.not_found');
    });
  });
}
