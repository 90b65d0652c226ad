/**
 * The calendar's week view as a front-desk tool (issue 27, docs/dashboard.md "Week view, click to
 * book, drag to move") in a real browser: an empty time opens New booking filled with the staff
 * member, date and time, and the booking made is scrolled into view; a booking dragged to another
 * day and time, and one moved with the arrow keys and Enter, are moved on the server after the
 * same question as Reschedule; a day the staff member does not work says `Closed`; New booking
 * proposes the next free time, not 09:00, for a staff member whose morning is booked; the
 * now-line passes behind a booking's text; a week with a clock change keeps each time on one line
 * across its days (the hour labels hold for the changed day too); axe-core (WCAG 2 A and AA) finds nothing on the week.
 * Skipped, and said so, without /usr/bin/chromium.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
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
import { createSalon, type SalonFixture } from './helpers/fixtures.ts';
import { adminOk } from './helpers/harness.ts';
import { insertMember } from './helpers/members.ts';

if (skip) console.log(`# ${skip}`);

if (skip) test('calendar week view in Chromium', { skip }, () => {});
else describeBrowser();

/** The next local date in Budapest, at least `after` days on, that falls on ISO weekday `weekday`. */
function budapestWeekday(after: number, weekday: number): string {
  for (let n = after; ; n++) {
    const date = budapestDate(n);
    if (((new Date(`${date}T12:00:00Z`).getUTCDay() + 6) % 7) + 1 === weekday) return date;
  }
}

/** The next last Sunday of March or October (Europe's clock changes) at least a day after today in Budapest. */
function nextClockChange(): string {
  const today = budapestDate(1);
  const year = Number(today.slice(0, 4));
  const lastSunday = (y: number, month: number) => {
    const d = new Date(Date.UTC(y, month, 0)); // the month's last day
    d.setUTCDate(d.getUTCDate() - d.getUTCDay());
    return d.toISOString().slice(0, 10);
  };
  return [lastSunday(year, 3), lastSunday(year, 10), lastSunday(year + 1, 3)].find((d) => d >= today)!;
}

function plusDays(date: string, days: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

function describeBrowser() {
  describe('calendar week view in Chromium', () => {
    let server: LiveServer;
    let browser: Browser;
    let page: Page;
    let salon: SalonFixture;
    let anna: string;
    // a whole week at least a week ahead: nothing in it is in the past
    const monday = budapestWeekday(8, 1);
    const [tuesday, wednesday, thursday, friday, sunday] = [1, 2, 3, 4, 6].map((n) => plusDays(monday, n)) as [
      string,
      string,
      string,
      string,
      string,
    ];
    const ids = new Map<string, string>();

    const book = async (staffId: string, date: string, startTime: string, name: string) => {
      const r = await adminOk(server.app, 'POST', `/businesses/${salon.business.slug}/bookings`, {
        locationSlug: salon.location.slug,
        serviceId: salon.service.id,
        staffId,
        date,
        startTime,
        guest: { name, phone: '+36301234567' },
      });
      ids.set(name, r.booking.bookingId);
      return r.booking;
    };
    const booking = async (name: string) => (await adminOk(server.app, 'GET', `/bookings/${ids.get(name)}`)).booking;
    const scroller = () => page.getByRole('region', { name: /^Week view of Anna/ });
    const column = (date: string) => page.locator(`[data-drop-date="${date}"]`);

    /** The point of a column at a local time, after scrolling the week so that it is in sight. */
    async function pointAt(date: string, time: string): Promise<{ x: number; y: number }> {
      const [h, m] = time.split(':').map(Number) as [number, number];
      const minute = h * 60 + m;
      await scroller().evaluate((el, top) => {
        el.scrollTop = top;
      }, minute - 120);
      const box = (await column(date).boundingBox())!;
      return { x: box.x + box.width / 2, y: box.y + minute + 3 };
    }

    /** Whether the element lies wholly inside the week's scrolled area. */
    async function inSight(target: Locator): Promise<boolean> {
      const outer = (await scroller().boundingBox())!;
      const inner = (await target.boundingBox())!;
      return inner.y >= outer.y && inner.y + inner.height <= outer.y + outer.height;
    }

    before(async () => {
      server = await startLiveServer();
      salon = await createSalon(server.app);
      anna = salon.staff[0]!.id;
      // Anna works Monday to Saturday: her Sundays are closed
      await adminOk(server.app, 'PATCH', `/staff/${anna}`, {
        workingHours: [1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start: '09:00', end: '17:00' })),
      });
      // Anna's Tuesday morning is booked through: her next free time that day is 12:00
      for (const t of ['09:00', '09:30', '10:00', '10:30', '11:00', '11:30']) await book(anna, tuesday, t, `Morning ${t}`);
      await book(anna, wednesday, '10:00', 'Drag Dora');
      await book(anna, thursday, '10:00', 'Key Kata');
      const owner = await insertMember(server.db, salon.business.id, 'owner');
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: BROWSER_ARGS });
      const context = await browser.newContext({ ...CONTEXT_OPTIONS, viewport: { width: 1280, height: 1000 } });
      context.setDefaultTimeout(15_000);
      page = await context.newPage();
      await signInThroughUi(page, server.base, owner.email, owner.password, `${salon.business.slug}/calendar?date=${tuesday}`);
    });

    after(async () => {
      await browser?.close().catch(() => {});
      await server?.close();
    });

    test('Week shows one staff member Monday to Sunday, a closed day says Closed, axe finds nothing', async () => {
      const csp = cspViolations(page);
      await page.getByRole('button', { name: 'Week' }).click();
      await page.getByRole('combobox', { name: 'Staff member' }).selectOption({ label: 'Anna' });
      await scroller().waitFor();
      await page.getByRole('link', { name: /Morning 09:00/ }).waitFor();
      // each day is its own read: wait for the whole week (Saturday's header is the last day Anna works)
      await page.getByRole('columnheader', { name: /^Sun .*Closed$/ }).waitFor();
      await page.waitForFunction(() => document.querySelectorAll('[data-drop-date] .open').length === 6);
      const headers = await page.getByRole('columnheader').allInnerTexts();
      assert.equal(headers.length, 8, 'a time column and seven days');
      assert.match(headers[7]!, /^Sun.*\n?Closed$/s, 'Anna does not work on Sundays');
      assert.doesNotMatch(headers[1]!, /Closed/);
      assert.equal(await column(sunday).count(), 1);
      assert.deepEqual(await wcagViolations(page), [], 'the week view');
      assert.deepEqual(csp, []);
    });

    test('New booking proposes the next free time of the chosen staff member, not 09:00', async () => {
      await page.getByRole('button', { name: 'New booking' }).click();
      const dialog = page.getByRole('dialog', { name: 'New booking' });
      await dialog.waitFor();
      await dialog.getByRole('combobox', { name: 'Service' }).selectOption({ label: 'Haircut (30 min)' });
      await dialog.getByRole('combobox', { name: 'Staff', exact: true }).selectOption({ label: 'Anna' });
      const time = dialog.getByLabel('Time', { exact: true });
      await page.waitForFunction(() => document.querySelector<HTMLInputElement>('dialog[open] input[name="time"]')?.value === '12:00');
      assert.equal(await dialog.getByLabel('Date', { exact: true }).inputValue(), tuesday);
      assert.equal(await time.inputValue(), '12:00');
      // Bence's Tuesday is empty: his proposal is the morning
      await dialog.getByRole('combobox', { name: 'Staff', exact: true }).selectOption({ label: 'Bence' });
      await page.waitForFunction(() => document.querySelector<HTMLInputElement>('dialog[open] input[name="time"]')?.value === '09:00');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden' });
    });

    test('an empty time opens New booking filled in; the booking made is scrolled into view', async () => {
      const at = await pointAt(wednesday, '14:00');
      await page.mouse.click(at.x, at.y);
      const dialog = page.getByRole('dialog', { name: 'New booking' });
      await dialog.waitFor();
      assert.equal(await dialog.getByRole('combobox', { name: 'Staff', exact: true }).inputValue(), anna);
      assert.equal(await dialog.getByLabel('Date', { exact: true }).inputValue(), wednesday);
      assert.equal(await dialog.getByLabel('Time', { exact: true }).inputValue(), '14:00');
      assert.deepEqual(await wcagViolations(page), [], 'New booking from an empty time');
      await dialog.getByRole('textbox', { name: 'Guest name' }).fill('Click Clara');
      await dialog.getByRole('textbox', { name: 'Phone' }).fill('+36301234567');
      // the week scrolled away from the afternoon: the new booking must be brought back into sight
      await scroller().evaluate((el) => {
        el.scrollTop = 0;
      });
      await dialog.getByRole('button', { name: 'Create booking' }).click();
      await dialog.waitFor({ state: 'hidden' });
      const block = page.getByRole('link', { name: /Click Clara/ });
      await block.waitFor();
      await page.waitForFunction(() => {
        const s = document.querySelector('.day-scroll')!.getBoundingClientRect();
        const b = [...document.querySelectorAll('a.booking')].find((a) => a.textContent?.includes('Click Clara'))?.getBoundingClientRect();
        return b !== undefined && b.top >= s.top && b.bottom <= s.bottom;
      });
      assert.ok(await inSight(block));
      const made = (await adminOk(server.app, 'GET', `/businesses/${salon.business.slug}/bookings?limit=100`)).bookings.find(
        (b: { guest: { name: string } }) => b.guest.name === 'Click Clara',
      );
      assert.equal(made.staffId, anna);
      assert.deepEqual([made.confirmedSlot.date, made.confirmedSlot.startTime], [wednesday, '14:00']);
    });

    test('an empty time still leads to Why not free?, asked about that time', async () => {
      const at = await pointAt(wednesday, '16:00');
      await page.mouse.click(at.x, at.y);
      const dialog = page.getByRole('dialog', { name: 'New booking' });
      await dialog.getByRole('button', { name: 'Why not free at this time?' }).click();
      const why = page.getByRole('dialog', { name: 'Why not free?' });
      await why.waitFor();
      assert.equal(await why.getByLabel('Time').inputValue(), '16:00');
      assert.equal(await why.getByLabel('Date').inputValue(), wednesday);
      assert.equal(await why.getByRole('combobox', { name: 'Staff' }).inputValue(), anna);
      await why.getByRole('button', { name: 'Explain' }).click();
      await why.getByRole('region', { name: 'Answer' }).getByText(`${wednesday} 16:00`, { exact: false }).waitFor();
      await why.getByRole('button', { name: 'Close' }).click();
      await why.waitFor({ state: 'hidden' });
    });

    test('a booking dragged to another day and time is moved after the Reschedule question', async () => {
      const block = page.getByRole('link', { name: /Drag Dora/ });
      await scroller().evaluate((el) => {
        el.scrollTop = 9 * 60;
      });
      const from = (await block.boundingBox())!;
      const to = (await column(friday).boundingBox())!;
      // grabbed 5 px below its top: dropped with its top at 13:00 on Friday
      await page.mouse.move(from.x + 10, from.y + 5);
      await page.mouse.down();
      for (let i = 1; i <= 10; i++) {
        await page.mouse.move(
          from.x + 10 + ((to.x + 10 - from.x - 10) * i) / 10,
          from.y + 5 + ((to.y + 13 * 60 + 5 - from.y - 5) * i) / 10,
        );
      }
      await page.mouse.up();
      const ask = page.getByRole('dialog', { name: 'Move the booking' });
      await ask.waitFor();
      assert.equal(await ask.getByLabel('Date').inputValue(), friday);
      assert.equal(await ask.getByLabel('Time').inputValue(), '13:00');
      assert.equal((await booking('Drag Dora')).confirmedSlot.startTime, '10:00', 'nothing moves before the answer');
      assert.deepEqual(await wcagViolations(page), [], 'the move question');
      await ask.getByRole('button', { name: 'Move booking' }).click();
      await ask.waitFor({ state: 'hidden' });
      const moved = await booking('Drag Dora');
      assert.deepEqual([moved.confirmedSlot.date, moved.confirmedSlot.startTime, moved.staffId], [friday, '13:00', anna]);
      await page.getByRole('link', { name: /Fri.*13:00.*Drag Dora/ }).waitFor();
      assert.equal(page.url().includes('/bookings/'), false, 'the drop did not open the booking');
    });

    test('in the day view a booking is dragged to another staff member', async () => {
      await page.goto(`${server.base}/dashboard/${salon.business.slug}/calendar?date=${friday}`);
      const block = page.getByRole('link', { name: /Drag Dora/ });
      await block.waitFor();
      const day = page.getByRole('region', { name: `Day view ${friday}` });
      assert.deepEqual(await wcagViolations(page), [], 'the day view with movable bookings');
      await day.evaluate((el) => {
        el.scrollTop = 12 * 60;
      });
      const from = (await block.boundingBox())!;
      const to = (await page.locator(`[data-drop-staff="${salon.staff[1]!.id}"]`).boundingBox())!;
      await page.mouse.move(from.x + 10, from.y + 5);
      await page.mouse.down();
      for (let i = 1; i <= 10; i++) {
        await page.mouse.move(
          from.x + 10 + ((to.x + 10 - from.x - 10) * i) / 10,
          from.y + 5 + ((to.y + 15 * 60 + 5 - from.y - 5) * i) / 10,
        );
      }
      await page.mouse.up();
      const ask = page.getByRole('dialog', { name: 'Move the booking' });
      await ask.waitFor();
      assert.equal(await ask.getByRole('combobox', { name: 'Staff' }).inputValue(), salon.staff[1]!.id);
      assert.equal(await ask.getByLabel('Time').inputValue(), '15:00');
      await ask.getByRole('button', { name: 'Move booking' }).click();
      await ask.waitFor({ state: 'hidden' });
      const moved = await booking('Drag Dora');
      assert.deepEqual([moved.confirmedSlot.date, moved.confirmedSlot.startTime, moved.staffId], [friday, '15:00', salon.staff[1]!.id]);
      await page.goto(`${server.base}/dashboard/${salon.business.slug}/calendar?date=${tuesday}&view=week&staff=${anna}`);
      await page.getByRole('link', { name: /Morning 09:00/ }).waitFor();
    });

    test('a booking moved by keyboard: arrow keys, Enter, the same question, Move booking', async () => {
      const block = page.getByRole('link', { name: /Key Kata/ });
      await block.focus();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowRight');
      await page.getByText(/Move to .* 10:30; Enter to confirm/).waitFor({ state: 'attached' });
      await page.keyboard.press('Enter');
      const ask = page.getByRole('dialog', { name: 'Move the booking' });
      await ask.waitFor();
      assert.equal(await ask.getByLabel('Date').inputValue(), friday);
      assert.equal(await ask.getByLabel('Time').inputValue(), '10:30');
      await ask.getByRole('button', { name: 'Move booking' }).press('Enter');
      await ask.waitFor({ state: 'hidden' });
      const moved = await booking('Key Kata');
      assert.deepEqual([moved.confirmedSlot.date, moved.confirmedSlot.startTime], [friday, '10:30']);
    });

    test('a clash is refused in the question, as Reschedule refuses it, and nothing moves', async () => {
      const block = page.getByRole('link', { name: /Morning 11:30/ });
      await block.focus();
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('Enter');
      const ask = page.getByRole('dialog', { name: 'Move the booking' });
      await ask.getByRole('button', { name: 'Move booking' }).click();
      await ask.getByRole('alert').waitFor();
      await ask.getByRole('button', { name: 'Back' }).click();
      assert.equal((await booking('Morning 11:30')).confirmedSlot.startTime, '11:30');
    });

    test('a week with a clock change keeps 10:00 on one line, and its day says when the clocks change', async () => {
      const sunday = nextClockChange();
      const monday = plusDays(sunday, -6);
      const bence = salon.staff[1]!.id;
      await book(bence, monday, '10:00', 'Before Bea');
      await book(bence, sunday, '10:00', 'Change Cecil');
      await page.goto(`${server.base}/dashboard/${salon.business.slug}/calendar?date=${monday}&view=week&staff=${bence}`);
      const before = page.getByRole('link', { name: /Before Bea/ });
      const after = page.getByRole('link', { name: /Change Cecil/ });
      await after.scrollIntoViewIfNeeded();
      const [a, b] = [(await before.boundingBox())!, (await after.boundingBox())!];
      assert.equal(Math.round(b.y), Math.round(a.y), 'both 10:00 bookings start on the same line');
      const label = page.locator('.hour-label', { hasText: /^10:00$/ });
      // the label sits on its hour line (a pixel of border either way), an hour is 60 px
      assert.ok(Math.abs((await label.boundingBox())!.y - a.y) <= 3, 'the 10:00 label is on that line');
      const change = sunday.slice(5, 7) === '03' ? '02:00' : '03:00';
      await page.getByRole('columnheader', { name: new RegExp(`Clock change at ${change}`) }).waitFor();
      assert.equal(await page.getByRole('columnheader', { name: /Clock change/ }).count(), 1, 'only that day');
    });

    test("the now-line passes behind a booking's text", async () => {
      // a booking under way now (a manual booking may be in the past), in today's week
      const parts = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Budapest', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
        .format(new Date(Date.now() - 10 * 60_000))
        .split(':')
        .map(Number) as [number, number];
      if (parts[0] === 23 && parts[1] >= 30) return; // too near midnight for a booking that spans now
      const start = `${String(parts[0]).padStart(2, '0')}:${String(parts[1] - (parts[1] % 5)).padStart(2, '0')}`;
      const today = budapestDate(0);
      const bence = salon.staff[1]!.id;
      await book(bence, today, start, 'Now Nora');
      await page.goto(`${server.base}/dashboard/${salon.business.slug}/calendar?date=${today}&view=week&staff=${bence}`);
      const block = page.getByRole('link', { name: /Now Nora/ });
      await block.scrollIntoViewIfNeeded();
      const line = page.locator(`[data-drop-date="${today}"] .now-line`);
      const l = (await line.boundingBox())!;
      const b = (await block.boundingBox())!;
      assert.ok(l.y > b.y && l.y < b.y + b.height, 'the line crosses the booking');
      const onTop = await page.evaluate(
        ({ x, y }) => document.elementFromPoint(x, y)?.closest('a.booking')?.textContent ?? 'not the booking',
        { x: b.x + b.width / 2, y: l.y + 1 },
      );
      assert.match(onTop, /Now Nora/);
    });
  });
}
