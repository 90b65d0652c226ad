/**
 * Password reset in a real browser (Debian's Chromium through playwright-core, the real server on a
 * port with a real SMTP server beside it): `Forgot password?` on the sign-in page -> email -> the
 * link read from the mail the SMTP server received -> a new password -> signed in with it; the
 * session another browser held ends. At 390 px and by keyboard. Skipped, and said so, without
 * /usr/bin/chromium.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import {
  BROWSER_ARGS,
  CHROMIUM,
  CONTEXT_OPTIONS,
  cspViolations,
  type LiveServer,
  SKIP_BROWSER as skip,
  seriousViolations,
  signInThroughUi,
  startLiveServer,
} from './helpers/browser.ts';
import { createBusiness } from './helpers/fixtures.ts';
import { insertMember } from './helpers/members.ts';
import { waitFor } from './helpers/processes.ts';
import { linkIn, type SmtpSink, startSmtp } from './helpers/smtp.ts';

if (skip) console.log(`# ${skip}`);

if (skip) test('dashboard password reset in Chromium', { skip }, () => {});
else describeBrowser();

function describeBrowser() {
  describe('dashboard password reset in Chromium', () => {
    let smtp: SmtpSink;
    let server: LiveServer;
    let browser: Browser;
    const contexts: BrowserContext[] = [];
    const newContext = async (options: Partial<typeof CONTEXT_OPTIONS> = {}) => {
      const c = await browser.newContext({ ...CONTEXT_OPTIONS, ...options });
      c.setDefaultTimeout(15_000);
      contexts.push(c);
      return c;
    };

    before(async () => {
      smtp = await startSmtp();
      server = await startLiveServer({ smtpUrl: smtp.url });
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: BROWSER_ARGS });
    });

    after(async () => {
      for (const c of contexts) await c.close().catch(() => {});
      await browser?.close().catch(() => {});
      await server?.close();
      await smtp?.close();
    });

    test('Forgot password? -> email -> the mailed link -> a new password -> signed in with it; the old session elsewhere ends', async () => {
      const { app, db, base } = server;
      const biz = await createBusiness(app);
      const m = await insertMember(db, biz.id, 'owner');
      const newPassword = 'a fresh reset passphrase';

      // The account's owner is signed in on another computer.
      const elsewhere = await (await newContext()).newPage();
      await signInThroughUi(elsewhere, base, m.email, m.password);

      // A phone-sized window, driven by the keyboard.
      const phone = await newContext({ viewport: { width: 390, height: 844 } });
      const page = await phone.newPage();
      const csp = cspViolations(page);
      await page.goto(`${base}/dashboard/sign-in`);
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      await page.getByLabel('Password', { exact: true }).focus();
      await page.keyboard.press('Tab'); // Sign in
      await page.keyboard.press('Tab'); // Forgot password?
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Forgot password?');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Forgot password', level: 1 }).waitFor();
      assert.deepEqual(await seriousViolations(page), [], 'the forgot-password page');
      await page.getByRole('textbox', { name: 'Email' }).focus();
      await page.keyboard.type(m.email);
      await page.keyboard.press('Enter');
      await page
        .getByRole('status')
        .getByText(/If an account exists for this email, we sent a link/)
        .waitFor();
      assert.ok(await noHorizontalScroll(page), 'no sideways scrolling at 390 px');

      await waitFor('the reset mail', async () => smtp.mails.some((x) => x.to.includes(m.email)), 15_000);
      const link = linkIn(smtp.mails.find((x) => x.to.includes(m.email))!, `${base}/dashboard/reset-password?token=`);

      await page.goto(link);
      await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
      await waitFor('the token left the address bar', async () => !page.url().includes('token='), 5_000);
      assert.deepEqual(await seriousViolations(page), [], 'the reset page');
      // The API's words beside the field for a short password; the link stays usable.
      await page.getByLabel('New password').fill('short');
      await page.getByLabel('Confirm password').fill('short');
      await page.getByRole('button', { name: 'Set new password' }).click();
      const tooShort = page.getByRole('alert');
      await tooShort.waitFor();
      assert.match((await tooShort.textContent()) ?? '', /password/i);
      await page.getByLabel('New password').focus();
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type(newPassword);
      await page.keyboard.press('Tab');
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type(newPassword);
      await page.keyboard.press('Enter');

      await page.getByText('Your password was changed; sign in.').waitFor();
      assert.ok(await noHorizontalScroll(page), 'no sideways scrolling at 390 px');
      assert.deepEqual(await seriousViolations(page), [], 'the sign-in page with its notice');
      await page.getByRole('textbox', { name: 'Email' }).fill(m.email);
      await page.getByLabel('Password', { exact: true }).fill(newPassword);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
      assert.deepEqual(csp, [], 'no CSP violation');

      // The other computer's session ended with the reset: its next load shows the sign-in page.
      await elsewhere.reload();
      await elsewhere.getByRole('button', { name: 'Sign in' }).waitFor();
      const gone = await elsewhere.evaluate(() => fetch('/admin/v1/session').then((r) => r.status));
      assert.equal(gone, 401);
    });

    test('a server without mail says so in plain words on the forgot-password page', async () => {
      const plain = await startLiveServer();
      try {
        const page = await (await newContext()).newPage();
        await page.goto(`${plain.base}/dashboard/forgot-password`);
        await page.getByRole('textbox', { name: 'Email' }).fill('someone@example.com');
        await page.getByRole('button', { name: 'Send reset link' }).click();
        await page.getByRole('alert').getByText('Password reset by email is not set up on this server; ask your administrator.').waitFor();
      } finally {
        await plain.close();
      }
    });
  });
}

function noHorizontalScroll(page: import('playwright-core').Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
}
