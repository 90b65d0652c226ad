/**
 * The dashboard in the member's language, in a real browser (issue 27 item 4): an English member
 * picks `Magyar` in the `Language` select; it is stored with the account (a reload keeps it), the
 * navigation and `<html lang>` follow, and New booking speaks Hungarian throughout, its refusals
 * included: a phone the API cannot call and a blank name beside their fields, a taken time in the
 * form. API keys, Webhooks and Settings speak it too, and so do the confirmations after a write; the
 * public pages (accepting an invitation, a new password) follow a Hungarian browser's language.
 * Skipped, and said so, without /usr/bin/chromium.
 */
import { SECTIONS } from '../dashboard/src/app/sections.ts';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import { hu } from '../dashboard/src/lib/i18n/hu.ts';
import { servicesWords } from '../dashboard/src/features/services/words.ts';
import { staffWords } from '../dashboard/src/features/staff/words.ts';
import { apiKeysWords } from '../dashboard/src/features/api-keys/words.ts';
import { webhooksWords } from '../dashboard/src/features/webhooks/words.ts';
import { settingsWords } from '../dashboard/src/features/settings/words.ts';
import {
  BROWSER_ARGS,
  budapestDate,
  CHROMIUM,
  CONTEXT_OPTIONS,
  type LiveServer,
  SKIP_BROWSER as skip,
  signInThroughUi,
  startLiveServer,
} from './helpers/browser.ts';
import { wcagViolations } from './helpers/booking-page.ts';
import { createSalon, type SalonFixture } from './helpers/fixtures.ts';
import { adminOk } from './helpers/harness.ts';
import { insertMember } from './helpers/members.ts';

if (skip) console.log(`# ${skip}`);

if (skip) test('the dashboard in Hungarian in Chromium', { skip }, () => {});
else describeBrowser();

function description(control: Locator): Promise<string> {
  return control.evaluate((el) =>
    (el.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' '),
  );
}

function describeBrowser() {
  describe('the dashboard in Hungarian in Chromium', () => {
    let server: LiveServer;
    let browser: Browser;
    let page: Page;
    let salon: SalonFixture;
    let owner: { userId: string; email: string; password: string };
    const date = budapestDate(3);
    const w = hu.newBooking;

    before(async () => {
      server = await startLiveServer();
      salon = await createSalon(server.app);
      owner = await insertMember(server.db, salon.business.id, 'owner');
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: BROWSER_ARGS });
      const context = await browser.newContext(CONTEXT_OPTIONS);
      context.setDefaultTimeout(15_000);
      page = await context.newPage();
      await signInThroughUi(page, server.base, owner.email, owner.password, `${salon.business.slug}/calendar?date=${date}`);
    });

    after(async () => {
      await browser?.close().catch(() => {});
      await server?.close();
    });

    test('Language: Magyar is stored with the account; every navigation label and <html lang> follow, after a reload too', async () => {
      assert.equal(await page.locator('html').getAttribute('lang'), 'en');
      await page.getByRole('combobox', { name: 'Language' }).selectOption({ label: 'Magyar' });
      const nav = page.getByRole('navigation', { name: hu.shell.main });
      await nav.waitFor();
      const stored = await server.db.query<{ language: string }>('SELECT language FROM users WHERE id = $1', [owner.userId]);
      assert.equal(stored.rows[0]!.language, 'hu');

      await page.reload();
      await nav.waitFor();
      assert.equal(await page.locator('html').getAttribute('lang'), 'hu');
      const links = (await nav.getByRole('link').allTextContents()).map((s) => s.trim());
      // an owner sees every section, in the navigation's order
      assert.deepEqual(
        links,
        SECTIONS.map((s) => hu.nav[s.path]),
      );
      await page.getByRole('button', { name: hu.shell.signOut }).waitFor();
      await page.getByRole('combobox', { name: hu.shell.language }).waitFor();
      assert.equal(await page.getByText(hu.shell.roles.owner, { exact: true }).count(), 1);
    });

    test('New booking in Hungarian: a bad phone and a blank name beside their fields, a taken time in the form', async () => {
      await adminOk(server.app, 'POST', `/businesses/${salon.business.slug}/bookings`, {
        locationSlug: salon.location.slug,
        serviceId: salon.service.id,
        staffId: salon.staff[0]!.id,
        date,
        startTime: '11:00',
        guest: { name: 'Foglalt Fanni', phone: '+36301234567' },
      });
      await page.getByRole('button', { name: w.open }).click();
      const dialog = page.getByRole('dialog', { name: w.title });
      await dialog.waitFor();
      await dialog.getByRole('combobox', { name: w.service, exact: true }).selectOption({ label: `Haircut (${w.minutes(30)})` });
      await dialog.getByRole('combobox', { name: w.staff, exact: true }).selectOption({ label: 'Anna' });
      await dialog.getByLabel(w.date, { exact: true }).fill(date);
      await dialog.getByLabel(w.time, { exact: true }).fill('10:00');
      const name = dialog.getByRole('textbox', { name: w.guestName });
      const phone = dialog.getByRole('textbox', { name: w.phone });
      await name.fill('Ada');
      await phone.fill('hívjon fel');
      const submit = dialog.getByRole('button', { name: w.submit });
      await submit.click();

      await dialog.getByText(hu.issues.phone).waitFor();
      assert.equal(await phone.getAttribute('aria-invalid'), 'true');
      assert.equal(await description(phone), hu.issues.phone);
      assert.equal(await dialog.getByRole('alert').count(), 0, 'said beside the field only, not again in the form');
      assert.deepEqual(await wcagViolations(page), [], 'the refused phone');

      await phone.fill('+36 30 123 4567');
      await name.fill('   ');
      await submit.click();
      await dialog.getByText(hu.issues.required).waitFor();
      assert.equal(await name.getAttribute('aria-invalid'), 'true');
      assert.equal(await description(name), hu.issues.required);
      assert.equal(await phone.getAttribute('aria-invalid'), null, 'the phone is accepted now');

      await name.fill('Ada');
      await dialog.getByLabel(w.time, { exact: true }).fill('11:00');
      await submit.click();
      const alert = dialog.getByRole('alert');
      await alert.waitFor();
      assert.equal((await alert.textContent())?.trim(), hu.errors['booking.slot_unavailable']);
      const text = (await dialog.textContent()) ?? '';
      for (const english of ['Create booking', 'Guest name', 'clashes', 'body.', 'booking.slot_unavailable']) {
        assert.ok(!text.includes(english), `"${english}" in the Hungarian dialog`);
      }
      await dialog.getByRole('button', { name: hu.common.cancel }).click();
      await dialog.waitFor({ state: 'hidden' });
    });

    test('the booking detail in Hungarian: its facts, its buttons, the price in forints and the phone grouped', async () => {
      const { bookings } = await adminOk(server.app, 'GET', `/businesses/${salon.business.slug}/bookings?limit=10`);
      const fanni = bookings.find((b: { guest: { name: string } }) => b.guest.name === 'Foglalt Fanni');
      await page.goto(`${server.base}/dashboard/${salon.business.slug}/bookings/${fanni.bookingId}`);
      await page.getByRole('heading', { level: 1, name: hu.bookingDetail.title(fanni.publicReference) }).waitFor();
      for (const name of [hu.actions.propose, hu.actions.reschedule, hu.actions.cancel]) await page.getByRole('button', { name }).waitFor();
      await page.getByText(hu.statuses.confirmed, { exact: true }).waitFor();
      await page.getByRole('link', { name: '+36 30 123 4567' }).waitFor();
      const price = new Intl.NumberFormat('hu-HU', { style: 'currency', currency: 'HUF', maximumFractionDigits: 0 }).format(
        fanni.price.amount,
      );
      const shown = await page
        .locator('dt', { hasText: new RegExp(`^${hu.bookingDetail.price}$`) })
        .locator('xpath=following-sibling::dd[1]')
        .textContent();
      assert.equal(shown?.replace(/\s+/g, ' '), price.replace(/\s+/g, ' '));
      assert.match(shown ?? '', /Ft/);

      await page.getByRole('navigation', { name: hu.shell.main }).getByRole('link', { name: hu.nav.bookings }).click();
      await page.getByRole('heading', { level: 1, name: hu.nav.bookings }).waitFor();
      for (const name of [hu.list.status, hu.list.from, hu.list.to]) await page.getByLabel(name, { exact: true }).waitFor();
      await page.getByRole('button', { name: hu.list.apply }).waitFor();
      await page.getByRole('link', { name: fanni.publicReference }).waitFor();
    });

    test('the calendar, Services and Staff in Hungarian: headings, toolbar, column headers and cell labels', async () => {
      const nav = page.getByRole('navigation', { name: hu.shell.main });
      await nav.getByRole('link', { name: hu.nav.calendar }).click();
      await page.getByRole('heading', { level: 1, name: hu.calendar.title }).waitFor();
      for (const name of [hu.calendar.day, hu.calendar.week, hu.calendar.today, hu.calendar.nextDay, hu.calendar.whyNotFree]) {
        await page.getByRole('button', { name, exact: true }).waitFor();
      }
      // the day's heading is written as Hungarian writes a date, whatever the browser's language
      const heading = (await page.locator('h2.day-title').textContent()) ?? '';
      assert.match(heading, /^\d{4}\. \p{L}+ \d{1,2}\., (hétfő|kedd|szerda|csütörtök|péntek|szombat|vasárnap)/u, heading);

      await nav.getByRole('link', { name: hu.nav.services }).click();
      await page.getByRole('heading', { level: 1, name: servicesWords.hu.title }).waitFor();
      await page.getByRole('columnheader', { name: servicesWords.hu.acceptance }).waitFor();
      assert.ok((await page.locator(`td[data-label="${servicesWords.hu.duration}"]`).count()) > 0, 'cell labels follow the headers');

      await nav.getByRole('link', { name: hu.nav.staff }).click();
      await page.getByRole('heading', { level: 1, name: staffWords.hu.title }).waitFor();
      await page.getByRole('columnheader', { name: staffWords.hu.workingHours }).waitFor();
      assert.ok((await page.locator(`td[data-label="${staffWords.hu.workingHours}"]`).count()) > 0);
    });

    /** No English sentence of the page's own is left on it (`words` are some of the English catalog's). */
    async function assertNoEnglish(words: string[], where: string): Promise<void> {
      const text = (await page.locator('main').textContent()) ?? '';
      for (const english of words) assert.ok(!text.includes(english), `"${english}" on the Hungarian ${where}`);
    }

    test('API keys in Hungarian: the page, the create dialog, the key in the list, and the confirmation in Hungarian', async () => {
      const k = apiKeysWords.hu;
      const nav = page.getByRole('navigation', { name: hu.shell.main });
      await nav.getByRole('link', { name: hu.nav['api-keys'] }).click();
      await page.getByRole('heading', { level: 1, name: k.title }).waitFor();
      assert.equal(await page.title(), hu.common.docTitle(k.title));
      // the salon's own key is listed already (a wide table: its cells carry the column names at this width)
      await page.locator(`td[data-label="${k.prefix}"]`).first().waitFor();
      await page.getByRole('button', { name: k.createKey }).click();
      const dialog = page.getByRole('dialog', { name: k.createTitle });
      await dialog.waitFor();
      await dialog.getByRole('textbox', { name: hu.common.name }).fill('Weboldal');
      await dialog.getByText(k.typeHints.integration).waitFor();
      await dialog.getByRole('group', { name: k.capabilities }).waitFor();
      await dialog.getByRole('button', { name: k.presets.widget }).click();
      assert.equal(await dialog.getByRole('checkbox', { name: `${k.capabilityNames['booking.create']} booking.create` }).isChecked(), true);
      await dialog.getByRole('button', { name: k.create, exact: true }).click();
      await page.getByRole('status').filter({ hasText: k.keyCreated }).waitFor();
      await page.getByText(k.secretOf('Weboldal')).waitFor();
      await page.getByRole('button', { name: hu.common.copy }).waitFor();
      const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Weboldal' }) });
      assert.equal(await row.locator(`td[data-label="${k.type}"]`).textContent(), k.values.integration);
      assert.equal(await row.locator(`td[data-label="${k.lastUsed}"]`).textContent(), hu.common.never);
      await page.getByRole('button', { name: hu.common.done }).click();
      await assertNoEnglish(['Create key', 'Capabilities', 'Last used', 'never', 'shown once'], 'API keys page');
    });

    test('Webhooks in Hungarian: configuration, delivery log and its filters', async () => {
      const w = webhooksWords.hu;
      const nav = page.getByRole('navigation', { name: hu.shell.main });
      await nav.getByRole('link', { name: hu.nav.webhooks }).click();
      await page.getByRole('heading', { level: 1, name: w.title }).waitFor();
      for (const name of [w.configuration, w.log]) await page.getByRole('heading', { level: 2, name }).waitFor();
      await page.getByText(w.none).waitFor();
      await page.getByRole('button', { name: hu.common.save, exact: true }).waitFor();
      const filters = page.getByRole('form', { name: w.filters });
      for (const name of [w.event, w.outcome]) await filters.getByRole('combobox', { name }).waitFor();
      await filters.getByRole('button', { name: hu.list.apply }).waitFor();
      await page.getByText(w.logHint).waitFor();
      await assertNoEnglish(['Configuration', 'Delivery log', 'No webhook yet', 'Apply filters'], 'Webhooks page');
    });

    test('Settings in Hungarian: sections and fields; a save confirmed in Hungarian', async () => {
      const s = settingsWords.hu;
      const nav = page.getByRole('navigation', { name: hu.shell.main });
      await nav.getByRole('link', { name: hu.nav.settings }).click();
      await page.getByRole('heading', { level: 1, name: s.title }).waitFor();
      for (const name of [s.bookingPage, s.guests, s.messages, s.waitlist]) await page.getByRole('heading', { level: 2, name }).waitFor();
      await page.getByRole('checkbox', { name: s.pageOn }).waitFor();
      await page.getByRole('link', { name: s.open }).waitFor();
      const hold = page.getByRole('spinbutton', { name: s.hold });
      await hold.fill('17');
      assert.ok((await description(hold)).includes(s.thatIs(s.unit(17, 'minute'))), 'the minutes in words, in Hungarian');
      await page.getByRole('button', { name: s.save }).click();
      await page.locator('.save-status').filter({ hasText: s.saved }).waitFor();
      await page.getByRole('status').filter({ hasText: hu.common.saved }).first().waitFor();
      const stored = await adminOk(server.app, 'GET', `/businesses/${salon.business.slug}/guest-settings`);
      assert.equal(stored.guestSettings.holdMinutes, 17);
      await assertNoEnglish(['Booking page on', 'Guest self-service', 'Reminders', 'Save settings', 'That is'], 'Settings page');
    });

    test('a Hungarian browser: accepting an invitation and setting a new password are in Hungarian before sign-in', async () => {
      const context = await browser.newContext({ ...CONTEXT_OPTIONS, locale: 'hu-HU' });
      context.setDefaultTimeout(15_000);
      const guest = await context.newPage();
      try {
        await guest.goto(`${server.base}/dashboard/accept-invitation?token=nincs-ilyen-meghivo`);
        const i = hu.invitation;
        await guest.getByRole('heading', { level: 1, name: i.title }).waitFor();
        assert.equal(await guest.locator('html').getAttribute('lang'), 'hu');
        assert.equal(await guest.title(), i.docTitle);
        await guest.getByRole('link', { name: i.forgot }).waitFor();
        await guest.getByRole('textbox', { name: hu.common.name }).fill('Kovács Kata');
        await guest.getByLabel(hu.common.password, { exact: true }).fill('egy hosszu jelszo');
        await guest.getByRole('button', { name: i.submit }).click();
        const alert = guest.getByRole('alert');
        await alert.waitFor();
        assert.equal((await alert.textContent())?.trim(), hu.errors['request.not_found']);

        await guest.goto(`${server.base}/dashboard/reset-password`);
        const r = hu.resetPassword;
        await guest.getByRole('heading', { level: 1, name: r.title }).waitFor();
        assert.equal((await guest.getByRole('alert').textContent())?.trim(), `${r.noToken}${r.askNew}.`);
        await guest.getByRole('link', { name: r.askNew }).click();
        await guest.getByRole('heading', { level: 1, name: hu.forgotPassword.title }).waitFor();
        await guest.getByRole('button', { name: hu.forgotPassword.submit }).waitFor();
        const text = (await guest.locator('main').textContent()) ?? '';
        for (const english of ['Forgot password', 'Send reset link', 'Back to sign in']) assert.ok(!text.includes(english), english);
      } finally {
        await context.close();
      }
    });
  });
}
