/**
 * Every dashboard page on a 390 px phone, a 1,024 px tablet and a 1,280 px laptop (issue 27): the
 * page never scrolls sideways, the calendar's booking blocks show their text whole, axe-core
 * (WCAG 2 A and AA) finds nothing, and on the phone the navigation is a `Menu` button that opens
 * the same links by keyboard and the main dialogs fit the screen. One browser page and one seeded
 * salon for all of it. Takes calendar-phone.png (into a temporary folder unless SCREENSHOTS_DIR is
 * set, as `npm run screenshots` does). Skipped, and said so, without /usr/bin/chromium.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type Browser, chromium, type Page } from 'playwright-core';
import { SECTIONS } from '../dashboard/src/app/sections.ts';
import { wcagViolations } from './helpers/booking-page.ts';
import {
  BROWSER_ARGS,
  budapestDate,
  CHROMIUM,
  CONTEXT_OPTIONS,
  cspViolations,
  type LiveServer,
  SKIP_BROWSER as skip,
  signInThroughUi,
  startLiveServer,
} from './helpers/browser.ts';
import { type BusySalon, createBusySalon } from './helpers/busy-salon.ts';

const SIZES = [
  { width: 390, height: 844 },
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
];

if (skip) console.log(`# ${skip}`);

if (skip) test('dashboard on narrow screens in Chromium', { skip }, () => {});
else describeBrowser();

function describeBrowser() {
  describe('dashboard on narrow screens in Chromium', () => {
    let server: LiveServer;
    let browser: Browser;
    let busy: BusySalon;
    let page: Page;
    let csp: string[];
    const date = budapestDate(3);
    const shots = process.env.SCREENSHOTS_DIR ?? mkdtempSync(join(tmpdir(), 'dashboard-narrow-shots-'));
    const at = (section: string) =>
      `${server.base}/dashboard/${busy.salon.business.slug}/${section}${section === 'calendar' ? `?date=${date}` : ''}`;

    before(async () => {
      server = await startLiveServer();
      busy = await createBusySalon(server, date);
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: BROWSER_ARGS });
      const context = await browser.newContext({ ...CONTEXT_OPTIONS, viewport: SIZES[0]! });
      context.setDefaultTimeout(15_000);
      page = await context.newPage();
      csp = cspViolations(page);
      await signInThroughUi(page, server.base, busy.owner.email, busy.owner.password, `${busy.salon.business.slug}/calendar`);
    });

    after(async () => {
      await browser?.close().catch(() => {});
      await server?.close();
      if (!process.env.SCREENSHOTS_DIR) rmSync(shots, { recursive: true, force: true });
    });

    for (const size of SIZES) {
      test(`every section at ${size.width}x${size.height}: no sideways scrolling, whole calendar blocks, no axe violation`, async () => {
        await page.setViewportSize(size);
        const problems: string[] = [];
        // every section, and a booking's page (reached from the calendar)
        for (const s of [...SECTIONS, { path: `bookings/${busy.bookingId}`, name: 'Booking detail' }]) {
          await open(page, at(s.path));
          const { scrollWidth, innerWidth, past } = await widths(page);
          if (scrollWidth !== innerWidth) problems.push(`${s.name}: scrollWidth ${scrollWidth} at ${innerWidth} (${past.join(', ')})`);
          for (const v of await wcagViolations(page)) problems.push(`${s.name}: ${v}`);
          if (s.path === 'calendar') {
            const blocks = await calendarBlocks(page);
            assert.equal(blocks.count, busy.guests.length + 2, 'every booking of the day is drawn');
            for (const c of blocks.clipped) problems.push(`Calendar: ${c}`);
            if (size.width === 390) await page.screenshot({ path: join(shots, 'calendar-phone.png') });
          }
        }
        assert.deepEqual(problems, []);
        assert.deepEqual(csp, [], 'no CSP violation');
      });
    }

    test('390 px: the navigation is a Menu button that opens the same links, by keyboard', async () => {
      await page.setViewportSize(SIZES[0]!);
      await open(page, at('calendar'));
      const nav = page.getByRole('navigation', { name: 'Main' });
      const menu = nav.getByRole('button', { name: 'Menu' });
      assert.equal(await menu.getAttribute('aria-expanded'), 'false');
      assert.equal(await nav.getByRole('link').count(), 0, 'the links are out of the way until asked for');
      await menu.focus();
      await page.keyboard.press('Enter');
      assert.equal(await menu.getAttribute('aria-expanded'), 'true');
      assert.deepEqual(
        await nav.getByRole('link').allTextContents(),
        SECTIONS.map((s) => s.name),
      );
      assert.deepEqual(await wcagViolations(page), [], 'the open menu');
      // Escape closes it and leaves focus on the button
      await page.keyboard.press('Escape');
      assert.equal(await menu.getAttribute('aria-expanded'), 'false');
      assert.equal(await menu.evaluate((b) => b === document.activeElement), true);
      // Tab from the button reaches the links in order; Enter follows one and closes the menu
      await page.keyboard.press('Enter');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Requests');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Requests' }).waitFor();
      // closed after choosing a page (the new page's first render may come just before)
      await nav.locator('button[aria-expanded="false"]').waitFor({ timeout: 2_000 });

      // a tablet keeps the links beside the page, without the button
      await page.setViewportSize(SIZES[1]!);
      assert.equal(await menu.isVisible(), false);
      assert.equal(await nav.getByRole('link').count(), SECTIONS.length);
    });

    test('390 px: a list drawn as cards is still a table to a screen reader, its labels shown but not read', async () => {
      await page.setViewportSize(SIZES[0]!);
      await open(page, at('services'));
      const cell = page.locator('.list td[data-label="Duration"]').first();
      assert.equal(await cell.evaluate((td) => getComputedStyle(td).display), 'block', 'the row is a card');
      const cdp = await page.context().newCDPSession(page);
      const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as {
        nodes: Array<{ role?: { value: string }; name?: { value: string } }>;
      };
      await cdp.detach();
      const roles = (role: string) => nodes.filter((n) => n.role?.value === role).map((n) => n.name?.value ?? '');
      assert.ok(roles('columnheader').includes('Duration'), 'the column headers are still there');
      assert.ok(roles('rowheader').includes(busy.salon.service.name));
      assert.ok(roles('cell').includes('30 min'), `a cell is named by its value alone: ${roles('cell').slice(0, 6).join(' | ')}`);
    });

    test('390 px: New booking, an edit dialog and Create key fit the screen', async () => {
      await page.setViewportSize(SIZES[0]!);
      const dialogs: Array<[string, string, string]> = [
        ['calendar', 'New booking', 'New booking'],
        ['services', `Edit ${busy.salon.manualService.name}`, `Edit ${busy.salon.manualService.name}`],
        ['staff', `Edit ${busy.salon.staff[0]!.name}`, `Edit ${busy.salon.staff[0]!.name}`],
        ['staff', `Time off of ${busy.salon.staff[0]!.name}`, `Time off of ${busy.salon.staff[0]!.name}`],
        ['api-keys', 'Create key', 'Create an API key'],
      ];
      for (const [section, button, title] of dialogs) {
        await open(page, at(section));
        await page.getByRole('button', { name: button, exact: true }).click();
        const dialog = page.getByRole('dialog', { name: title });
        await dialog.waitFor();
        const box = await dialog.boundingBox();
        assert.ok(box, title);
        assert.ok(box.x >= 0 && box.x + box.width <= SIZES[0]!.width, `${title} fits: ${box.x} + ${box.width}`);
        assert.deepEqual(await pastEdge(page, 'dialog[open] *'), [], `nothing of ${title} reaches past the edge`);
        assert.deepEqual(await wcagViolations(page), [], title);
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'hidden' });
      }
    });
  });
}

/** Opens a page and waits until its data is drawn. */
async function open(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await page.waitForFunction(() => !document.querySelector('.loading, [aria-busy="true"]'));
}

async function widths(page: Page): Promise<{ scrollWidth: number; innerWidth: number; past: string[] }> {
  const [scrollWidth, innerWidth] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth] as const);
  return { scrollWidth, innerWidth, past: scrollWidth > innerWidth ? await pastEdge(page, 'body *') : [] };
}

/** The elements whose right edge is past the viewport's, shortest description first. */
function pastEdge(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const out: string[] = [];
    for (const el of document.querySelectorAll(sel)) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.right > window.innerWidth + 0.5 && !el.closest('.day-scroll')) {
        out.push(`${el.tagName.toLowerCase()}.${el.className} ${Math.round(r.right)}`);
      }
    }
    return out.slice(0, 8);
  }, selector);
}

/**
 * The calendar's booking blocks and those whose text does not fit: the block cuts its content off
 * (overflow hidden), so content taller or wider than the block, or a shown line cut short, is text
 * the salon cannot read.
 */
function calendarBlocks(page: Page): Promise<{ count: number; clipped: string[] }> {
  return page.evaluate(() => {
    const clipped: string[] = [];
    const blocks = [...document.querySelectorAll<HTMLElement>('.day-grid .booking')];
    for (const b of blocks) {
      const name = b.getAttribute('aria-label') ?? '';
      if (b.scrollHeight > b.clientHeight || b.scrollWidth > b.clientWidth) {
        clipped.push(`${name}: content ${b.scrollWidth}x${b.scrollHeight} in ${b.clientWidth}x${b.clientHeight}`);
      }
      const box = b.getBoundingClientRect();
      const shown = [...b.querySelectorAll<HTMLElement>('.booking-time, .booking-guest, .booking-service, .booking-status')].filter(
        (el) => getComputedStyle(el).display !== 'none',
      );
      if (!shown.some((el) => el.classList.contains('booking-guest'))) clipped.push(`${name}: the guest is not shown`);
      for (const el of shown) {
        const r = el.getBoundingClientRect();
        if (r.bottom > box.bottom + 0.5 || r.right > box.right + 0.5) clipped.push(`${name}: ${el.className} reaches out of the block`);
        if (getComputedStyle(el).display !== 'inline' && el.scrollWidth > el.clientWidth)
          clipped.push(`${name}: ${el.className} cut short`);
      }
    }
    return { count: blocks.length, clipped };
  });
}
