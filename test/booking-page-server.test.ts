/**
 * The booking page's server (guest-side.md "The booking page"; docs/guest-pages.md): every step
 * with its fixed names, booking through createBooking with source bookingPage, the form token,
 * the honeypot, the per-address limits, the origin check, a closed page, a time gone, the CSP and
 * framing, Hungarian. Through `inject` on both databases; the Chromium, axe and weight checks are
 * booking-page.e2e.test.ts's.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import ical from 'node-ical';
import { dbTargets } from './helpers/databases.ts';
import { adminOk, type Harness } from './helpers/harness.ts';
import { api, createSalon, type SalonFixture } from './helpers/fixtures.ts';
import { bookingHarness, createBody, day, sql } from './helpers/bookings.ts';
import { buttonTexts, clickButton, follow, forms, get, GUEST, h1, link, post, textOf, type Page } from './helpers/guest-page.ts';

const pagePath = (s: SalonFixture) => `/book/${s.business.slug}/${s.location.slug}`;

async function bookingsOf(h: Harness, businessId: string): Promise<any[]> {
  return sql(h, 'SELECT id, source, consent, staff_id, session_id, status FROM bookings WHERE business_id = $1', [businessId]);
}

/** Service, staff and time steps by their links: the time step's page. */
async function timeStep(h: Harness, s: SalonFixture, service = 'Haircut', staff = 'Any staff', lang?: 'hu'): Promise<Page> {
  const first = await get(h.app, `${pagePath(s)}${lang ? `?lang=${lang}` : ''}`);
  assert.equal(first.status, 200, first.html);
  const staffStep = await get(h.app, link(first.html, service, true).href);
  return get(h.app, link(staffStep.html, staff).href);
}

/** Holds `time` on the first day offering it; answers the details page. */
async function hold(h: Harness, times: Page, time: string): Promise<Page> {
  const click = clickButton(times.html, time);
  return follow(h.app, await post(h.app, click.action, click.fields));
}

/** The details form filled in with `fields`, as the Book button sends it. */
function bookForm(details: Page, fields: Record<string, string> = GUEST) {
  const click = clickButton(details.html, 'Book');
  return { action: click.action, fields: { ...click.fields, ...fields } };
}

for (const target of dbTargets()) {
  describe(`booking page [${target.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await bookingHarness(target);
    });
    after(() => h.close());

    test('every step renders with its fixed names, and a booking made there has source bookingPage', async () => {
      const s = await createSalon(h.app);
      // One bookable location: /book/{salon} goes straight to it.
      const root = await get(h.app, `/book/${s.business.slug}`);
      assert.equal(root.status, 303);
      assert.equal(root.headers.location, pagePath(s));

      const services = await get(h.app, pagePath(s));
      assert.equal(services.status, 200);
      assert.match(services.html, /^<!doctype html><html lang="en">/);
      assert.match(services.html, /<main id="main">/);
      assert.match(services.html, /<a class="skip" href="#main">/);
      const haircut = link(services.html, 'Haircut', true);
      assert.match(haircut.text, /^Haircut 30 min · HUF\s?5,000$/);
      assert.match(link(services.html, 'Colouring', true).text, /from HUF\s?12,000/);

      const staff = await get(h.app, haircut.href);
      assert.equal(h1(staff.html), 'Choose who you would like');
      const names = (await import('./helpers/guest-page.ts')).links(staff.html).map((l) => l.text);
      assert.deepEqual(names.slice(names.indexOf('Any staff'), names.indexOf('Any staff') + 3), ['Any staff', 'Anna', 'Bence']);

      const times = await get(h.app, link(staff.html, 'Any staff').href);
      assert.equal(h1(times.html), 'Choose a time');
      assert.ok(textOf(times.html).includes('Europe/Budapest'), 'the time zone is named');
      assert.equal(textOf(times.html).split('Europe/Budapest').length, 2, 'once');
      link(times.html, 'Next week');
      assert.throws(() => link(times.html, 'Previous week'), 'no week before today');
      for (const b of buttonTexts(times.html)) assert.match(b, /^\d{2}:\d{2}$/);
      assert.match(times.html, /<h2 id="d-2031-06-02">Monday 2 June<\/h2>/);

      const next = await get(h.app, link(times.html, 'Next week').href);
      assert.match(next.html, /<h2 id="d-2031-06-08">/);
      link(next.html, 'Previous week');

      const details = await hold(h, times, '10:00');
      assert.equal(h1(details.html), 'Your details');
      assert.match(textOf(details.html), /We hold this time for you until \d{2}:\d{2}\./);
      for (const [id, label] of [
        ['f-name', 'Name'],
        ['f-phone', 'Phone'],
        ['f-email', 'Email'],
        ['f-note', 'Note'],
        ['f-terms', 'I accept the terms'],
      ]) {
        assert.ok(details.html.includes(`<label for="${id}">${label}</label>`), `${label} labels ${id}`);
      }
      assert.deepEqual(buttonTexts(details.html), ['Book', 'Change time']);

      const form = bookForm(details);
      const posted = await post(h.app, form.action, form.fields);
      assert.equal(posted.status, 303, textOf(posted.html));
      const done = await follow(h.app, posted);
      assert.equal(done.status, 200);
      assert.equal(h1(done.html), 'Booking confirmed');
      const text = textOf(done.html);
      for (const part of ['Haircut', 'Monday, 2 June 2031', '10:00']) assert.ok(text.includes(part), part);
      link(done.html, 'Manage booking');
      assert.throws(() => link(done.html, 'Pay deposit'));

      const [booking] = await bookingsOf(h, s.business.id);
      assert.equal(booking.source, 'bookingPage');
      assert.equal(booking.consent.locale, 'en');
      assert.equal(booking.consent.termsVersion, '1');
      const reference = (await sql(h, 'SELECT public_reference FROM bookings WHERE id = $1', [booking.id]))[0].public_reference;
      assert.ok(text.includes(reference), 'the public reference is shown');
      const operator = await adminOk(h.app, 'GET', `/bookings/${booking.id}`);
      assert.equal(operator.booking.source, 'bookingPage');
      assert.deepEqual(operator.booking.price, { amount: 5000, currency: 'HUF' }, 'the price it was booked at');

      // Reloading the done page books nothing again.
      await get(h.app, done.url);
      assert.equal((await bookingsOf(h, s.business.id)).length, 1);

      // The calendar file: one event, the booking's UID, SEQUENCE = stateVersion, a REQUEST.
      const ics = await get(h.app, link(done.html, 'Add to calendar').href);
      assert.equal(ics.status, 200);
      assert.match(String(ics.headers['content-type']), /^text\/calendar/);
      assert.match(ics.html, /METHOD:REQUEST/);
      const events = Object.values(ical.sync.parseICS(ics.html)).filter((c) => c?.type === 'VEVENT') as any[];
      assert.equal(events.length, 1);
      assert.ok(events[0].uid.startsWith(`${booking.id}@`));
      const stateVersion = (await sql(h, 'SELECT state_version FROM bookings WHERE id = $1', [booking.id]))[0].state_version;
      assert.equal(Number(events[0].sequence), Number(stateVersion));
      assert.equal(new Date(events[0].start).toISOString(), `${day(1)}T08:00:00.000Z`);

      // The manage link opens a read-only page of the booking.
      const manage = await get(h.app, link(done.html, 'Manage booking').href.replace(h.app.ctx.config.publicBaseUrl, ''));
      assert.equal(manage.status, 200);
      assert.equal(manage.headers['referrer-policy'], 'no-referrer');
      assert.ok(textOf(manage.html).includes(reference));
      assert.ok(!manage.html.includes('eva@example.com') && !manage.html.includes('123 4567'), 'no contact data');
    });

    test('?lang=hu: a Hungarian page whose booking records hu; Accept-Language picks it too', async () => {
      const s = await createSalon(h.app);
      const hu = await get(h.app, `${pagePath(s)}?lang=hu`);
      assert.match(hu.html, /<html lang="hu">/);
      assert.equal(h1(hu.html), 'Válasszon szolgáltatást');
      link(hu.html, 'English');
      const byHeader = await get(h.app, pagePath(s), { 'accept-language': 'de;q=0.9, hu;q=0.8, en;q=0.1' });
      assert.match(byHeader.html, /<html lang="hu">/);
      const english = await get(h.app, pagePath(s), { 'accept-language': 'fr' });
      assert.match(english.html, /<html lang="en">/);

      const times = await timeStep(h, s, 'Haircut', 'Bárki', 'hu');
      assert.equal(h1(times.html), 'Válasszon időpontot');
      assert.match(times.html, /június 2\., hétfő/);
      const details = await hold(h, times, '11:00');
      assert.match(details.html, /<html lang="hu">/);
      // The Book button in Hungarian.
      assert.deepEqual(buttonTexts(details.html), ['Foglalás', 'Másik időpont']);
      const click = clickButton(details.html, 'Foglalás');
      const form = { action: click.action, fields: { ...click.fields, ...GUEST } };
      const done = await follow(h.app, await post(h.app, form.action, form.fields));
      assert.equal(h1(done.html), 'Foglalása visszaigazolva');
      const [booking] = await bookingsOf(h, s.business.id);
      assert.equal(booking.consent.locale, 'hu');
      assert.equal(booking.source, 'bookingPage');
    });

    test('a problem is shown beside its field with the values kept, and nothing is booked', async () => {
      const s = await createSalon(h.app);
      const details = await hold(h, await timeStep(h, s), '12:00');
      const form = bookForm(details, { name: 'Kiss Éva', phone: 'not a phone', email: '', note: 'Short hair', terms: '' } as any);
      const r = await post(h.app, form.action, form.fields);
      assert.equal(r.status, 400);
      assert.match(r.html, /<input id="f-phone"[^>]*aria-describedby="f-phone-error f-phone-hint"[^>]*aria-invalid="true"/);
      assert.match(r.html, /<p class="error" id="f-phone-error">This does not look like a phone number/);
      assert.match(r.html, /<p class="error" id="f-email-error">Please enter your email address\.<\/p>/);
      assert.match(r.html, /<p class="error" id="f-terms-error">Please accept the terms to book\.<\/p>/);
      assert.match(r.html, /value="Kiss Éva"/);
      assert.match(r.html, />Short hair<\/textarea>/);
      assert.equal((await bookingsOf(h, s.business.id)).length, 0);
      // Corrected, the same form books.
      const fixed = bookForm({ ...details, html: r.html });
      const done = await follow(h.app, await post(h.app, fixed.action, { ...fixed.fields, ...GUEST }));
      assert.equal(h1(done.html), 'Booking confirmed');
    });

    test('the form token makes a double submit one booking, in turn or at once', async () => {
      const s = await createSalon(h.app);
      const details = await hold(h, await timeStep(h, s), '13:00');
      const form = bookForm(details);
      const first = await post(h.app, form.action, form.fields);
      const second = await post(h.app, form.action, form.fields);
      assert.equal(first.status, 303);
      assert.equal(second.status, 303, textOf(second.html));
      assert.equal(first.headers.location, second.headers.location);
      assert.equal((await bookingsOf(h, s.business.id)).length, 1);

      const again = bookForm(await hold(h, await timeStep(h, s), '14:00'));
      const both = await Promise.all([post(h.app, again.action, again.fields), post(h.app, again.action, again.fields)]);
      assert.deepEqual(
        both.map((p) => p.status),
        [303, 303],
      );
      assert.equal(both[0]!.headers.location, both[1]!.headers.location);
      assert.equal((await bookingsOf(h, s.business.id)).length, 2);

      // A double click on a time (no script) holds it once: both posts lead to the same details.
      const click = clickButton((await timeStep(h, s, 'Haircut', 'Anna')).html, '16:00');
      const clicks = await Promise.all([post(h.app, click.action, click.fields), post(h.app, click.action, click.fields)]);
      assert.deepEqual(
        clicks.map((p) => p.status),
        [303, 303],
      );
      assert.equal(clicks[0]!.headers.location, clicks[1]!.headers.location);
      assert.ok(String(clicks[0]!.headers.location).includes('/details?'));

      // A form token of another choice is refused.
      const other = bookForm(await hold(h, await timeStep(h, s), '15:00'));
      const swapped = await post(h.app, other.action, { ...other.fields, t: form.fields.t! });
      assert.equal(swapped.status, 400);
      assert.match(String(swapped.headers['content-type']), /^text\/html/);
    });

    test('Change time releases the held time at once', async () => {
      const s = await createSalon(h.app);
      const details = await hold(h, await timeStep(h, s, 'Haircut', 'Anna'), '11:00');
      const change = clickButton(details.html, 'Change time');
      const back = await follow(h.app, await post(h.app, change.action, change.fields));
      assert.equal(h1(back.html), 'Choose a time');
      // Anna's 11:00 is offered and can be held again at once (by anyone).
      const again = await hold(h, back, '11:00');
      assert.equal(h1(again.html), 'Your details');
    });

    test('the honeypot filled in creates nothing and answers a neutral page', async () => {
      const s = await createSalon(h.app);
      const form = bookForm(await hold(h, await timeStep(h, s), '10:30'));
      const r = await post(h.app, form.action, { ...form.fields, website: 'https://spam.example' });
      assert.equal(r.status, 200);
      assert.equal(h1(r.html), 'Request not completed');
      assert.equal((await bookingsOf(h, s.business.id)).length, 0);
      assert.match(r.html, /<label for="f-website">|Request not completed/);
    });

    test('a cross-site post is refused with a page, and holds nothing', async () => {
      const s = await createSalon(h.app);
      const click = clickButton((await timeStep(h, s, 'Haircut', 'Anna')).html, '10:00');
      // A browser's Sec-Fetch-Site decides when it sends one; an older browser is judged by Origin.
      const crossSite: Array<Record<string, string>> = [
        { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
        { 'sec-fetch-site': 'same-site', origin: 'https://shop.example' },
        { 'sec-fetch-site': '', origin: 'https://evil.example' },
        { 'sec-fetch-site': '', origin: 'null' },
      ];
      for (const headers of crossSite) {
        const r = await post(h.app, click.action, click.fields, headers);
        assert.equal(r.status, 403, JSON.stringify(headers));
        assert.equal(h1(r.html), 'Request refused');
      }
      // Nothing was held: the same time of the same staff member can be held now.
      assert.equal((await post(h.app, click.action, click.fields)).status, 303);
    });

    test('a taken time and an expired hold return to the time step with the message, and create nothing', async () => {
      const s = await createSalon(h.app);
      const anna = s.staff[0]!;
      // Taken through the API before the guest chose it: the hold is refused.
      const taken = await api(
        h.app,
        s.key.secret,
        'POST',
        '/bookings',
        createBody(s, { staffId: anna.id, date: day(1), startTime: '10:00' }),
      );
      assert.equal(taken.status, 201, taken.raw);
      const annaTimes = await timeStep(h, s, 'Haircut', 'Anna');
      // Day 1 (the first day with morning times) no longer offers Anna's 10:00.
      const day1 = forms(annaTimes.html).find((f) => f.fields.date === day(1))!;
      assert.ok(day1.buttons.some((b) => b.text === '10:30') && !day1.buttons.some((b) => b.text === '10:00'));
      const staleForm = clickButton(annaTimes.html, '10:30');
      await api(h.app, s.key.secret, 'POST', '/bookings', createBody(s, { staffId: anna.id, date: day(1), startTime: '10:30' }));
      const refused = await follow(h.app, await post(h.app, staleForm.action, staleForm.fields));
      assert.equal(h1(refused.html), 'Choose a time');
      assert.ok(textOf(refused.html).includes('That time is no longer available'));

      // Held, then the hold expires and the time is booked through the API: Book creates nothing.
      const details = await hold(h, await timeStep(h, s, 'Haircut', 'Anna'), '12:00');
      const form = bookForm(details);
      // holdMinutes pass (holds end by the database's clock, as test/holds.test.ts moves them).
      await sql(h, `UPDATE holds SET expires_at = now() - interval '1 second' WHERE business_id = $1`, [s.business.id]);
      const other = await api(
        h.app,
        s.key.secret,
        'POST',
        '/bookings',
        createBody(s, { staffId: anna.id, date: day(1), startTime: '12:00' }),
      );
      assert.equal(other.status, 201, other.raw);
      const before = (await bookingsOf(h, s.business.id)).length;
      const back = await post(h.app, form.action, form.fields);
      const page = await follow(h.app, back);
      assert.equal(h1(page.html), 'Choose a time');
      assert.ok(textOf(page.html).includes('That time is no longer available'));
      assert.equal((await bookingsOf(h, s.business.id)).length, before);

      const hu = await get(h.app, `${String(back.headers.location)}`.replace('lang=en', 'lang=hu'));
      assert.ok(textOf(hu.html).includes('Ez az időpont már nem foglalható'));
    });

    test('a disabled page is a 404 page; CSP and frame-ancestors follow embedOrigins', async () => {
      const s = await createSalon(h.app);
      const settings = `/businesses/${s.business.slug}/guest-settings`;
      await adminOk(h.app, 'PATCH', settings, { bookingPage: { embedOrigins: ['https://partner.example', 'https://shop.example:8443'] } });
      const page = await get(h.app, pagePath(s));
      const csp = String(page.headers['content-security-policy']);
      assert.match(csp, /frame-ancestors 'self' https:\/\/partner\.example https:\/\/shop\.example:8443(;|$)/);
      assert.match(csp, /script-src 'self'(;|$)/);
      assert.ok(!csp.includes('unsafe-inline'));
      assert.equal(page.headers['x-frame-options'], undefined);
      assert.equal(page.headers['referrer-policy'], 'strict-origin-when-cross-origin');
      assert.ok(!/<script>|<style>|\sstyle="|\son[a-z]+="/i.test(page.html), 'nothing inline');
      for (const src of [...page.html.matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => m[1]!)) {
        assert.ok(src.startsWith('/') || src.startsWith('#'), `same origin: ${src}`);
      }
      const css = /<link rel="stylesheet" href="([^"]+)"/.exec(page.html)![1]!;
      const asset = await get(h.app, css);
      assert.equal(asset.status, 200);
      assert.match(String(asset.headers['cache-control']), /immutable/);

      await adminOk(h.app, 'PATCH', settings, { bookingPage: { enabled: false } });
      for (const url of [`/book/${s.business.slug}`, pagePath(s), `${pagePath(s)}?service=${s.service.id}&staff=any`]) {
        const closed = await get(h.app, url);
        assert.equal(closed.status, 404, url);
        assert.match(String(closed.headers['content-type']), /^text\/html/);
        assert.equal(h1(closed.html), 'Page not found');
      }
      const unknown = await get(h.app, '/book/no-such-salon/anywhere?lang=hu');
      assert.equal(unknown.status, 404);
      assert.equal(h1(unknown.html), 'Az oldal nem található');
    });

    test('branding only with bookingPageBranding', async () => {
      const s = await createSalon(h.app, { subscription: { plan: 'starter', status: 'active' } });
      const settings = `/businesses/${s.business.slug}/guest-settings`;
      await adminOk(h.app, 'PATCH', settings, { bookingPage: { accentColor: '#7A1F5C', logoUrl: 'https://cdn.example/logo.png' } });
      const plain = await get(h.app, pagePath(s));
      assert.ok(!plain.html.includes('accent-') && !plain.html.includes('cdn.example'));
      const pro = await createSalon(h.app);
      await adminOk(h.app, 'PATCH', `/businesses/${pro.business.slug}/guest-settings`, {
        bookingPage: { accentColor: '#7A1F5C', logoUrl: 'https://cdn.example/logo.png', introText: 'Welcome <b>in</b>' },
      });
      const branded = await get(h.app, pagePath(pro));
      assert.match(branded.html, /href="\/book-assets\/accent-7a1f5c\.css"/);
      assert.match(branded.html, /src="https:\/\/cdn\.example\/logo\.png"/);
      assert.match(String(branded.headers['content-security-policy']), /img-src 'self' https:\/\/cdn\.example;/);
      assert.ok(branded.html.includes('Welcome &lt;b&gt;in&lt;/b&gt;'), 'escaped');
      const accent = await get(h.app, '/book-assets/accent-7a1f5c.css');
      assert.match(accent.html, /--accent:#7a1f5c/);
    });

    test('a deposit service asks for the deposit terms with the amount, and the done page links Pay deposit', async () => {
      const s = await createSalon(h.app);
      const svc = await adminOk(h.app, 'POST', `/businesses/${s.business.slug}/services`, {
        locationSlug: s.location.slug,
        name: 'Balayage',
        durationMinutes: 60,
        priceType: 'fixed',
        price: { amount: 20000, currency: 'HUF' },
        requestAcceptancePolicy: 'automatic',
        deposit: { required: true, termsVersion: 'v1', amount: { amount: 5000, currency: 'HUF' } },
      });
      await adminOk(h.app, 'PATCH', `/staff/${s.staff[0]!.id}`, { serviceIds: [s.service.id, s.manualService.id, svc.service.id] });
      const details = await hold(h, await timeStep(h, s, 'Balayage', 'Anna'), '10:00');
      assert.ok(details.html.includes('<label for="f-depositTerms">I accept the deposit terms</label>'));
      assert.match(textOf(details.html), /deposit of HUF\s?5,000/);
      const form = bookForm(details);
      const missing = await post(h.app, form.action, form.fields);
      assert.equal(missing.status, 400);
      assert.match(missing.html, /id="f-depositTerms-error"/);
      const done = await follow(h.app, await post(h.app, form.action, { ...form.fields, depositTerms: 'yes' }));
      assert.equal(h1(done.html), 'Booking confirmed');
      const pay = link(done.html, 'Pay deposit');
      assert.match(pay.href, /\/pay\/deposit\//);
      const payPage = await get(h.app, pay.href.replace(h.app.ctx.config.publicBaseUrl, ''));
      assert.equal(payPage.status, 200);
    });

    test('a group-session service lists its sessions with seats left and books a seat', async () => {
      const s = await createSalon(h.app);
      const yoga = (
        await adminOk(h.app, 'POST', `/businesses/${s.business.slug}/services`, {
          locationSlug: s.location.slug,
          name: 'Yoga',
          durationMinutes: 60,
          priceType: 'fixed',
          price: { amount: 3000, currency: 'HUF' },
          requestAcceptancePolicy: 'automatic',
          bookingMode: 'groupSession',
        })
      ).service;
      const anna = s.staff[0]!;
      await adminOk(h.app, 'PATCH', `/staff/${anna.id}`, { serviceIds: [s.service.id, s.manualService.id, yoga.id] });
      await adminOk(h.app, 'POST', `/services/${yoga.id}/sessions`, {
        staffId: anna.id,
        startAtUtc: `${day(2)}T08:00:00.000Z`,
        endAtUtc: `${day(2)}T09:00:00.000Z`,
        capacityMax: 3,
      });
      const services = await get(h.app, pagePath(s));
      // No staff step: the sessions name their staff.
      const times = await get(h.app, link(services.html, 'Yoga', true).href);
      assert.equal(h1(times.html), 'Choose a time');
      assert.ok(textOf(times.html).includes('with Anna · 3 places left'), textOf(times.html));
      const details = await hold(h, times, '10:00');
      assert.ok(!textOf(details.html).includes('We hold this time'));
      const form = bookForm(details);
      const done = await follow(h.app, await post(h.app, form.action, form.fields));
      assert.equal(h1(done.html), 'Booking confirmed');
      const [booking] = await bookingsOf(h, s.business.id);
      assert.ok(booking.session_id);
      assert.equal(booking.source, 'bookingPage');
      const after = await get(h.app, link(services.html, 'Yoga', true).href);
      assert.ok(textOf(after.html).includes('2 places left'));
    });

    test('bad input gets a page in words, never JSON or a 500', async () => {
      const s = await createSalon(h.app);
      const base = pagePath(s);
      for (const url of [
        `${base}?service=nope`,
        `${base}?service=${s.service.id}&staff=nope`,
        `${base}?service=${s.service.id}&staff=any&week=2031-02-30`,
        `${base}/details?c=forged`,
        `${base}/done?b=forged`,
        '/manage/forged',
        `${base}/calendar.ics?b=x`,
        '/book/%zz',
        `/manage/${'x'.repeat(300)}`,
      ]) {
        const r = await get(h.app, url);
        assert.ok(r.status < 500, `${url}: ${r.status}`);
        assert.match(String(r.headers['content-type'] ?? 'text/html'), /^text\/html/, url);
      }
      for (const [url, payload, type] of [
        [`${base}/hold`, 'service=x&date=1&time=2', 'application/x-www-form-urlencoded'],
        [`${base}/book`, 'c=x&t=y', 'application/x-www-form-urlencoded'],
        [`${base}/book`, '{"c":1}', 'application/json'],
        [`${base}/book`, 'a', 'text/plain'],
        [`${base}/book`, `name=${'x'.repeat(40_000)}`, 'application/x-www-form-urlencoded'],
      ] as const) {
        const r = await h.app.inject({ method: 'POST', url, payload, headers: { 'content-type': type } });
        assert.ok(r.statusCode < 500 && r.statusCode >= 300, `${url} ${type}: ${r.statusCode}`);
        assert.match(String(r.headers['content-type'] ?? 'text/html'), /^text\/html/, `${url} ${type}`);
      }
    });
  });

  describe(`booking page limits per client address [${target.name}]`, () => {
    let h: Harness;
    before(async () => {
      // The limits as configured (the harness's store multiplies them otherwise).
      h = await bookingHarness(target, { rateLimitStore: undefined });
    });
    after(() => h.close());

    test('the 6th booking and the 21st hold from one address in an hour are 429 pages; another address is not limited', async () => {
      const s = await createSalon(h.app);
      const times = await timeStep(h, s);
      const starts = buttonTexts(times.html).slice(0, 21);
      assert.equal(starts.length, 21);
      const booked: string[] = [];
      for (const [i, time] of starts.entries()) {
        const held = await post(h.app, clickButton(times.html, time).action, clickButton(times.html, time).fields);
        if (i === 20) {
          assert.equal(held.status, 429);
          assert.equal(h1(held.html), 'Too many attempts');
          assert.ok(Number(held.headers['retry-after']) > 0);
          break;
        }
        assert.equal(held.status, 303, `hold ${i + 1}: ${textOf(held.html)}`);
        if (i < 6) {
          const form = bookForm(await follow(h.app, held));
          const r = await post(h.app, form.action, form.fields);
          if (i === 5) {
            assert.equal(r.status, 429, 'the 6th booking');
            assert.ok(textOf(r.html).includes('Too many bookings or held times'));
          } else {
            assert.equal(r.status, 303, textOf(r.html));
            booked.push(time);
          }
        }
      }
      assert.equal((await bookingsOf(h, s.business.id)).length, 5);
      // Another client address is counted on its own.
      const elsewhere = clickButton(times.html, buttonTexts(times.html)[25]!);
      assert.equal((await post(h.app, elsewhere.action, elsewhere.fields, {}, '198.51.100.7')).status, 303);
      // An hour later the address may hold again.
      h.clock.now = new Date(h.clock.now.getTime() + 61 * 60_000);
      const later = await timeStep(h, s);
      const again = clickButton(later.html, buttonTexts(later.html).at(-1)!);
      assert.equal((await post(h.app, again.action, again.fields)).status, 303);
    });
  });
}
