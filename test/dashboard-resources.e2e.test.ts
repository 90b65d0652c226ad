/**
 * The dashboard's Resources page and the service form's Resources choice (salon-scheduling.md,
 * "Resources") in a real browser: Debian's Chromium through playwright-core against the real
 * server, at 390 px and by keyboard. An owner creates a resource, edits its quantity and ticks it
 * on a service; the server holds each change; axe-core (WCAG 2 A and AA) finds nothing and the page
 * never scrolls sideways. Skipped, and said so, without /usr/bin/chromium.
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
  signInThroughUi,
  startLiveServer,
} from './helpers/browser.ts';
import { wcagViolations } from './helpers/booking-page.ts';
import { createSalon, type SalonFixture } from './helpers/fixtures.ts';
import { adminOk } from './helpers/harness.ts';
import { insertMember } from './helpers/members.ts';

if (skip) console.log(`# ${skip}`);

if (skip) test('dashboard Resources in Chromium', { skip }, () => {});
else describeBrowser();

const WIDTH = 390;

function describeBrowser() {
  describe('dashboard Resources in Chromium', () => {
    let server: LiveServer;
    let browser: Browser;
    let salon: SalonFixture;
    let owner: { email: string; password: string };
    const contexts: BrowserContext[] = [];

    before(async () => {
      server = await startLiveServer();
      salon = await createSalon(server.app);
      owner = await insertMember(server.db, salon.business.id, 'owner');
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: BROWSER_ARGS });
    });

    after(async () => {
      for (const c of contexts) await c.close().catch(() => {});
      await browser?.close().catch(() => {});
      await server?.close();
    });

    const resources = async () =>
      (await adminOk(server.app, 'GET', `/businesses/${salon.business.slug}/resources?locationSlug=${salon.location.slug}`))
        .resources as Array<{ id: string; name: string; quantity: number; active: boolean }>;

    async function press(page: Page, locator: ReturnType<Page['getByRole']>, key = 'Enter'): Promise<void> {
      await locator.focus();
      await page.keyboard.press(key);
    }

    /** Replaces a field's value as a keyboard user does: select all, then type. */
    async function typeInto(page: Page, locator: ReturnType<Page['getByLabel']>, value: string): Promise<void> {
      await locator.focus();
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type(value);
    }

    test('create a resource, edit its quantity, tick it on a service, at 390 px by keyboard', async () => {
      const context = await browser.newContext({ ...CONTEXT_OPTIONS, viewport: { width: WIDTH, height: 844 } });
      context.setDefaultTimeout(15_000);
      contexts.push(context);
      const page = await context.newPage();
      const csp = cspViolations(page);
      await signInThroughUi(page, server.base, owner.email, owner.password, `${salon.business.slug}/calendar`);

      const nav = page.getByRole('navigation', { name: 'Main' });
      // at 390 px the links are behind Menu
      await press(page, nav.getByRole('button', { name: 'Menu' }));
      await press(page, nav.getByRole('link', { name: 'Resources', exact: true }));
      await page.getByRole('heading', { level: 1, name: 'Resources' }).waitFor();
      await page.getByText('No resource at this location yet.').waitFor();

      // Create
      await press(page, page.getByRole('button', { name: 'New resource' }));
      const create = page.getByRole('dialog', { name: 'New resource' });
      await create.waitFor();
      await typeInto(page, create.getByLabel('Name'), 'Wash basin');
      await typeInto(page, create.getByLabel('Quantity'), '2');
      assert.deepEqual(await wcagViolations(page), [], 'the New resource dialog');
      await page.keyboard.press('Enter');
      await create.waitFor({ state: 'hidden' });
      const row = page.getByRole('row', { name: /Wash basin/ });
      await row.waitFor();
      assert.match((await row.textContent()) ?? '', /Wash basin\s*2\s*Active/);
      const [made] = await resources();
      assert.deepEqual(made && { ...made, id: undefined }, {
        id: undefined,
        locationSlug: salon.location.slug,
        name: 'Wash basin',
        quantity: 2,
        active: true,
      });

      assert.deepEqual(await wcagViolations(page), [], 'the Resources page with a resource');
      assert.deepEqual(await widths(page), { scrollWidth: WIDTH, viewport: WIDTH }, 'no sideways scrolling on the Resources page');

      // Edit its quantity
      await press(page, page.getByRole('button', { name: 'Edit Wash basin' }));
      const edit = page.getByRole('dialog', { name: 'Edit Wash basin' });
      await edit.waitFor();
      await typeInto(page, edit.getByLabel('Quantity'), '3');
      await page.keyboard.press('Enter');
      await edit.waitFor({ state: 'hidden' });
      await page
        .getByRole('row', { name: /Wash basin/ })
        .getByRole('cell', { name: '3', exact: true })
        .waitFor();
      assert.equal((await resources())[0]!.quantity, 3);

      // Tick it on a service
      await press(page, nav.getByRole('button', { name: 'Menu' }));
      await press(page, nav.getByRole('link', { name: 'Services', exact: true }));
      await page.getByRole('heading', { level: 1, name: 'Services' }).waitFor();
      await press(page, page.getByRole('button', { name: `Edit ${salon.service.name}` }));
      const form = page.getByRole('dialog', { name: `Edit ${salon.service.name}` });
      await form.waitFor();
      const group = form.getByRole('group', { name: 'Resources' });
      const box = group.getByRole('checkbox', { name: 'Wash basin' });
      await box.waitFor();
      await press(page, box, 'Space');
      assert.ok(await box.isChecked());
      assert.deepEqual(await wcagViolations(page), [], 'the service form with its Resources');
      // Nothing of the form reaches past a 390 px screen.
      assert.deepEqual(await pastEdge(page, 'dialog[open] *'), [], 'nothing of the service form reaches past the edge');
      await press(page, form.getByRole('button', { name: 'Save service' }));
      await form.waitFor({ state: 'hidden' });
      const service = (await adminOk(server.app, 'GET', `/services/${salon.service.id}`)).service;
      assert.deepEqual(service.resourceIds, [made!.id]);

      // The form shows what the service needs when opened again.
      await press(page, page.getByRole('button', { name: `Edit ${salon.service.name}` }));
      assert.ok(await form.getByRole('group', { name: 'Resources' }).getByRole('checkbox', { name: 'Wash basin' }).isChecked());
      assert.deepEqual(csp, [], 'no CSP violation');
    });
  });
}

/** The page's scroll width and the viewport's: equal when nothing reaches past the right edge. */
async function widths(page: Page): Promise<{ scrollWidth: number; viewport: number; past?: string[] }> {
  const [scrollWidth, viewport] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth] as const);
  if (scrollWidth <= viewport) return { scrollWidth, viewport };
  return { scrollWidth, viewport, past: await pastEdge(page, 'body *') };
}

/** The innermost elements matching `selector` that reach past the right edge of the screen (a failure names them). */
function pastEdge(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const edge = window.innerWidth + 0.5;
    return [...document.querySelectorAll(sel)]
      .filter((el) => el.getBoundingClientRect().right > edge)
      .filter((el) => ![...el.children].some((c) => c.getBoundingClientRect().right > edge))
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}: ${(el.textContent ?? '').slice(0, 40)}`);
  }, selector);
}
