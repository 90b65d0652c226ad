/**
 * The dashboard's business pages in a real browser (Debian's Chromium through playwright-core,
 * the real server on a port): API keys, Webhooks, Members with the invitation acceptance, and the
 * deposit panel of the booking detail. Elements by role and accessible name only; every flow is
 * checked through the API; axe-core scans each page. Skipped, and said so, without
 * /usr/bin/chromium (`apt-get install -y chromium`). Modelled on dashboard.e2e.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
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
import { Temporal } from 'temporal-polyfill';
import type { App } from '../src/http/context.ts';
import type { Db } from '../src/store/db.ts';
import { startWebhookWorker, type WebhookWorker } from '../src/webhooks/worker.ts';
import { CONSENT, createBody } from './helpers/bookings.ts';
import { api, createSalon, createService, createStaff, type SalonFixture } from './helpers/fixtures.ts';
import { adminOk } from './helpers/harness.ts';
import { insertMember } from './helpers/members.ts';
import { waitFor } from './helpers/processes.ts';
import { WebhookReceiver } from './helpers/webhook-receiver.ts';
import { WEBHOOK_TEST_SETTINGS } from './helpers/webhooks.ts';

if (skip) console.log(`# ${skip}`);

if (skip) test('dashboard business pages in Chromium', { skip }, () => {});
else describeBrowser();

function describeBrowser() {
  describe('dashboard business pages in Chromium', () => {
    let db: Db;
    let app: App;
    let base: string;
    let salon: SalonFixture;
    let owner: { userId: string; email: string; password: string };
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let receiver: WebhookReceiver;
    let worker: WebhookWorker;
    let server: LiveServer;
    let cspErrors: string[] = [];
    const zone = 'Europe/Budapest';
    const tomorrow = Temporal.Now.plainDateISO(zone).add({ days: 1 }).toString();
    const slugPath = () => `/businesses/${salon.business.slug}`;
    const nav = () => page.getByRole('navigation', { name: 'Main' });
    const newContext = async () => {
      const c = await browser.newContext(CONTEXT_OPTIONS);
      c.setDefaultTimeout(15_000);
      return c;
    };

    before(async () => {
      // http://127.0.0.1 receivers are private targets: allowed here, as WEBHOOK_ALLOW_PRIVATE_TARGETS=true does.
      server = await startLiveServer(WEBHOOK_TEST_SETTINGS);
      ({ app, db, base } = server);
      worker = await startWebhookWorker({ db, config: app.ctx.config, pollIntervalMs: 200 });
      receiver = await WebhookReceiver.start();

      salon = await createSalon(app, { timezone: zone });
      owner = await insertMember(db, salon.business.id, 'owner');

      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: BROWSER_ARGS });
      context = await newContext();
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
      page = await context.newPage();
      cspErrors = cspViolations(page);
      await signInThroughUi(page, base, owner.email, owner.password);
    });

    after(async () => {
      await browser?.close().catch(() => {});
      await worker?.stop();
      await receiver?.close();
      await server?.close();
    });

    test('API keys: Create key -> the secret shown once with Copy (and it works) -> Revoke -> the API shows revokedAt', async () => {
      await nav().getByRole('link', { name: 'API keys', exact: true }).click();
      await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Create key' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create an API key' });
      await dialog.getByRole('textbox', { name: 'Name' }).fill('Website widget');
      // a preset ticks its capabilities (each named in words, its API name beside it); one is then unticked
      await dialog.getByRole('button', { name: 'Booking widget' }).click();
      for (const c of ['services.read', 'staff.read', 'availability.read', 'booking.create']) {
        assert.equal(await dialog.getByRole('checkbox', { name: c }).isChecked(), true, `${c} ticked by the preset`);
      }
      assert.equal(await dialog.getByRole('checkbox', { name: 'Manage webhooks webhook.manage' }).isChecked(), false);
      assert.equal(await dialog.getByRole('button', { name: 'Booking widget' }).getAttribute('aria-pressed'), 'true');
      await dialog.getByRole('checkbox', { name: 'booking.create' }).uncheck();
      await dialog.getByRole('checkbox', { name: 'staff.read' }).uncheck();
      assert.equal(await dialog.getByRole('button', { name: 'Booking widget' }).getAttribute('aria-pressed'), 'false');
      assert.deepEqual(await seriousViolations(page), [], 'the create dialog');
      await dialog.getByRole('button', { name: 'Create', exact: true }).click();

      const shown = page.getByRole('region', { name: /The secret of “Website widget”/ });
      await shown.waitFor();
      const secret = ((await shown.getByRole('code').textContent()) ?? '').trim();
      assert.ok(secret.length > 20, `a secret is shown: ${secret}`);
      await shown.getByRole('button', { name: 'Copy', exact: true }).click();
      await shown.getByText('Copied.').waitFor();
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secret);
      // The secret is the key: the public API takes it.
      const services = await api(app, secret, 'GET', `/services?salonSlug=${salon.business.slug}&locationSlug=${salon.location.slug}`);
      assert.equal(services.status, 200, services.raw);

      const { apiKeys } = await adminOk(app, 'GET', `${slugPath()}/api-keys`);
      const key = apiKeys.find((k: any) => k.name === 'Website widget');
      assert.ok(key);
      assert.deepEqual([...key.capabilities].sort(), ['availability.read', 'services.read']);
      assert.ok(secret.startsWith(key.prefix));
      assert.deepEqual(await seriousViolations(page), [], 'the keys page with the secret');

      // Never again: after Done, and after a reload.
      await shown.getByRole('button', { name: 'Done' }).click();
      assert.equal(await page.getByText(secret).count(), 0);
      await page.reload();
      const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Website widget' }) });
      await row.waitFor();
      assert.equal(await page.getByText(secret).count(), 0, 'never shown after creation');

      await row.getByRole('button', { name: 'Revoke', exact: true }).click();
      const confirm = page.getByRole('dialog', { name: /Revoke “Website widget”/ });
      await confirm.getByRole('button', { name: 'Revoke key' }).click();
      await confirm.waitFor({ state: 'hidden' });
      const revoked = (await adminOk(app, 'GET', `${slugPath()}/api-keys`)).apiKeys.find((k: any) => k.id === key.id);
      assert.ok(revoked.revokedAt, 'the API shows revokedAt');
      assert.equal(
        (await api(app, secret, 'GET', `/services?salonSlug=${salon.business.slug}&locationSlug=${salon.location.slug}`)).status,
        401,
      );
      await row.getByRole('button', { name: 'Revoke', exact: true }).waitFor({ state: 'detached' });
    });

    test('Webhooks: URL + Save -> the secret once -> a booking event in the log -> Redeliver -> attemptCount grows; Rotate secret', async () => {
      const target = receiver.path('dashboard');
      await nav().getByRole('link', { name: 'Webhooks', exact: true }).click();
      await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
      await page.getByText('No webhook yet').waitFor();
      assert.deepEqual(await seriousViolations(page), [], 'the webhooks page');
      await page.getByRole('textbox', { name: 'URL' }).fill(target.url);
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      const shown = page.getByRole('region', { name: /The signing secret/ });
      await shown.waitFor();
      await shown.getByRole('button', { name: 'Copy', exact: true }).waitFor();
      const secret = ((await shown.getByRole('code').textContent()) ?? '').trim();
      assert.ok(secret.length > 20);
      assert.equal((await adminOk(app, 'GET', `${slugPath()}/webhook`)).webhook.url, target.url);

      // A guest's request through the public API: its booking.requested is delivered.
      const body = createBody(salon, {
        service: salon.manualService,
        date: tomorrow,
        startTime: '14:00',
        guest: { name: 'Hook Hanna', phone: '+36301112255' },
        consent: { ...CONSENT, acceptedAt: new Date().toISOString() },
      });
      const created = await api(app, salon.key.secret, 'POST', '/bookings', body);
      assert.equal(created.status, 201, created.raw);
      const bookingId = created.body.data.booking.bookingId;
      await receiver.waitFor(() => receiver.at(target.path).length === 1);

      const row = page.getByRole('row').filter({ hasText: bookingId });
      await waitFor(
        'the delivery in the log',
        async () => {
          await page.getByRole('button', { name: 'Apply filters' }).click();
          return (await row.count()) === 1;
        },
        15_000,
        200,
      );
      await row.getByText('succeeded').waitFor();
      await row.getByText('1 attempt').click();
      await row.getByText(/success, HTTP 200/).waitFor();
      assert.deepEqual(await seriousViolations(page), [], 'the delivery log');

      await row.getByRole('button', { name: 'Redeliver', exact: true }).click();
      await row.getByText('2 attempts').waitFor();
      await receiver.waitFor(() => receiver.at(target.path).length === 2);
      const { deliveries } = await adminOk(app, 'GET', `${slugPath()}/webhook/deliveries`);
      const delivery = deliveries.find((d: any) => d.bookingId === bookingId);
      assert.equal(delivery.attemptCount, 2);

      // The event filter: another event shows nothing.
      await page.getByLabel('Event').selectOption('booking.cancelled');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.getByText('No delivery matches.').waitFor();
      assert.match(page.url(), /event=booking.cancelled/);

      await shown.getByRole('button', { name: 'Done' }).click();
      await page.getByRole('button', { name: 'Rotate secret' }).click();
      await page.getByRole('dialog', { name: 'Rotate the signing secret?' }).getByRole('button', { name: 'Rotate now' }).click();
      const rotated = page.getByRole('region', { name: /The signing secret/ });
      await rotated.waitFor();
      const next = ((await rotated.getByRole('code').textContent()) ?? '').trim();
      assert.ok(next.length > 20 && next !== secret, 'a new secret');
    });

    test('Members: invite -> the link once -> accepted in a fresh browser with a password -> signed in; change a role; remove', async () => {
      const email = `new-${Date.now()}@example.com`;
      await nav().getByRole('link', { name: 'Members', exact: true }).click();
      await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Invite member' }).click();
      const dialog = page.getByRole('dialog', { name: 'Invite a member' });
      await dialog.getByRole('textbox', { name: 'Email' }).fill(email);
      await dialog.getByRole('combobox', { name: 'Role' }).selectOption('manager');
      await dialog.getByRole('button', { name: 'Send invitation' }).click();
      const shown = page.getByRole('region', { name: new RegExp(`The invitation link for ${email}`) });
      await shown.waitFor();
      await shown.getByText('No email was sent').waitFor();
      await shown.getByRole('button', { name: 'Copy', exact: true }).waitFor();
      const link = ((await shown.getByRole('code').textContent()) ?? '').trim();
      assert.match(link, /\/dashboard\/accept-invitation\?token=/);
      const { invitations } = await adminOk(app, 'GET', `${slugPath()}/invitations`);
      assert.deepEqual(
        invitations.map((i: any) => [i.email, i.role]),
        [[email, 'manager']],
      );
      await page
        .getByRole('row')
        .filter({ has: page.getByRole('rowheader', { name: email }) })
        .waitFor();
      assert.deepEqual(await seriousViolations(page), [], 'the members page');

      // A fresh browser context: no session.
      const fresh = await newContext();
      try {
        const guest = await fresh.newPage();
        await guest.goto(link);
        await guest.getByRole('heading', { name: 'Accept the invitation' }).waitFor();
        assert.ok(!guest.url().includes('token='), `the token left the address bar: ${guest.url()}`);
        assert.deepEqual(await seriousViolations(guest), [], 'the acceptance page');
        await guest.getByRole('textbox', { name: 'Name' }).fill('Nora New');
        await guest.getByLabel('Password', { exact: true }).fill('short');
        await guest.getByRole('button', { name: 'Accept invitation' }).click();
        const tooShort = guest.getByRole('alert');
        await tooShort.waitFor();
        assert.match((await tooShort.textContent()) ?? '', /password/i);
        await guest.getByLabel('Password', { exact: true }).fill('a long enough password');
        await guest.getByRole('button', { name: 'Accept invitation' }).click();
        await guest.getByRole('navigation', { name: 'Main' }).waitFor();
        await guest.getByRole('heading', { name: 'Calendar', level: 1 }).waitFor();
        await guest.getByRole('button', { name: 'Sign out' }).waitFor();
        const session = await guest.evaluate(() => fetch('/admin/v1/session').then((r) => r.json()));
        assert.equal(session.data.member.email, email);
        // A manager: the Members page offers nothing.
        await guest.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Members', exact: true }).click();
        await guest.getByText('Managing members is not available for your role.').waitFor();
        assert.equal(await guest.getByRole('button', { name: 'Invite member' }).count(), 0);
      } finally {
        await fresh.close();
      }

      const members = async () => (await adminOk(app, 'GET', `${slugPath()}/members`)).members as any[];
      const nora = (await members()).find((m) => m.email === email);
      assert.equal(nora.role, 'manager');
      await page.reload();
      const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Nora New' }) });
      await row.waitFor();
      await row.getByRole('combobox', { name: 'Role of Nora New' }).selectOption('frontDesk');
      await waitFor('the role changed', async () => (await members()).find((m) => m.email === email)?.role === 'frontDesk', 15_000, 200);

      // The last owner cannot step down: the API's 409 message in the row, the role kept.
      const me = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /\(you\)/ }) });
      await me.getByRole('combobox').selectOption('manager');
      const refused = me.getByRole('alert');
      await refused.waitFor();
      assert.match((await refused.textContent()) ?? '', /owner/i);
      assert.equal((await members()).find((m) => m.id === owner.userId)?.role, 'owner');

      await row.getByRole('button', { name: 'Remove', exact: true }).click();
      await page.getByRole('dialog', { name: 'Remove Nora New?' }).getByRole('button', { name: 'Remove member' }).click();
      await row.waitFor({ state: 'detached' });
      assert.equal(
        (await members()).find((m) => m.email === email),
        undefined,
      );
    });

    test('what a role may not do is not offered: a manager reads keys and the log only; front desk is told the pages are not for them', async () => {
      const signedInAs = async (role: 'manager' | 'frontDesk') => {
        const m = await insertMember(db, salon.business.id, role);
        const c = await newContext();
        const p = await c.newPage();
        await p.goto(`${base}/dashboard/`);
        await p.getByRole('textbox', { name: 'Email' }).fill(m.email);
        await p.getByLabel('Password', { exact: true }).fill(m.password);
        await p.getByRole('button', { name: 'Sign in' }).click();
        await p.getByRole('navigation', { name: 'Main' }).waitFor();
        return { c, p, go: (name: string) => p.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click() };
      };

      const manager = await signedInAs('manager');
      try {
        const { p, go } = manager;
        await go('API keys');
        await p.getByRole('rowheader', { name: 'Website widget' }).waitFor();
        await p.getByText('only an owner can create or revoke them').waitFor();
        assert.equal(await p.getByRole('button', { name: 'Create key' }).count(), 0);
        assert.equal(await p.getByRole('button', { name: 'Revoke', exact: true }).count(), 0);
        await go('Webhooks');
        await p.getByRole('heading', { name: 'Delivery log' }).waitFor();
        await p.getByRole('button', { name: 'Apply filters' }).waitFor();
        assert.equal(await p.getByRole('textbox', { name: 'URL' }).count(), 0);
        assert.equal(await p.getByRole('button', { name: 'Redeliver', exact: true }).count(), 0);
        assert.deepEqual(await seriousViolations(p), [], 'the webhooks page of a manager');
      } finally {
        await manager.c.close();
      }

      const desk = await signedInAs('frontDesk');
      try {
        const { p, go } = desk;
        await go('API keys');
        await p.getByText('API keys is not available for your role.').waitFor();
        assert.equal(await p.getByRole('button', { name: 'Create key' }).count(), 0);
        await go('Webhooks');
        await p.getByText('The webhook is not available for your role.').waitFor();
        await go('Members');
        await p.getByText('Managing members is not available for your role.').waitFor();
        assert.equal(await p.getByRole('button', { name: 'Invite member' }).count(), 0);
        assert.deepEqual(await seriousViolations(p), [], 'a page not for the role');
      } finally {
        await desk.c.close();
      }
    });

    test('Webhooks: Delete webhook after a confirmation -> the API has none', async () => {
      await page.goto(`${base}/dashboard/${salon.business.slug}/webhooks`);
      await page.getByRole('button', { name: 'Delete webhook' }).click();
      await page.getByRole('dialog', { name: 'Delete the webhook?' }).getByRole('button', { name: 'Delete now' }).click();
      await page.getByText('No webhook yet').waitFor();
      const r = await api(app, salon.key.secret, 'GET', `/webhooks/config?salonSlug=${salon.business.slug}`);
      assert.equal(r.body.error?.code, 'webhook.not_configured', r.raw);
    });

    test('Deposit: deposit bookings made through the public API -> Mark paid / Waive -> the API shows deposit.status paid / waived', async () => {
      const service = await createService(app, salon.business.slug, salon.location.slug, {
        name: 'Balayage',
        deposit: { required: true, termsVersion: 'v1', amount: { amount: 2000, currency: 'HUF' } },
      });
      const staff = await createStaff(app, salon.business.slug, salon.location.slug, { name: 'Cili', serviceIds: [service.id] });
      const depositBooking = async (startTime: string): Promise<string> => {
        const r = await api(app, salon.key.secret, 'POST', '/bookings', {
          ...createBody(salon, { service, date: tomorrow, startTime, consent: { ...CONSENT, acceptedAt: new Date().toISOString() } }),
          staffId: staff.id,
          depositTermsAcceptance: { termsVersion: 'v1', acceptedAt: new Date().toISOString() },
        });
        assert.equal(r.status, 201, r.raw);
        return r.body.data.booking.bookingId;
      };
      const bookingId = await depositBooking('11:00');

      await page.goto(`${base}/dashboard/${salon.business.slug}/bookings/${bookingId}`);
      const panel = page.getByRole('region', { name: 'Deposit' });
      await panel.waitFor();
      await panel.getByText('pending').waitFor();
      assert.deepEqual(await seriousViolations(page), [], 'the booking detail with its deposit');
      await panel.getByRole('button', { name: 'Mark paid' }).click();
      await panel.getByText('paid', { exact: true }).waitFor();
      assert.equal(await panel.getByRole('button', { name: 'Waive' }).count(), 0);
      const { booking } = await adminOk(app, 'GET', `/bookings/${bookingId}`);
      assert.equal(booking.deposit.status, 'paid');

      // Waive: nothing is owed any more.
      const second = await depositBooking('13:00');
      await page.goto(`${base}/dashboard/${salon.business.slug}/bookings/${second}`);
      await panel.getByText('pending').waitFor();
      await panel.getByRole('button', { name: 'Waive' }).click();
      await panel.getByText('waived', { exact: true }).waitFor();
      assert.equal((await adminOk(app, 'GET', `/bookings/${second}`)).booking.deposit.status, 'waived');
      assert.deepEqual(cspErrors, [], 'no Content-Security-Policy violation');
    });
  });
}
