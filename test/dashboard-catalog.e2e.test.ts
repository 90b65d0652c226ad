/**
 * The catalogue pages of the dashboard (Services, Staff, Locations) in a real browser: Debian's
 * Chromium driven by playwright-core against the real server on a port, as in
 * dashboard.e2e.test.ts. Elements by role and accessible name; every result checked through the
 * API. Skipped, and said so, when /usr/bin/chromium is absent (`apt-get install -y chromium`).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { Temporal } from 'temporal-polyfill';
import type { App } from '../src/http/context.ts';
import type { Db } from '../src/store/db.ts';
import {
  type Browser,
  cspViolations,
  launchBrowser,
  type LiveServer,
  SKIP_BROWSER as skip,
  seriousViolations,
  signInThroughUi,
  startLiveServer,
} from './helpers/browser.ts';
import { createBusiness, createLocation, createSalon, type BusinessFixture, type SalonFixture } from './helpers/fixtures.ts';
import { admin, adminOk } from './helpers/harness.ts';
import { insertMember } from './helpers/members.ts';
import { en } from '../dashboard/src/lib/i18n/en.ts';

if (skip) console.log(`# ${skip}`);

if (skip) test('dashboard catalogue pages in Chromium', { skip }, () => {});
else describeBrowser();

function describeBrowser() {
  describe('dashboard catalogue pages in Chromium', () => {
    let db: Db;
    let app: App;
    let base: string;
    let salon: SalonFixture;
    let other: BusinessFixture;
    let member: { userId: string; email: string; password: string };
    let server: LiveServer;
    let browser: Browser;
    let page: Page;
    let cspErrors: string[] = [];
    const zone = 'Europe/Budapest';
    const today = Temporal.Now.plainDateISO(zone);

    before(async () => {
      server = await startLiveServer();
      ({ app, db, base } = server);

      salon = await createSalon(app, { timezone: zone });
      member = await insertMember(db, salon.business.id, 'owner');
      // A business where the same member is front desk: the catalogue is read-only there.
      other = await createBusiness(app);
      await createLocation(app, other.slug, { name: 'Harbour' });
      await db.query('INSERT INTO memberships (business_id, user_id, role) VALUES ($1, $2, $3)', [other.id, member.userId, 'frontDesk']);

      browser = await launchBrowser();
      page = browser.page;
      cspErrors = cspViolations(page);
      await signInThroughUi(page, base, member.email, member.password, `${salon.business.slug}/calendar`);
    });

    after(async () => {
      await browser?.close();
      await server?.close();
    });

    test('Services: create a service and see it in the list; no serious accessibility violation', async () => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Services' }).click();
      await page.getByRole('heading', { name: 'Services', level: 1 }).waitFor();
      await page.getByRole('rowheader', { name: 'Haircut' }).waitFor();
      assert.deepEqual(await seriousViolations(page), [], 'services list');

      await page.getByRole('button', { name: 'New service' }).click();
      const dialog = page.getByRole('dialog', { name: 'New service' });
      await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Beard trim');
      await dialog.getByRole('spinbutton', { name: 'Duration (minutes)', exact: true }).fill('20');
      await dialog.getByRole('spinbutton', { name: /^Price/ }).fill('4500');
      await dialog.getByRole('checkbox', { name: 'Online bookable' }).uncheck();
      assert.deepEqual(await seriousViolations(page), [], 'new service dialog');
      await dialog.getByRole('button', { name: 'Create service' }).click();
      await dialog.waitFor({ state: 'hidden' });
      const row = page.getByRole('row', { name: /Beard trim/ });
      await row.waitFor();
      assert.match((await row.textContent()) ?? '', /Not online-bookable/);

      const services = (await adminOk(app, 'GET', `/businesses/${salon.business.slug}/services?locationSlug=${salon.location.slug}`))
        .services;
      const created = services.find((s: { name: string }) => s.name === 'Beard trim');
      assert.ok(created, 'the service exists');
      assert.deepEqual([created.durationMinutes, created.price?.amount, created.onlineBookable, created.active], [20, 4500, false, true]);

      // "Deleting" a service is deactivating it (PATCH active: false): it stays listed, marked.
      await page.getByRole('button', { name: 'Edit Beard trim' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit Beard trim' });
      await edit.getByRole('checkbox', { name: 'Active' }).uncheck();
      await edit.getByRole('button', { name: 'Save service' }).click();
      await edit.waitFor({ state: 'hidden' });
      await page.getByRole('row', { name: /Beard trim.*Inactive/ }).waitFor();
      const after = (await adminOk(app, 'GET', `/services/${created.id}`)).service;
      assert.deepEqual([after.active, after.pricingVersion], [false, created.pricingVersion]);
    });

    test('Services: a group-session service lists its sessions with seats taken; add a session, checked through the API', async () => {
      const slug = salon.business.slug;
      const yoga = (
        await adminOk(app, 'POST', `/businesses/${slug}/services`, {
          locationSlug: salon.location.slug,
          name: 'Yoga class',
          durationMinutes: 60,
          priceType: 'fixed',
          price: { amount: 3000, currency: 'HUF' },
          requestAcceptancePolicy: 'automatic',
          bookingMode: 'groupSession',
        })
      ).service;
      const bence = salon.staff[1]!;
      await adminOk(app, 'PATCH', `/staff/${bence.id}`, { serviceIds: [salon.service.id, salon.manualService.id, yoga.id] });
      await page.reload();
      await page.getByRole('button', { name: 'Sessions of Yoga class' }).click();
      const dialog = page.getByRole('dialog', { name: 'Sessions of Yoga class' });
      await dialog.getByText('No session yet.').waitFor();
      const day = today.add({ days: 5 }).toString();
      await dialog.getByRole('combobox', { name: 'Staff' }).selectOption({ label: 'Bence' });
      await dialog.getByLabel('Date').fill(day);
      await dialog.getByLabel('Start time').fill('18:00');
      await dialog.getByLabel('End time').fill('19:00');
      await dialog.getByRole('spinbutton', { name: 'Capacity' }).fill('6');
      await dialog.getByRole('button', { name: 'Add session' }).click();
      await dialog.getByRole('cell', { name: '0 / 6' }).waitFor();
      await dialog.getByRole('cell', { name: `${day} 18:00` }).waitFor();
      assert.deepEqual(await seriousViolations(page), [], 'sessions dialog');
      const sessions = (await adminOk(app, 'GET', `/services/${yoga.id}/sessions`)).sessions;
      assert.equal(sessions.length, 1);
      const start = Temporal.PlainDate.from(day).toZonedDateTime({ timeZone: zone, plainTime: '18:00' }).toInstant();
      assert.equal(Temporal.Instant.compare(Temporal.Instant.from(sessions[0].startAtUtc), start), 0);
      assert.deepEqual([sessions[0].staffId, sessions[0].capacityMax, sessions[0].seatsTaken], [bence.id, 6, 0]);
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'hidden' });
    });

    test('Staff: edit working hours and services, checked through the API', async () => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Staff' }).click();
      await page.getByRole('heading', { name: 'Staff', level: 1 }).waitFor();
      await page.getByRole('rowheader', { name: 'Anna' }).waitFor();
      assert.deepEqual(await seriousViolations(page), [], 'staff list');

      await page.getByRole('button', { name: 'Edit Anna' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit Anna' });
      await dialog.getByRole('checkbox', { name: 'Colouring' }).uncheck();
      await dialog.getByRole('textbox', { name: 'Monday start' }).fill('10:00');
      await dialog.getByRole('textbox', { name: 'Monday end' }).fill('18:30');
      await dialog.getByRole('button', { name: 'Remove Sunday hours' }).click();
      assert.deepEqual(await seriousViolations(page), [], 'staff dialog');
      await dialog.getByRole('button', { name: 'Save staff member' }).click();
      await dialog.waitFor({ state: 'hidden' });

      const anna = (await adminOk(app, 'GET', `/staff/${salon.staff[0]!.id}`)).staff;
      assert.deepEqual(anna.serviceIds, [salon.service.id]);
      const byDay = (d: number) => anna.workingHours.filter((h: { weekday: number }) => h.weekday === d);
      assert.deepEqual(byDay(1), [{ weekday: 1, start: '10:00', end: '18:30' }]);
      assert.deepEqual(byDay(7), []);
      assert.deepEqual(byDay(2), [{ weekday: 2, start: '09:00', end: '17:00' }]);
      await page.getByRole('row', { name: /Anna.*Mon 10:00–18:30/ }).waitFor();
    });

    test('Staff: add a day off and remove it, checked through the API', async () => {
      const bence = salon.staff[1]!;
      const from = today.add({ days: 3 }).toString();
      const to = today.add({ days: 4 }).toString();
      const timeOff = async () =>
        (await adminOk(app, 'GET', `/staff/${bence.id}/time-off?from=${today}&to=${today.add({ days: 30 })}`)).timeOff as {
          id: string;
          from: { date: string; time: string };
          to: { date: string; time: string };
        }[];
      assert.deepEqual(await timeOff(), []);

      await page.getByRole('button', { name: 'Time off of Bence' }).click();
      const dialog = page.getByRole('dialog', { name: 'Time off of Bence' });
      await dialog.getByText('No time off between these dates.').waitFor();
      await dialog.getByLabel('From date').fill(from);
      await dialog.getByLabel('From time').fill('00:00');
      await dialog.getByLabel('To date').fill(to);
      await dialog.getByLabel('To time').fill('00:00');
      await dialog.getByRole('button', { name: 'Add time off' }).click();
      const label = `${from} 00:00 – ${to} 00:00`;
      await dialog.getByRole('button', { name: `Remove ${label}` }).waitFor();
      const added = await timeOff();
      assert.deepEqual(
        added.map((t) => [t.from, t.to]),
        [
          [
            { date: from, time: '00:00' },
            { date: to, time: '00:00' },
          ],
        ],
      );
      assert.deepEqual(await seriousViolations(page), [], 'time off dialog');

      await dialog.getByRole('button', { name: `Remove ${label}` }).click();
      await dialog.getByRole('button', { name: `Confirm removal of ${label}` }).click();
      await dialog.getByText('No time off between these dates.').waitFor();
      assert.deepEqual(await timeOff(), []);
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'hidden' });
    });

    test('Locations: an invalid time zone is explained in words beside the field, nothing created', async () => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Locations' }).click();
      await page.getByRole('heading', { name: 'Locations', level: 1 }).waitFor();
      await page.getByRole('rowheader', { name: 'Downtown' }).waitFor();
      assert.deepEqual(await seriousViolations(page), [], 'locations list');

      const body = {
        slug: 'nowhere',
        name: 'Nowhere',
        timezone: 'Mars/Olympus_Mons',
        address: { city: 'Budapest', street: 'Fő utca 2.', zip: '1011' },
      };
      const expected = await admin(app, 'POST', `/businesses/${salon.business.slug}/locations`, body);
      assert.equal(expected.status, 400, expected.raw);
      const issue = expected.body.error.details.issues.find((i: { path: string }) => i.path === 'body.timezone');
      assert.ok(issue, expected.raw);

      await page.getByRole('button', { name: 'New location' }).click();
      const dialog = page.getByRole('dialog', { name: 'New location' });
      await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(body.name);
      await dialog.getByRole('textbox', { name: 'Slug' }).fill(body.slug);
      const tz = dialog.getByRole('combobox', { name: 'Time zone' });
      await tz.fill(body.timezone);
      await dialog.getByRole('textbox', { name: 'Street' }).fill(body.address.street);
      await dialog.getByRole('textbox', { name: 'City' }).fill(body.address.city);
      await dialog.getByRole('textbox', { name: 'ZIP code' }).fill(body.address.zip);
      await dialog.getByRole('button', { name: 'Create location' }).click();
      // the API's issue put into words (lib/form-errors.ts), not its JSON-path fragment
      await dialog.getByText(en.issues.timezone, { exact: true }).waitFor();
      // Beside the field: the message is the field's accessible description, and the field is invalid.
      assert.equal(await tz.getAttribute('aria-invalid'), 'true');
      assert.equal(await tz.evaluate((el) => el === document.activeElement), true, 'the named field gets focus');
      const description = await tz.evaluate((el) =>
        (el.getAttribute('aria-describedby') ?? '')
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' ')
          .trim(),
      );
      assert.equal(description, en.issues.timezone);
      assert.equal(await dialog.getByRole('textbox', { name: 'Name', exact: true }).getAttribute('aria-invalid'), null);
      assert.deepEqual(await seriousViolations(page), [], 'location dialog with an error');

      const locations = (await adminOk(app, 'GET', `/businesses/${salon.business.slug}/locations`)).locations;
      assert.equal(
        locations.some((l: { slug: string }) => l.slug === 'nowhere'),
        false,
        'nothing created',
      );
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden' });

      // "Deleting" a location is disabling its booking (PATCH bookingEnabled: false).
      await page.getByRole('button', { name: 'Edit Downtown' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit Downtown' });
      await edit.getByRole('checkbox', { name: 'Booking enabled' }).uncheck();
      await edit.getByRole('textbox', { name: 'Payment instructions' }).fill('Transfer to HU12 3456');
      await edit.getByRole('button', { name: 'Save location' }).click();
      await edit.waitFor({ state: 'hidden' });
      await page.getByRole('row', { name: /Downtown.*Booking disabled/ }).waitFor();
      const downtown = (await adminOk(app, 'GET', `/businesses/${salon.business.slug}/locations`)).locations.find(
        (l: { slug: string }) => l.slug === salon.location.slug,
      );
      assert.deepEqual([downtown.bookingEnabled, downtown.paymentInstructions, downtown.timezone], [false, 'Transfer to HU12 3456', zone]);
    });

    test('front desk: the catalogue is read-only (no create or edit offered)', async () => {
      for (const [path, heading, row] of [
        ['services', 'Services', null],
        ['staff', 'Staff', null],
        ['locations', 'Locations', 'Harbour'],
      ] as const) {
        await page.goto(`${base}/dashboard/${other.slug}/${path}`);
        await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
        if (row) await page.getByRole('rowheader', { name: row }).waitFor();
        else await page.getByText(/^No (service|staff member)/).waitFor();
        assert.equal(await page.getByRole('button', { name: /^New / }).count(), 0, `${path}: no create button`);
        assert.equal(await page.getByRole('button', { name: /^Edit / }).count(), 0, `${path}: no edit button`);
      }
      assert.deepEqual(cspErrors, [], 'no Content-Security-Policy violation');
    });
  });
}
