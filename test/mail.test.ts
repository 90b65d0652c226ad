/**
 * Invitation mail (SMTP_URL) through a real SMTP server in this process (the smtp-server package):
 * the mail reaches the invited address from MAIL_FROM with the accept link; a server that refuses
 * costs the mail, never the invitation; and neither the token nor the link reaches a log line.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.ts';
import { createLogger } from '../src/logger.ts';
import { dbTargets } from './helpers/databases.ts';
import { admin, adminOk, call, startHarness, type Harness } from './helpers/harness.ts';
import { createBusiness } from './helpers/fixtures.ts';
import { accept, tokenOf } from './helpers/invitations.ts';
import { findLeaks } from './helpers/log-scan.ts';
import { decodedText, startSmtp } from './helpers/smtp.ts';

const FROM = 'Salon Bookings <bookings@salon.example>';
let n = 0;
const freshEmail = () => `mail-${process.pid}-${Date.now().toString(36)}-${++n}@example.com`;

describe('mail settings', () => {
  test('SMTP_URL takes smtp: and smtps: only; MAIL_FROM defaults to bookings@ the public host (guest-side.md)', () => {
    assert.equal(loadConfig({ SMTP_URL: 'smtps://u:p@mail.example:465' }).smtpUrl, 'smtps://u:p@mail.example:465');
    assert.equal(loadConfig({}).smtpUrl, undefined);
    assert.throws(() => loadConfig({ SMTP_URL: 'http://mail.example' }), ConfigError);
    assert.throws(() => loadConfig({ MAIL_FROM: 'not an address' }), ConfigError);
    assert.equal(loadConfig({ PUBLIC_BASE_URL: 'https://book.example.com' }).mailFrom, 'bookings@book.example.com');
    assert.equal(loadConfig({}).mailFrom, 'bookings@localhost');
    assert.equal(loadConfig({ MAIL_FROM: FROM }).mailFrom, FROM);
  });
});

for (const target of dbTargets()) {
  describe(`invitation mail [${target.name}]`, () => {
    let smtp: Awaited<ReturnType<typeof startSmtp>>;
    let refusing: Awaited<ReturnType<typeof startSmtp>>;
    let h: Harness;
    let down: Harness;
    let lines = '';
    before(async () => {
      smtp = await startSmtp();
      refusing = await startSmtp(true);
      const sink = new Writable({
        write(chunk, _enc, done) {
          lines += String(chunk);
          done();
        },
      });
      h = await startHarness(target, { smtpUrl: smtp.url, mailFrom: FROM }, { logger: createLogger('trace', sink) });
      down = await startHarness(target, { smtpUrl: refusing.url, mailFrom: FROM }, { logger: createLogger('trace', sink) });
    });
    after(async () => {
      await h.close();
      await down.close();
      await smtp.close();
      await refusing.close();
    });

    test('the invited address gets the mail from MAIL_FROM with the accept link, which works', async () => {
      const biz = await createBusiness(h.app);
      const email = freshEmail();
      const inv = (await adminOk(h.app, 'POST', `/businesses/${biz.slug}/invitations`, { email, role: 'manager' })).invitation;
      assert.equal(inv.mailSent, true);
      const mail = smtp.mails.find((m) => m.to.includes(email));
      assert.ok(mail, `no mail to ${email}: ${JSON.stringify(smtp.mails.map((m) => m.to))}`);
      assert.deepEqual(mail.to, [email]);
      assert.equal(mail.from, 'bookings@salon.example');
      assert.match(mail.raw, /^From: Salon Bookings <bookings@salon\.example>\r?$/m);
      assert.match(mail.raw, new RegExp(`^To: ${email.replace(/[.]/g, '\\.')}\\r?$`, 'm'));
      assert.match(mail.raw, new RegExp(`^Subject: You are invited to Salon ${biz.slug}\\r?$`, 'm'));
      const text = decodedText(mail.raw);
      assert.ok(text.includes(inv.acceptUrl), `the mail holds the link:\n${text}`);
      const r = await accept(h.app, { token: tokenOf(inv.acceptUrl), password: 'a long enough password' });
      assert.equal(r.status, 200, r.raw);
    });

    test('a server that refuses the mail: the invitation stands with mailSent false, a warning is logged', async () => {
      const biz = await createBusiness(down.app);
      const email = freshEmail();
      const r = await admin(down.app, 'POST', `/businesses/${biz.slug}/invitations`, { email, role: 'owner' });
      assert.equal(r.status, 200, r.raw);
      assert.equal(r.body.data.invitation.mailSent, false);
      assert.equal(refusing.mails.length, 0);
      const listed = (await adminOk(down.app, 'GET', `/businesses/${biz.slug}/invitations`)).invitations;
      assert.deepEqual(
        listed.map((i: any) => i.email),
        [email],
      );
      assert.match(lines, /invitation mail not sent/);
      assert.equal(
        (await accept(down.app, { token: tokenOf(r.body.data.invitation.acceptUrl), password: 'a long enough password' })).status,
        200,
      );
    });

    test('no log line holds an invitation token or link, even when the accept page URL itself is requested', async () => {
      const biz = await createBusiness(h.app);
      const inv = (await adminOk(h.app, 'POST', `/businesses/${biz.slug}/invitations`, { email: freshEmail(), role: 'owner' })).invitation;
      const token = tokenOf(inv.acceptUrl);
      // what a browser following the link sends first, and a refused acceptance with the token in its body
      await call(h.app, { method: 'GET', url: `/dashboard/accept-invitation?token=${token}` });
      await call(h.app, { method: 'POST', url: '/admin/v1/invitations/accept', payload: { token, name: 'x', password: 'short' } });
      const ok = await accept(h.app, { token, password: 'a long enough password' });
      assert.equal(ok.status, 200, ok.raw);
      assert.match(lines, /accept-invitation\?token=\[redacted\]/, 'the request line is logged, its token masked');
      assert.deepEqual(findLeaks(lines, [{ name: 'invitation token', value: token }]), []);
    });
  });
}
