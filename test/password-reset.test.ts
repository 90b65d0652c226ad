/**
 * Password reset by mail (members-and-sessions.md "Password reset") through a real SMTP server in
 * this process: the link mailed to the account, the new password set once, every earlier session
 * ended, expiry, the same answer for an unknown email, the limits, the 503 without SMTP_URL, the
 * login-CSRF rule; and an invitation acceptance with a wrong password answering as sign-in does.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import type { App } from '../src/http/context.ts';
import { createLogger } from '../src/logger.ts';
import { dbTargets } from './helpers/databases.ts';
import { call, startHarness, type Harness } from './helpers/harness.ts';
import { createBusiness } from './helpers/fixtures.ts';
import { accept, invite, invitedMember, tokenOf } from './helpers/invitations.ts';
import { findLeaks } from './helpers/log-scan.ts';
import { asMember, insertMember, ownOrigin, signIn } from './helpers/members.ts';
import { waitFor } from './helpers/processes.ts';
import { linkIn, startSmtp, type SmtpSink } from './helpers/smtp.ts';

function assertError(r: { status: number; body: any; raw: string }, status: number, code: string): void {
  assert.equal(r.status, status, r.raw);
  assert.equal(r.body.ok, false, r.raw);
  assert.equal(r.body.error.code, code, r.raw);
}

const NEW_PASSWORD = 'a brand new passphrase';

function requestReset(app: App, email: string, extra: { origin?: string | null; remoteAddress?: string } = {}) {
  const origin = extra.origin === undefined ? ownOrigin(app) : extra.origin;
  return call(app, {
    method: 'POST',
    url: '/admin/v1/password-reset',
    headers: origin === null ? {} : { origin },
    payload: { email },
    ...(extra.remoteAddress ? { remoteAddress: extra.remoteAddress } : {}),
  });
}

function confirmReset(app: App, token: string, password = NEW_PASSWORD, origin: string | null = ownOrigin(app)) {
  return call(app, {
    method: 'POST',
    url: '/admin/v1/password-reset/confirm',
    headers: origin === null ? {} : { origin },
    payload: { token, password },
  });
}

/** Asks for a reset and waits for the mail; answers the token of its link. */
async function mailedToken(app: App, smtp: SmtpSink, email: string): Promise<string> {
  const before = smtp.mails.filter((m) => m.to.includes(email)).length;
  const r = await requestReset(app, email);
  assert.equal(r.status, 202, r.raw);
  await waitFor(`the reset mail to ${email}`, async () => smtp.mails.filter((m) => m.to.includes(email)).length > before, 10_000);
  const mail = smtp.mails.filter((m) => m.to.includes(email)).at(-1)!;
  return tokenOf(linkIn(mail, `${app.ctx.config.publicBaseUrl}/dashboard/reset-password?token=`));
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

for (const target of dbTargets()) {
  describe(`password reset by mail [${target.name}]`, () => {
    let smtp: SmtpSink;
    let h: Harness;
    let noMail: Harness;
    let lines = '';
    before(async () => {
      smtp = await startSmtp();
      const sink = new Writable({
        write(chunk, _enc, done) {
          lines += String(chunk);
          done();
        },
      });
      h = await startHarness(target, { smtpUrl: smtp.url }, { logger: createLogger('trace', sink) });
      noMail = await startHarness(target);
    });
    after(async () => {
      await h.close();
      await noMail.close();
      await smtp.close();
    });

    test('request -> the link by mail -> new password: earlier sessions end, the new password signs in, the old one fails', async () => {
      const biz = await createBusiness(h.app);
      const m = await insertMember(h.db, biz.id, 'owner');
      const cookies = [await signIn(h.app, m.email, m.password), await signIn(h.app, m.email, m.password)];
      for (const c of cookies) assert.equal((await asMember(h.app, c, 'GET', '/session')).status, 200);

      const r = await requestReset(h.app, m.email.toUpperCase());
      assert.equal(r.status, 202, r.raw);
      assert.deepEqual(r.body.data, { accepted: true });
      await waitFor('the reset mail', async () => smtp.mails.some((x) => x.to.includes(m.email)), 10_000);
      const mail = smtp.mails.find((x) => x.to.includes(m.email))!;
      assert.deepEqual(mail.to, [m.email]);
      assert.match(mail.raw, /^Subject: Reset your password\r?$/m);
      const link = linkIn(mail, `${h.app.ctx.config.publicBaseUrl}/dashboard/reset-password?token=`);
      const token = tokenOf(link);
      assert.match(token, /^[A-Za-z0-9_-]{43}$/, 'a 32-byte base64url token');

      // Only its hash is stored, valid one hour.
      const stored = await h.db.query<{ token_hash: string; valid: number }>(
        `SELECT r.token_hash, EXTRACT(EPOCH FROM r.expires_at - r.created_at)::int AS valid
           FROM password_resets r JOIN users u ON u.id = r.user_id WHERE u.email = $1`,
        [m.email],
      );
      assert.deepEqual(stored.rows, [{ token_hash: sha256(token), valid: 3600 }]);

      const done = await confirmReset(h.app, token);
      assert.equal(done.status, 200, done.raw);
      assert.deepEqual(done.body.data, { passwordChanged: true });
      assert.equal(done.headers['set-cookie'], undefined, 'the confirmation does not sign in');

      for (const c of cookies) assertError(await asMember(h.app, c, 'GET', '/session'), 401, 'auth.invalid_key');
      const old = await call(h.app, { method: 'POST', url: '/admin/v1/session', payload: { email: m.email, password: m.password } });
      assertError(old, 401, 'auth.invalid_key');
      await signIn(h.app, m.email, NEW_PASSWORD);
    });

    test('a link works once; the other open links of the account are spent with it; unknown, used and expired answer alike', async () => {
      const biz = await createBusiness(h.app);
      const m = await insertMember(h.db, biz.id, 'manager');
      const first = await mailedToken(h.app, smtp, m.email);
      const second = await mailedToken(h.app, smtp, m.email);
      assert.notEqual(first, second);
      assert.equal((await confirmReset(h.app, first)).status, 200);
      const again = await confirmReset(h.app, first, 'yet another passphrase');
      assertError(again, 404, 'request.not_found');
      const other = await confirmReset(h.app, second, 'yet another passphrase');
      assertError(other, 404, 'request.not_found');
      const unknown = await confirmReset(h.app, 'A'.repeat(43));
      assertError(unknown, 404, 'request.not_found');
      const malformed = await confirmReset(h.app, 'not a token');
      assert.equal(again.body.error.message, unknown.body.error.message);
      assert.equal(malformed.body.error.message, unknown.body.error.message);
      assert.match(unknown.body.error.message, /not valid/);
      await signIn(h.app, m.email, NEW_PASSWORD);
    });

    test('a link older than an hour is refused and changes nothing', async () => {
      const biz = await createBusiness(h.app);
      const m = await insertMember(h.db, biz.id, 'frontDesk');
      const token = await mailedToken(h.app, smtp, m.email);
      await h.db.query(
        `UPDATE password_resets SET created_at = created_at - interval '61 minutes', expires_at = expires_at - interval '61 minutes'
          WHERE token_hash = $1`,
        [sha256(token)],
      );
      assertError(await confirmReset(h.app, token), 404, 'request.not_found');
      await signIn(h.app, m.email, m.password);
    });

    test('two confirmations of one link at once: exactly one succeeds', async () => {
      const biz = await createBusiness(h.app);
      const m = await insertMember(h.db, biz.id, 'owner');
      const token = await mailedToken(h.app, smtp, m.email);
      const results = await Promise.all([
        confirmReset(h.app, token, 'racing passphrase one'),
        confirmReset(h.app, token, 'racing passphrase two'),
      ]);
      assert.deepEqual(results.map((r) => r.status).sort(), [200, 404], results.map((r) => r.raw).join('\n'));
      const winner = results[0]!.status === 200 ? 'racing passphrase one' : 'racing passphrase two';
      await signIn(h.app, m.email, winner);
    });

    test('an unknown email gets the identical 202 and no mail; no log line holds an email or a token', async () => {
      const biz = await createBusiness(h.app);
      const m = await insertMember(h.db, biz.id, 'owner');
      const nobody = `nobody-${process.pid}-${Date.now().toString(36)}@example.com`;
      const unknown = await requestReset(h.app, nobody);
      const known = await requestReset(h.app, m.email);
      assert.equal(unknown.status, 202, unknown.raw);
      assert.equal(known.status, 202, known.raw);
      const strip = (raw: string) => raw.replace(/"requestId":"[^"]+"/, '');
      assert.equal(strip(unknown.raw), strip(known.raw), 'the same body');
      assert.deepEqual(Object.keys(unknown.headers).sort(), Object.keys(known.headers).sort(), 'the same headers');
      // The known account's mail was asked for after the unknown one's lookup started.
      await waitFor('the reset mail', async () => smtp.mails.some((x) => x.to.includes(m.email)), 10_000);
      assert.equal(smtp.mails.filter((x) => x.to.includes(nobody)).length, 0, 'no mail to an address without an account');
      const token = tokenOf(
        linkIn(smtp.mails.find((x) => x.to.includes(m.email))!, `${h.app.ctx.config.publicBaseUrl}/dashboard/reset-password?token=`),
      );
      await confirmReset(h.app, token);
      assert.deepEqual(
        findLeaks(lines, [
          { name: 'reset token', value: token },
          { name: 'email', value: m.email },
          { name: 'unknown email', value: nobody },
        ]),
        [],
      );
    });

    test('a password under 10 characters is refused naming body.password; the link stays usable', async () => {
      const biz = await createBusiness(h.app);
      const m = await insertMember(h.db, biz.id, 'owner');
      const token = await mailedToken(h.app, smtp, m.email);
      const short = await confirmReset(h.app, token, '123456789');
      assertError(short, 400, 'request.validation_failed');
      assert.ok(
        short.body.error.details.issues.some((i: any) => i.path === 'body.password'),
        short.raw,
      );
      assert.equal((await confirmReset(h.app, token)).status, 200);
    });

    test('a foreign Origin is refused on both routes (login CSRF); none at all passes (curl)', async () => {
      const biz = await createBusiness(h.app);
      const m = await insertMember(h.db, biz.id, 'owner');
      assertError(await requestReset(h.app, m.email, { origin: 'https://evil.example' }), 403, 'auth.origin_denied');
      assertError(await confirmReset(h.app, 'A'.repeat(43), NEW_PASSWORD, 'https://evil.example'), 403, 'auth.origin_denied');
      assert.equal((await requestReset(h.app, m.email, { origin: null })).status, 202);
    });

    test('without SMTP_URL both routes answer 503 mail.not_configured', async () => {
      const biz = await createBusiness(noMail.app);
      const m = await insertMember(noMail.db, biz.id, 'owner');
      const r = await requestReset(noMail.app, m.email);
      assertError(r, 503, 'mail.not_configured');
      assert.equal(r.body.error.retryable, false);
      assertError(await confirmReset(noMail.app, 'A'.repeat(43)), 503, 'mail.not_configured');
      assert.equal(
        (await noMail.db.query('SELECT 1 FROM password_resets r JOIN users u ON u.id = r.user_id WHERE u.email = $1', [m.email])).rows
          .length,
        0,
      );
    });

    test('accepting an invitation to an existing account with a wrong password answers exactly as a wrong sign-in password', async () => {
      const first = await createBusiness(h.app);
      const second = await createBusiness(h.app);
      const m = await invitedMember(h.app, first.slug, 'owner');
      const inv = await invite(h.app, second.slug, m.email, 'manager');
      const accepted = await accept(h.app, { token: tokenOf(inv.acceptUrl), password: 'not the password at all' });
      const signedIn = await call(h.app, {
        method: 'POST',
        url: '/admin/v1/session',
        payload: { email: m.email, password: 'not the password at all' },
      });
      assertError(accepted, 401, 'auth.invalid_key');
      assert.deepEqual(accepted.body.error, signedIn.body.error);
    });
  });

  describe(`password reset limits (the real limiter) [${target.name}]`, () => {
    // A harness per test: the limits count per client address, and inject's is always 127.0.0.1.
    let smtp: SmtpSink;
    before(async () => {
      smtp = await startSmtp();
    });
    after(() => smtp.close());
    const limited = () => startHarness(target, { smtpUrl: smtp.url }, { rateLimitStore: undefined });

    test('5 requests per email per hour, from any address; the 6th is 429 with Retry-After; another email passes', async () => {
      const h = await limited();
      try {
        const email = `limited-${process.pid}-${Date.now().toString(36)}@example.com`;
        for (let i = 0; i < 5; i++) assert.equal((await requestReset(h.app, email, { remoteAddress: `203.0.113.${i + 1}` })).status, 202);
        const r = await requestReset(h.app, email, { remoteAddress: '203.0.113.99' });
        assertError(r, 429, 'rate_limit.exceeded');
        const retryAfter = Number(r.headers['retry-after']);
        assert.ok(retryAfter > 0 && retryAfter <= 3600, `Retry-After ${retryAfter}`);
        assert.equal((await requestReset(h.app, `other-${email}`, { remoteAddress: '203.0.113.99' })).status, 202);
      } finally {
        await h.close();
      }
    });

    test('closing the app waits for a reset mail still on its way', async () => {
      const h = await startHarness(target, { smtpUrl: smtp.url });
      const biz = await createBusiness(h.app);
      const m = await insertMember(h.db, biz.id, 'owner');
      assert.equal((await requestReset(h.app, m.email)).status, 202);
      await h.close();
      assert.equal(smtp.mails.filter((x) => x.to.includes(m.email)).length, 1, 'the mail went out before the app closed');
    });

    test('20 requests per client address per hour, whatever the emails; 20 confirmations per address per hour', async () => {
      const h = await limited();
      try {
        for (let i = 0; i < 20; i++) assert.equal((await requestReset(h.app, `spray-${i}-${Date.now()}@example.com`)).status, 202);
        assertError(await requestReset(h.app, `spray-last-${Date.now()}@example.com`), 429, 'rate_limit.exceeded');
        for (let i = 0; i < 20; i++) assertError(await confirmReset(h.app, 'B'.repeat(43)), 404, 'request.not_found');
        assertError(await confirmReset(h.app, 'B'.repeat(43)), 429, 'rate_limit.exceeded');
      } finally {
        await h.close();
      }
    });
  });
}
