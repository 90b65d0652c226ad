/**
 * The booking detail's messages (guest-side.md "Notifications") and the location's Phone field, in
 * a real browser: Debian's Chromium through playwright-core against the real server on a port, as
 * the other dashboard-*.e2e tests. At 390 px and by keyboard, an owner reads a booking's messages
 * (kind in words, channel, masked recipient, status, attempts, masked last error, times) and
 * resends one; the front desk does the same for its booking; axe-core (WCAG 2 A and AA) finds
 * nothing. Every resend is checked in the database.
 *
 * Fixtures: a real booking made through the operator API, messages planned for it with
 * planMessages; the sender's outcomes are simulated by SQL updates of the status columns only.
 * Skipped, and said so, without /usr/bin/chromium.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import axe from 'axe-core';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { newId } from '../src/domain/ids.ts';
import type { NewMessage } from '../src/domain/messages/kinds.ts';
import { planMessages } from '../src/store/messages.ts';
import {
  BROWSER_ARGS,
  CHROMIUM,
  CONTEXT_OPTIONS,
  cspViolations,
  type LiveServer,
  SKIP_BROWSER as skip,
  signInThroughUi,
} from './helpers/browser.ts';
import { startLiveServer } from './helpers/browser.ts';
import { createSalon, type SalonFixture } from './helpers/fixtures.ts';
import { adminOk } from './helpers/harness.ts';
import { insertMember } from './helpers/members.ts';

const EMAIL = 'peter.messages@example.com';
const PHONE = '+36 30 123 4567';

if (skip) console.log(`# ${skip}`);

if (skip) test('dashboard booking messages in Chromium', { skip }, () => {});
else describeBrowser();

function describeBrowser() {
  describe('dashboard booking messages and location phone in Chromium', () => {
    let server: LiveServer;
    let browser: Browser;
    let salon: SalonFixture;
    let bookingId: string;
    let owner: { email: string; password: string };
    let desk: { email: string; password: string };
    const ids: Record<string, string> = {};
    const contexts: BrowserContext[] = [];
    const phone = async () => {
      const c = await browser.newContext({ ...CONTEXT_OPTIONS, viewport: { width: 390, height: 844 } });
      c.setDefaultTimeout(15_000);
      contexts.push(c);
      return c.newPage();
    };
    const resendsOf = async (id: string) =>
      (
        await server.db.query<{ id: string; recipient: string; status: string }>(
          'SELECT id, recipient, status FROM messages WHERE resend_of = $1',
          [id],
        )
      ).rows;

    before(async () => {
      server = await startLiveServer();
      salon = await createSalon(server.app);
      owner = await insertMember(server.db, salon.business.id, 'owner');
      desk = await insertMember(server.db, salon.business.id, 'frontDesk');
      bookingId = (
        await adminOk(server.app, 'POST', `/businesses/${salon.business.slug}/bookings`, {
          locationSlug: salon.location.slug,
          serviceId: salon.service.id,
          staffId: salon.staff[0]!.id,
          date: '2031-06-02',
          startTime: '10:00',
          guest: { name: 'Peter Messages', phone: PHONE, email: EMAIL },
        })
      ).booking.bookingId;
      const base = { businessId: salon.business.id, bookingId, audience: 'guest' as const, lang: 'en', stateVersion: 1 };
      const rows: Record<string, NewMessage> = {
        email: {
          ...base,
          id: newId('msg'),
          kind: 'booking.confirmed',
          channel: 'email',
          recipient: EMAIL,
          uniqueKey: `e2e:${bookingId}:email`,
          scheduledAt: new Date('2031-05-20T08:00:00Z'),
        },
        sms: {
          ...base,
          id: newId('msg'),
          kind: 'booking.confirmed',
          channel: 'sms',
          recipient: PHONE,
          uniqueKey: `e2e:${bookingId}:sms`,
          scheduledAt: new Date('2031-05-20T08:00:00Z'),
        },
        reminder: {
          ...base,
          id: newId('msg'),
          kind: 'booking.reminder',
          channel: 'email',
          recipient: EMAIL,
          reminderMinutes: 1440,
          uniqueKey: `e2e:${bookingId}:reminder`,
          scheduledAt: new Date('2031-06-01T08:00:00Z'),
        },
      };
      await server.db.transaction((tx) => planMessages(tx, Object.values(rows)));
      for (const [k, r] of Object.entries(rows)) ids[k] = r.id;
      // The sender's outcomes, status columns only.
      await server.db.query(`UPDATE messages SET status = 'sent', attempts = 1, sent_at = $2 WHERE id = $1`, [
        ids.email,
        new Date('2031-05-20T08:00:03Z'),
      ]);
      await server.db.query(`UPDATE messages SET status = 'failed', attempts = 6, last_error = $2 WHERE id = $1`, [
        ids.sms,
        'gateway answered 422: +36301234567 is not reachable',
      ]);
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: BROWSER_ARGS });
    });

    after(async () => {
      for (const c of contexts) await c.close().catch(() => {});
      await browser?.close().catch(() => {});
      await server?.close();
    });

    test('an owner at 390 px reads the messages, masked, and resends one by keyboard', async () => {
      const page = await phone();
      const csp = cspViolations(page);
      await signInThroughUi(page, server.base, owner.email, owner.password, `${salon.business.slug}/bookings/${bookingId}`);
      await page.getByRole('heading', { name: 'Messages', level: 2 }).waitFor();
      const list = page.locator('.message-list > li');
      await list.first().waitFor();
      assert.equal(await list.count(), 3);

      const sms = page.getByRole('listitem', { name: 'Booking confirmed · Text message' });
      const smsText = (await sms.textContent()) ?? '';
      assert.match(smsText, /To\+36 30 \*\*\* \*\*67/);
      assert.match(smsText, /StatusNot delivered/);
      assert.match(smsText, /Attempts6/);
      assert.match(smsText, /Last errorgateway answered 422: \+3630\*{5}67 is not reachable/);
      assert.match(smsText, /2031-05-20 10:00/, 'times in the location zone');
      const email = page.getByRole('listitem', { name: 'Booking confirmed · Email' });
      assert.match((await email.textContent()) ?? '', /Top\*\*\*@example\.com.*StatusSent.*Sent2031-05-20 10:00/);
      const reminder = page.getByRole('listitem', { name: 'Reminder · Email' });
      assert.match((await reminder.textContent()) ?? '', /StatusWaiting to be sent.*Due2031-06-01 10:00/);

      const main = (await page.locator('main').textContent()) ?? '';
      // the booking's own facts show the guest's contact; the messages never do
      const messagesText = (await page.locator('.booking-messages').textContent()) ?? '';
      assert.ok(main.includes(EMAIL), 'the booking facts still show the guest email');
      assert.ok(!messagesText.includes(EMAIL) && !messagesText.includes('1234567'), messagesText);
      assert.deepEqual(await wcagViolations(page), [], 'booking detail with messages');
      assert.deepEqual(await overflowing(page), [], 'no sideways scrolling at 390 px');

      const resend = sms.getByRole('button', { name: 'Resend Booking confirmed by Text message' });
      await resend.focus();
      assert.ok(await isFocused(resend));
      await page.keyboard.press('Enter');
      await page.getByRole('status').getByText('Booking confirmed will be sent again to +36 30 *** **67.').waitFor();
      await page.locator('.message-list > li').nth(3).waitFor();
      assert.equal(await page.locator('.message-list > li').count(), 4);
      const copies = await resendsOf(ids.sms!);
      assert.equal(copies.length, 1);
      assert.deepEqual([copies[0]!.recipient, copies[0]!.status], [PHONE, 'pending']);
      assert.deepEqual(csp, [], 'no CSP violation');
    });

    test('the front desk reads its booking’s messages and resends one', async () => {
      const page = await phone();
      await signInThroughUi(page, server.base, desk.email, desk.password, `${salon.business.slug}/bookings/${bookingId}`);
      const email = page.getByRole('listitem', { name: 'Booking confirmed · Email' });
      await email.waitFor();
      await email.getByRole('button', { name: /^Resend/ }).click();
      await page.getByRole('status').getByText('Booking confirmed will be sent again to p***@example.com.').waitFor();
      assert.equal((await resendsOf(ids.email!)).length, 1);
      assert.deepEqual(await wcagViolations(page), [], 'front desk view');
    });

    test('the location form takes a phone; a refused one is explained beside the field', async () => {
      const page = await phone();
      await signInThroughUi(page, server.base, owner.email, owner.password, `${salon.business.slug}/locations`);
      await page.getByRole('button', { name: 'Edit Downtown' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit Downtown' });
      const field = dialog.getByRole('textbox', { name: 'Phone' });
      await field.fill('call us');
      await dialog.getByRole('button', { name: 'Save location' }).click();
      await dialog.getByText('Write the number with digits, spaces and + - ( ) only, at most 40 characters.').waitFor();
      assert.equal(await field.getAttribute('aria-invalid'), 'true');
      assert.match(await description(field), /digits, spaces and \+ - \( \) only/);
      assert.deepEqual(await wcagViolations(page), [], 'location dialog with a phone error');
      const stored = async () =>
        (await adminOk(server.app, 'GET', `/businesses/${salon.business.slug}/locations`)).locations.find(
          (l: { slug: string }) => l.slug === salon.location.slug,
        );
      assert.equal((await stored()).phone, null, 'nothing saved');

      await field.fill('+36 (1) 234-5678');
      await dialog.getByRole('button', { name: 'Save location' }).click();
      await dialog.waitFor({ state: 'hidden' });
      assert.equal((await stored()).phone, '+36 (1) 234-5678');
      await page.getByText('Phone +36 1 234 5678').waitFor(); // shown grouped as dialled (lib/format.ts)

      // emptied: cleared, not kept
      await page.getByRole('button', { name: 'Edit Downtown' }).click();
      await dialog.getByRole('textbox', { name: 'Phone' }).fill('');
      await dialog.getByRole('button', { name: 'Save location' }).click();
      await dialog.waitFor({ state: 'hidden' });
      assert.equal((await stored()).phone, null);
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

/** The innermost elements reaching past the right edge of the screen (none: no sideways scrolling). */
function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= width) return [];
    return [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > width + 0.5)
      .filter((el) => ![...el.children].some((c) => c.getBoundingClientRect().right > width + 0.5))
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}: ${(el.textContent ?? '').slice(0, 40)}`);
  });
}
