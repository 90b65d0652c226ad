/**
 * The dashboard's Settings page (the business's guest settings, docs/guest-settings.md) in a real
 * browser: Debian's Chromium through playwright-core against the real server on a port, as the
 * other dashboard-*.e2e tests. An owner on a 390 px screen edits by keyboard, saves and reloads; a
 * refused value is explained beside its field in plain words; the front desk reads without
 * editing; `Open booking page` leads to /book/{slug}; axe-core (WCAG 2 A and AA) finds nothing.
 * Every save is checked through the API. Takes docs/screenshots/settings.png (into a temporary
 * folder unless SCREENSHOTS_DIR is set, as `npm run screenshots` does). Skipped, and said so,
 * without /usr/bin/chromium.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import axe from 'axe-core';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import {
  BROWSER_ARGS,
  CHROMIUM,
  CONTEXT_OPTIONS,
  cspViolations,
  type LiveServer,
  SKIP_BROWSER as skip,
  signInThroughUi,
  startLiveServer,
} from './helpers/browser.ts';
import { createSalon, type SalonFixture } from './helpers/fixtures.ts';
import { adminOk } from './helpers/harness.ts';
import { insertMember } from './helpers/members.ts';

if (skip) console.log(`# ${skip}`);

if (skip) test('dashboard Settings page in Chromium', { skip }, () => {});
else describeBrowser();

function describeBrowser() {
  describe('dashboard Settings page in Chromium', () => {
    let server: LiveServer;
    let browser: Browser;
    let salon: SalonFixture;
    let owner: { email: string; password: string };
    let desk: { email: string; password: string };
    let manager: { email: string; password: string };
    let page: Page;
    let csp: string[];
    const contexts: BrowserContext[] = [];
    const phone = async () => {
      const c = await browser.newContext({ ...CONTEXT_OPTIONS, viewport: { width: 390, height: 844 } });
      c.setDefaultTimeout(15_000);
      contexts.push(c);
      return c.newPage();
    };
    // The picture docs/dashboard.md shows: a temporary folder in a test run (tests never write into
    // the repository), docs/screenshots/ under `npm run screenshots`.
    const SCREENSHOTS = process.env.SCREENSHOTS_DIR;
    const shots = SCREENSHOTS ?? mkdtempSync(join(tmpdir(), 'dashboard-settings-shots-'));
    const stored = async () => (await adminOk(server.app, 'GET', `/businesses/${salon.business.slug}/guest-settings`)).guestSettings;

    before(async () => {
      server = await startLiveServer();
      // A plan without text messages: the page must say why SMS cannot be turned on.
      salon = await createSalon(server.app, { subscription: { plan: 'pro', status: 'active', features: { smsNotifications: false } } });
      owner = await insertMember(server.db, salon.business.id, 'owner');
      desk = await insertMember(server.db, salon.business.id, 'frontDesk');
      manager = await insertMember(server.db, salon.business.id, 'manager');
      mkdirSync(shots, { recursive: true });
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: BROWSER_ARGS });
      page = await phone();
      csp = cspViolations(page);
      await signInThroughUi(page, server.base, owner.email, owner.password, `${salon.business.slug}/calendar`);
    });

    after(async () => {
      for (const c of contexts) await c.close().catch(() => {});
      await browser?.close().catch(() => {});
      await server?.close();
      if (!SCREENSHOTS) rmSync(shots, { recursive: true, force: true });
    });

    test('an owner at 390 px changes holdMinutes and the reminders by keyboard, saves, reloads and sees them', async () => {
      // at 390 px the links are behind Menu
      const nav = page.getByRole('navigation', { name: 'Main' });
      await nav.getByRole('button', { name: 'Menu' }).focus();
      await page.keyboard.press('Enter');
      const settingsLink = nav.getByRole('link', { name: 'Settings' });
      await settingsLink.focus();
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
      const hold = page.getByRole('spinbutton', { name: 'Hold a chosen time (minutes)' });
      await hold.waitFor();
      assert.equal(await hold.inputValue(), '10', 'the default is shown');
      assert.deepEqual(await wcagViolations(page), [], 'the Settings page');
      assert.ok(await noHorizontalScroll(page), 'no sideways scrolling at 390 px');

      const link = page.getByRole('link', { name: 'Open booking page', exact: true });
      assert.equal(await link.getAttribute('href'), `/book/${salon.business.slug}`);
      assert.equal(await link.evaluate((a) => (a as HTMLAnchorElement).href), `${server.base}/book/${salon.business.slug}`);

      // The plan lacks smsNotifications: the box cannot be ticked, and its description says why.
      const sms = page.getByRole('checkbox', { name: 'Text messages to guests' });
      assert.ok(await sms.isDisabled());
      assert.match(await description(sms), /plan does not include text messages/);

      await hold.focus();
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type('15');
      const first = page.getByRole('spinbutton', { name: 'Reminder 1 (minutes before)' });
      assert.equal(await first.inputValue(), '1440');
      await first.focus();
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type('120');
      assert.match(await description(first), /That is 2 hours\./);
      // `Add reminder` by keyboard puts the focus into the new field.
      await page.getByRole('button', { name: 'Add reminder' }).focus();
      await page.keyboard.press('Enter');
      const second = page.getByRole('spinbutton', { name: 'Reminder 2 (minutes before)' });
      await second.waitFor();
      assert.ok(await isFocused(second), 'the new reminder field has the focus');
      await page.keyboard.type('30');
      await page.keyboard.press('Enter'); // submits the form
      await page.getByRole('status').getByText('Settings saved.').waitFor();

      const saved = await stored();
      assert.equal(saved.holdMinutes, 15);
      assert.deepEqual(saved.notifications.reminders, [{ minutesBefore: 120 }, { minutesBefore: 30 }]);
      assert.equal(saved.guestCancel.noticeMinutes, 1440, 'a field left alone keeps its value');

      await page.reload();
      await hold.waitFor();
      assert.equal(await hold.inputValue(), '15');
      assert.equal(await first.inputValue(), '120');
      assert.equal(await second.inputValue(), '30');

      // Removing a reminder by keyboard, saved as the shorter list.
      await page.getByRole('button', { name: 'Remove reminder 2' }).focus();
      await page.keyboard.press('Enter');
      await second.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Save settings' }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('status').getByText('Settings saved.').waitFor();
      assert.deepEqual((await stored()).notifications.reminders, [{ minutesBefore: 120 }]);
      assert.deepEqual(csp, [], 'no CSP violation');
    });

    test('a refused value is explained beside its field in plain words, and nothing is saved', async () => {
      const hold = page.getByRole('spinbutton', { name: 'Hold a chosen time (minutes)' });
      await hold.fill('45');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByText('Enter a whole number of minutes from 1 to 30.').waitFor();
      assert.equal(await hold.getAttribute('aria-invalid'), 'true');
      assert.match(await description(hold), /Enter a whole number of minutes from 1 to 30\./);
      assert.ok(await isFocused(hold), 'the refused field has the focus');
      await page.screenshot({ path: join(shots, 'settings.png'), fullPage: true, clip: { x: 0, y: 0, width: 390, height: 1000 } });
      assert.doesNotMatch((await page.locator('main').textContent()) ?? '', /body\./, 'no JSON path is shown');
      assert.deepEqual(await wcagViolations(page), [], 'the page with a message');
      assert.equal((await stored()).holdMinutes, 15, 'nothing saved');

      // A website written with a path: the message is beside that website's field.
      await hold.fill('12');
      await page.getByRole('button', { name: 'Add website' }).click();
      const site = page.getByRole('textbox', { name: 'Website 1' });
      await site.fill('https://shop.example/booking');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByText(/Write the website as https:\/\/host/).waitFor();
      assert.equal(await site.getAttribute('aria-invalid'), 'true');
      assert.match(await description(site), /no path and no slash at the end/);
      assert.equal((await stored()).holdMinutes, 15, 'a refused save changes nothing');

      // Corrected: saved, and shown as stored (host in lower case, :443 dropped).
      await site.fill('https://Shop.Example:443');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByRole('status').getByText('Settings saved.').waitFor();
      assert.equal(await site.inputValue(), 'https://shop.example');
      assert.equal(await hold.getAttribute('aria-invalid'), null);
      const saved = await stored();
      assert.equal(saved.holdMinutes, 12);
      assert.deepEqual(saved.bookingPage.embedOrigins, ['https://shop.example']);

      // Quiet hours off is saved as null.
      await page.getByRole('checkbox', { name: 'Quiet hours on' }).uncheck();
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByRole('status').getByText('Settings saved.').waitFor();
      assert.equal((await stored()).notifications.quietHours, null);
    });

    test('a manager edits as an owner does', async () => {
      const managerPage = await phone();
      await signInThroughUi(managerPage, server.base, manager.email, manager.password, `${salon.business.slug}/settings`);
      const notice = managerPage.getByRole('spinbutton', { name: 'Cancel up to (minutes before)' });
      await notice.fill('120');
      await managerPage.getByRole('checkbox', { name: 'Guests may reschedule' }).uncheck();
      await managerPage.getByRole('button', { name: 'Save settings' }).click();
      await managerPage.getByRole('status').getByText('Settings saved.').waitFor();
      const saved = await stored();
      assert.deepEqual(saved.guestCancel, { allowed: true, noticeMinutes: 120 });
      assert.equal(saved.guestReschedule.allowed, false);
      assert.equal(saved.holdMinutes, 12, "the owner's earlier change stays");
    });

    test('the front desk reads the settings and cannot change them', async () => {
      const deskPage = await phone();
      await signInThroughUi(deskPage, server.base, desk.email, desk.password, `${salon.business.slug}/settings`);
      await deskPage.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
      const hold = deskPage.getByRole('spinbutton', { name: 'Hold a chosen time (minutes)' });
      await hold.waitFor();
      assert.equal(await hold.inputValue(), '12');
      assert.ok(await hold.isDisabled(), 'read only');
      assert.ok(await deskPage.getByRole('checkbox', { name: 'Booking page on' }).isDisabled());
      assert.equal(await deskPage.getByRole('button', { name: 'Save settings' }).count(), 0);
      assert.equal(await deskPage.getByRole('button', { name: 'Add reminder' }).isDisabled(), true);
      await deskPage.getByText('Only owners and managers can change these settings').waitFor();
      assert.equal(
        await deskPage.getByRole('link', { name: 'Open booking page', exact: true }).getAttribute('href'),
        `/book/${salon.business.slug}`,
      );
      assert.deepEqual(await wcagViolations(deskPage), [], 'the read-only page');
      assert.ok(await noHorizontalScroll(deskPage), 'no sideways scrolling at 390 px');
    });
  });
}

/** Every axe-core violation of the WCAG 2 A and AA rules, whatever its impact. */
async function wcagViolations(page: Page): Promise<string[]> {
  await page.evaluate(axe.source);
  const result = await page.evaluate(() =>
    (window as unknown as { axe: typeof axe }).axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } }),
  );
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** The text a screen reader reads as the control's description (its aria-describedby). */
function description(control: Locator): Promise<string> {
  return control.evaluate((el) =>
    (el.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' '),
  );
}

function isFocused(control: Locator): Promise<boolean> {
  return control.evaluate((el) => el === document.activeElement);
}

function noHorizontalScroll(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
}
