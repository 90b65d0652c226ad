/**
 * Calendar feeds (guest-side.md "Calendar feeds", docs/calendar-feeds.md): issued by owners and
 * managers, read at `/ical/{token}.ics` by any calendar app, parsed back here with node-ical and
 * checked against RFC 5545's framing: the right events at the right instants across a DST change,
 * no guest phone or email, time off as busy, cancelled and declined left out, ETag/304, and a new
 * feed ending the old one.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import ical, { type VEvent } from 'node-ical';
import { dbTargets } from './helpers/databases.ts';
import { admin, adminOk, startHarness, type Harness } from './helpers/harness.ts';
import { createSalon, type SalonFixture } from './helpers/fixtures.ts';
import { asMember, memberCookie } from './helpers/members.ts';
import { createOk, operatorOk, SECRET_EMAIL, SECRET_PHONE_DIGITS } from './helpers/bookings.ts';

/** RFC 5545's framing, which a lenient parser would let pass: CRLF, folded lines, required properties. */
function assertRfc5545(body: string): void {
  assert.ok(body.endsWith('\r\n'), 'ends with CRLF');
  const lines = body.slice(0, -2).split('\r\n');
  assert.ok(!lines.some((l) => l.includes('\n') || l.includes('\r')), 'every line ends with CRLF');
  for (const l of lines) assert.ok(Buffer.byteLength(l) <= 75, `line over 75 octets: ${l}`);
  assert.equal(lines[0], 'BEGIN:VCALENDAR');
  assert.equal(lines.at(-1), 'END:VCALENDAR');
  assert.ok(lines.includes('VERSION:2.0'));
  assert.ok(lines.some((l) => l.startsWith('PRODID:')));
  const unfolded = body.replace(/\r\n[ \t]/g, '').split('\r\n');
  const blocks = unfolded.join('\n').split('BEGIN:VEVENT').slice(1);
  for (const b of blocks) {
    for (const p of ['UID:', 'DTSTAMP:', 'DTSTART:', 'DTEND:', 'SUMMARY:'])
      assert.match(b, new RegExp(`^${p}`, 'm'), `VEVENT without ${p}`);
  }
}

function feedPath(feedUrl: string): string {
  return new URL(feedUrl).pathname;
}

function getFeed(h: Harness, path: string, headers: Record<string, string> = {}) {
  return h.app.inject({ method: 'GET', url: path, headers });
}

function events(body: string): Map<string, VEvent> {
  const out = new Map<string, VEvent>();
  for (const c of Object.values(ical.sync.parseICS(body))) if (c?.type === 'VEVENT') out.set(c.uid, c as VEvent);
  return out;
}

function manualBooking(h: Harness, salon: SalonFixture, staffIndex: number, date: string, startTime: string, name = 'Kiss Éva') {
  return adminOk(h.app, 'POST', `/businesses/${salon.business.slug}/bookings`, {
    locationSlug: salon.location.slug,
    serviceId: salon.service.id,
    staffId: salon.staff[staffIndex]!.id,
    date,
    startTime,
    guest: { name, phone: '+36 30 765 4321', email: SECRET_EMAIL },
  }).then((d) => d.booking);
}

for (const target of dbTargets()) {
  describe(`calendar feeds [${target.name}]`, () => {
    let h: Harness;
    let salon: SalonFixture;
    let host: string;
    const ids = {} as Record<
      'old' | 'past' | 'beforeDst' | 'afterDst' | 'requested' | 'cancelled' | 'declined' | 'other' | 'timeOff',
      string
    >;
    let staffFeed: string;

    before(async () => {
      h = await startHarness(target);
      host = new URL(h.app.ctx.config.publicBaseUrl).hostname;
      salon = await createSalon(h.app);
      // Confirmed, but ended over 30 days before the feed is read: left out.
      h.clock.now = new Date('2031-02-01T08:00:00Z');
      ids.old = (await manualBooking(h, salon, 0, '2031-02-10', '10:00')).bookingId;
      // Took place within the window: shown as completed.
      h.clock.now = new Date('2031-03-10T08:00:00Z');
      ids.past = (await manualBooking(h, salon, 0, '2031-03-12', '10:00', 'Múlt Péter')).bookingId;
      h.clock.now = new Date('2031-03-25T08:00:00Z');
      await operatorOk(h, ids.past, 'complete');
      // The week of the change to summer time (Sunday 2031-03-30 in Budapest).
      ids.beforeDst = (await manualBooking(h, salon, 0, '2031-03-28', '10:00')).bookingId;
      ids.afterDst = (await manualBooking(h, salon, 0, '2031-03-31', '10:00')).bookingId;
      ids.requested = (await createOk(h, salon, { service: salon.manualService, date: '2031-03-27', startTime: '12:00' })).bookingId;
      ids.cancelled = (await manualBooking(h, salon, 0, '2031-03-27', '14:00', 'Lemondó Lili')).bookingId;
      await operatorOk(h, ids.cancelled, 'cancel');
      ids.declined = (await createOk(h, salon, { service: salon.manualService, date: '2031-03-27', startTime: '15:00' })).bookingId;
      await operatorOk(h, ids.declined, 'decline');
      ids.other = (await manualBooking(h, salon, 1, '2031-03-28', '11:00', 'Bence Vendége')).bookingId;
      ids.timeOff = (
        await adminOk(h.app, 'POST', `/staff/${salon.staff[0]!.id}/time-off`, {
          from: { date: '2031-03-29', time: '13:00' },
          to: { date: '2031-03-29', time: '17:00' },
        })
      ).timeOff.id;
      staffFeed = (await adminOk(h.app, 'POST', `/staff/${salon.staff[0]!.id}/calendar-feed`)).feedUrl;
    });
    after(() => h.close());

    test('the staff feed: valid iCalendar with the right events at the right instants, DST week included', async () => {
      assert.match(staffFeed, new RegExp(`^${h.app.ctx.config.publicBaseUrl}/ical/[A-Za-z0-9_-]{43}\\.ics$`));
      const r = await getFeed(h, feedPath(staffFeed));
      assert.equal(r.statusCode, 200, r.body);
      assert.equal(r.headers['content-type'], 'text/calendar; charset=utf-8');
      assert.equal(r.headers['cache-control'], 'private, max-age=300');
      assertRfc5545(r.body);
      const ev = events(r.body);
      const uid = (id: string) => `${id}@${host}`;
      assert.deepEqual(
        [...ev.keys()].sort(),
        [ids.past, ids.requested, ids.beforeDst, ids.timeOff, ids.afterDst].map(uid).sort(),
        'completed in the window, requested, confirmed and time off; no cancelled, declined, older or other staff’s',
      );
      // 10:00 in Budapest is 09:00Z before the change and 08:00Z after it.
      const before = ev.get(uid(ids.beforeDst))!;
      assert.equal(before.start.toISOString(), '2031-03-28T09:00:00.000Z');
      assert.equal(before.end!.toISOString(), '2031-03-28T09:30:00.000Z');
      const afterDst = ev.get(uid(ids.afterDst))!;
      assert.equal(afterDst.start.toISOString(), '2031-03-31T08:00:00.000Z');
      assert.equal(afterDst.summary, 'Kiss Éva – Haircut');
      assert.equal(afterDst.status, 'CONFIRMED');
      assert.match(String(afterDst.description), /^Status: confirmed/);
      const requested = ev.get(uid(ids.requested))!;
      assert.equal(requested.status, 'TENTATIVE');
      assert.equal(requested.start.toISOString(), '2031-03-27T11:00:00.000Z');
      assert.equal(requested.end!.toISOString(), '2031-03-27T12:00:00.000Z');
      assert.equal(requested.summary, 'Kiss Éva – Colouring');
      assert.match(String(requested.description), /Status: requested/);
      assert.match(String(ev.get(uid(ids.past))!.description), /Status: completed/);
      const off = ev.get(uid(ids.timeOff))!;
      assert.equal(off.summary, 'Time off');
      assert.equal(off.transparency, 'OPAQUE');
      assert.equal(off.start.toISOString(), '2031-03-29T12:00:00.000Z');
      assert.equal(off.end!.toISOString(), '2031-03-29T16:00:00.000Z');
      assert.match(r.body, /X-WR-TIMEZONE:Europe\/Budapest/);
    });

    test('no guest phone or email anywhere in the body', async () => {
      const body = (await getFeed(h, feedPath(staffFeed))).body;
      const unfolded = body.replace(/\r\n[ \t]/g, '');
      for (const secret of [SECRET_PHONE_DIGITS, '765 4321', SECRET_EMAIL, '+3630', '@example.com']) {
        assert.ok(!unfolded.includes(secret), `feed holds ${secret}`);
      }
    });

    test('304 on a matching If-None-Match; a changed booking gives a new body and ETag with the same UID', async () => {
      const path = feedPath(staffFeed);
      const first = await getFeed(h, path);
      const etag = first.headers.etag as string;
      assert.match(etag, /^"[A-Za-z0-9_-]{32}"$/);
      const again = await getFeed(h, path, { 'if-none-match': etag });
      assert.equal(again.statusCode, 304);
      assert.equal(again.body, '');
      assert.equal(again.headers.etag, etag);
      assert.equal((await getFeed(h, path, { 'if-none-match': `"other", W/${etag}` })).statusCode, 304);
      assert.equal((await getFeed(h, path)).headers.etag, etag, 'the same data gives the same ETag');

      await operatorOk(h, ids.beforeDst, 'reschedule', { date: '2031-03-28', startTime: '13:00' });
      const moved = await getFeed(h, path, { 'if-none-match': etag });
      assert.equal(moved.statusCode, 200);
      assert.notEqual(moved.headers.etag, etag);
      const ev = events(moved.body).get(`${ids.beforeDst}@${host}`)!;
      assert.equal(ev.start.toISOString(), '2031-03-28T12:00:00.000Z');
      assert.equal(Number(ev.sequence), 2);

      // A proposal holds the proposed time: the feed shows it there, tentative.
      await operatorOk(h, ids.afterDst, 'propose', { date: '2031-03-31', startTime: '14:00' });
      const proposed = events((await getFeed(h, path)).body).get(`${ids.afterDst}@${host}`)!;
      assert.equal(proposed.start.toISOString(), '2031-03-31T12:00:00.000Z');
      assert.equal(proposed.status, 'TENTATIVE');
      assert.match(String(proposed.description), /new time proposed[\s\S]*2031-03-31 10:00/);

      await operatorOk(h, ids.requested, 'decline');
      assert.ok(!events((await getFeed(h, path)).body).has(`${ids.requested}@${host}`), 'a declined request leaves the feed');
    });

    test('the location feed: every staff member’s bookings, time off named with its staff member', async () => {
      const url = (await adminOk(h.app, 'POST', `/businesses/${salon.business.slug}/locations/${salon.location.slug}/calendar-feed`))
        .feedUrl;
      const r = await getFeed(h, feedPath(url));
      assert.equal(r.statusCode, 200);
      assertRfc5545(r.body);
      const ev = events(r.body);
      assert.equal(ev.get(`${ids.other}@${host}`)?.summary, 'Bence Vendége – Haircut');
      assert.match(String(ev.get(`${ids.other}@${host}`)?.description), /Staff: Bence/);
      assert.equal(ev.get(`${ids.timeOff}@${host}`)?.summary, 'Time off – Anna');
      assert.ok(!ev.has(`${ids.cancelled}@${host}`) && !ev.has(`${ids.declined}@${host}`));
    });

    test('a new feed ends the old one (404), per staff member; unknown and malformed tokens are 404 too', async () => {
      const staffId = salon.staff[1]!.id;
      const first = (await adminOk(h.app, 'POST', `/staff/${staffId}/calendar-feed`)).feedUrl;
      assert.equal((await getFeed(h, feedPath(first))).statusCode, 200);
      const second = (await adminOk(h.app, 'POST', `/staff/${staffId}/calendar-feed`)).feedUrl;
      assert.notEqual(first, second);
      const old = await getFeed(h, feedPath(first));
      assert.equal(old.statusCode, 404);
      assert.match(old.headers['content-type'] as string, /^text\/plain/);
      assert.equal((await getFeed(h, feedPath(second))).statusCode, 200);
      assert.equal((await getFeed(h, feedPath(staffFeed))).statusCode, 200, 'another staff member’s feed lives on');
      for (const path of [
        `/ical/${'A'.repeat(43)}.ics`,
        '/ical/nope.ics',
        `${feedPath(second).slice(0, -4)}`,
        `/ical/${'x'.repeat(300)}.ics`,
        '/ical/a/b.ics',
      ]) {
        const r = await getFeed(h, path);
        assert.equal(r.statusCode, 404, path);
        assert.match(r.headers['content-type'] as string, /^text\/plain/, `${path}: a calendar app gets the feed's 404, not JSON`);
      }
      const rows = await h.db.query<{ token_hash: string }>('SELECT token_hash FROM calendar_feeds WHERE staff_id = $1', [staffId]);
      const token = feedPath(second).slice('/ical/'.length, -'.ics'.length);
      assert.ok(!rows.rows.some((r) => r.token_hash === token), 'only the hash is stored');
      assert.equal(rows.rows.length, 2);
    });

    test('issues racing for one staff member leave exactly one live feed, the last one committed', async () => {
      const staffId = salon.staff[1]!.id;
      const urls = await Promise.all(
        Array.from({ length: 6 }, () => adminOk(h.app, 'POST', `/staff/${staffId}/calendar-feed`).then((d) => d.feedUrl as string)),
      );
      const live = await h.db.query('SELECT 1 FROM calendar_feeds WHERE staff_id = $1 AND ended_at IS NULL', [staffId]);
      assert.equal(live.rows.length, 1);
      const working: string[] = [];
      for (const url of urls) if ((await getFeed(h, feedPath(url))).statusCode === 200) working.push(url);
      assert.equal(working.length, 1, 'one address works, every other one answers 404');
    });

    test('owners and managers issue feeds; front desk gets 403; another business’s staff or location is not reachable', async () => {
      const staffPath = `/staff/${salon.staff[0]!.id}/calendar-feed`;
      const locationPath = `/businesses/${salon.business.slug}/locations/${salon.location.slug}/calendar-feed`;
      for (const role of ['owner', 'manager'] as const) {
        const { cookie } = await memberCookie(h.app, h.db, salon.business.id, role);
        assert.equal((await asMember(h.app, cookie, 'POST', staffPath)).status, 200, role);
        assert.equal((await asMember(h.app, cookie, 'POST', locationPath)).status, 200, role);
      }
      const { cookie: frontDesk } = await memberCookie(h.app, h.db, salon.business.id, 'frontDesk');
      for (const path of [staffPath, locationPath]) {
        const r = await asMember(h.app, frontDesk, 'POST', path);
        assert.equal(r.status, 403, r.raw);
        assert.equal(r.body.error.code, 'auth.insufficient_capability');
        assert.deepEqual(r.body.error.details.required, ['owner', 'manager']);
      }

      const other = await createSalon(h.app);
      const { cookie: owner } = await memberCookie(h.app, h.db, salon.business.id, 'owner');
      // A member is told no more than for an id that exists nowhere (operator-roles.test.ts).
      const foreign = await asMember(h.app, owner, 'POST', `/staff/${other.staff[0]!.id}/calendar-feed`);
      assert.equal(foreign.status, 403, foreign.raw);
      assert.equal(foreign.body.error.code, 'auth.scope_mismatch');
      const foreignLocation = await asMember(
        h.app,
        owner,
        'POST',
        `/businesses/${salon.business.slug}/locations/${other.location.slug}/calendar-feed`,
      );
      assert.equal(foreignLocation.status, 404, foreignLocation.raw);
      assert.equal(foreignLocation.body.error.code, 'request.not_found');
      // The platform operator reaches every business; an unknown id is 404.
      const unknown = await admin(h.app, 'POST', '/staff/stf_nope/calendar-feed');
      assert.equal(unknown.status, 404, unknown.raw);
      assert.equal(unknown.body.error.code, 'catalog.staff_not_found');
    });
  });
}
