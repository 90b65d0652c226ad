/**
 * The booking page at its edges (issue 24), each a finding of a review of its first version: a
 * reloaded form is not counted twice against the per-address limit, an IPv6 /64 is one client, a
 * salon may be called `assets`, an embedded page opens the manage and payment pages whole, no log
 * line carries a guest's bearer link, and a same-origin post from a no-referrer page passes.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { isCrossSitePost } from '../src/http/routes/guest/guards.ts';
import { createLogger } from '../src/logger.ts';
import { dbTargets } from './helpers/databases.ts';
import { adminOk, type Harness } from './helpers/harness.ts';
import { createSalon, type SalonFixture, uniqueSlug } from './helpers/fixtures.ts';
import { bookingHarness } from './helpers/bookings.ts';
import { buttonTexts, clickButton, follow, get, GUEST, h1, link, type Page, post } from './helpers/guest-page.ts';

const pagePath = (s: SalonFixture) => `/book/${s.business.slug}/${s.location.slug}`;

async function timeStep(h: Harness, s: SalonFixture, service = 'Haircut', staff = 'Any staff'): Promise<Page> {
  const first = await get(h.app, pagePath(s));
  const staffStep = await get(h.app, link(first.html, service, true).href);
  return get(h.app, link(staffStep.html, staff).href);
}

function bookForm(details: Page, fields: Record<string, string> = GUEST) {
  const click = clickButton(details.html, 'Book');
  return { action: click.action, fields: { ...click.fields, ...fields } };
}

for (const target of dbTargets()) {
  describe(`booking page at its edges [${target.name}]`, () => {
    let h: Harness;
    let lines = '';
    before(async () => {
      const stream = new Writable({
        write(chunk, _enc, done) {
          lines += chunk.toString();
          done();
        },
      });
      // The per-address limits as configured, and the process's own logger at info.
      h = await bookingHarness(target, { rateLimitStore: undefined, logger: createLogger('info', stream) });
    });
    after(() => h.close());

    test('a replayed double submit of one form does not count again against the 5 bookings an hour (docs/guest-pages.md)', async () => {
      const s = await createSalon(h.app);
      const ip = '192.0.2.61';
      const times = await timeStep(h, s);
      const click = clickButton(times.html, '10:00');
      const details = await follow(h.app, await post(h.app, click.action, click.fields, {}, ip));
      const form = bookForm(details);
      const answers: Array<number> = [];
      const locations = new Set<string>();
      // A guest without the script who presses Book, then reloads the POST a few times.
      for (let i = 0; i < 6; i++) {
        const r = await post(h.app, form.action, form.fields, {}, ip);
        answers.push(r.status);
        if (r.status === 303) locations.add(String(r.headers.location));
      }
      assert.deepEqual(answers, [303, 303, 303, 303, 303, 303], 'every replay answers the one booking');
      assert.equal(locations.size, 1);
    });

    test('addresses of one IPv6 /64 (one household, one phone) share the 20 holds an hour', async () => {
      const s = await createSalon(h.app);
      const times = await timeStep(h, s);
      const starts = buttonTexts(times.html).slice(0, 21);
      assert.equal(starts.length, 21);
      const statuses: number[] = [];
      for (const [i, time] of starts.entries()) {
        const c = clickButton(times.html, time);
        // A client rotating its privacy address inside its own /64 for each request.
        statuses.push((await post(h.app, c.action, c.fields, {}, `2001:db8:42:7::${(i + 1).toString(16)}`)).status);
      }
      assert.equal(statuses.filter((x) => x === 303).length, 20, JSON.stringify(statuses));
      assert.equal(statuses[20], 429, 'the 21st hold of the /64');
    });

    test('a salon whose slug is `assets` gets its location page (its assets live beside /book/)', async () => {
      // `assets` is a valid business slug (SLUG_PATTERN); on a reused database move an earlier one aside.
      await h.db.query(`UPDATE businesses SET slug = $1 WHERE slug = 'assets'`, [uniqueSlug()]);
      const s = await createSalon(h.app);
      await h.db.query(`UPDATE businesses SET slug = 'assets' WHERE id = $1`, [s.business.id]);
      const root = await get(h.app, '/book/assets');
      assert.equal(root.status, 303);
      const page = await get(h.app, String(root.headers.location));
      assert.equal(page.status, 200, `${root.headers.location}: ${h1(page.html)}`);
      assert.equal(h1(page.html), 'Choose a service');
    });

    test('in an embedded page, Manage booking leaves the frame (its page refuses every embedding origin)', async () => {
      const s = await createSalon(h.app);
      await adminOk(h.app, 'PATCH', `/businesses/${s.business.slug}/guest-settings`, {
        bookingPage: { embedOrigins: ['https://www.salon.example'] },
      });
      const times = await timeStep(h, s);
      const c = clickButton(times.html, '13:00');
      const details = await follow(h.app, await post(h.app, c.action, c.fields, {}, '192.0.2.65'));
      assert.match(String(details.headers['content-security-policy']), /frame-ancestors 'self' https:\/\/www\.salon\.example/);
      const form = bookForm(details);
      const done = await follow(h.app, await post(h.app, form.action, form.fields, {}, '192.0.2.65'));
      assert.equal(h1(done.html), 'Booking confirmed');
      const manageHref = link(done.html, 'Manage booking').href;
      const manage = await get(h.app, new URL(manageHref).pathname);
      // The manage page may be framed by this origin only, so inside the salon's frame it is blocked.
      assert.ok(!String(manage.headers['content-security-policy']).includes('salon.example'));
      const anchor = /<a\b[^>]*>Manage booking<\/a>/.exec(done.html)![0];
      assert.match(anchor, /target="_(top|blank)"/, `the link opens in the frame: ${anchor}`);
    });

    test('no log line carries the manage token or the done token (bearer links to the booking)', async () => {
      const s = await createSalon(h.app);
      const times = await timeStep(h, s);
      const c = clickButton(times.html, '12:00');
      const details = await follow(h.app, await post(h.app, c.action, c.fields, {}, '192.0.2.64'));
      const form = bookForm(details);
      const posted = await post(h.app, form.action, form.fields, {}, '192.0.2.64');
      const done = await follow(h.app, posted);
      assert.equal(h1(done.html), 'Booking confirmed');
      const manageHref = link(done.html, 'Manage booking').href;
      const manageToken = new URL(manageHref).pathname.split('/').pop()!;
      const manage = await get(h.app, new URL(manageHref).pathname);
      assert.equal(manage.status, 200);
      const doneToken = new URL(String(posted.headers.location), 'http://x').searchParams.get('b')!;
      const leaks = [
        ...(lines.includes(manageToken) ? ['the manage token'] : []),
        ...(lines.includes(doneToken) ? ['the done token'] : []),
      ];
      assert.deepEqual(
        leaks,
        [],
        lines.split('\n').find((l) => l.includes(manageToken)),
      );
    });
  });
}

test('a same-origin form post from a no-referrer page (Origin: null, Sec-Fetch-Site: same-origin) is not refused', () => {
  // Fetch: a POST from a document whose Referrer-Policy is no-referrer sends `Origin: null`; the
  // manage page must be no-referrer (guest-side.md) and gets form posts in the next issue.
  const request = { headers: { 'sec-fetch-site': 'same-origin', origin: 'null' } } as never;
  assert.equal(isCrossSitePost(request, 'https://book.example'), false);
  // A sandboxed frame elsewhere is still refused by its Sec-Fetch-Site.
  const sandboxed = { headers: { 'sec-fetch-site': 'cross-site', origin: 'null' } } as never;
  assert.equal(isCrossSitePost(sandboxed, 'https://book.example'), true);
});
