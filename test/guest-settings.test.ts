/**
 * The guest settings of a business (docs/guest-settings.md): every default on GET, a PATCH of any
 * subset merged at depth, every rule of guest-side.md's table refused with the field's path, SMS
 * only on a plan that has it, the role table, concurrent PATCHes of different fields, and the
 * business version a change moves.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { defaultGuestSettings } from '../src/domain/guest-settings/settings.ts';
import { readGuestSettings } from '../src/use-cases/guest-settings.ts';
import { dbTargets } from './helpers/databases.ts';
import { createBusiness, createSalon, type SalonFixture } from './helpers/fixtures.ts';
import { admin, adminOk, type Harness, startHarness } from './helpers/harness.ts';
import { asMember, memberCookie } from './helpers/members.ts';

/** guest-side.md's table, written out here rather than read from the code under test. */
const SPEC_DEFAULTS = {
  bookingPage: {
    enabled: true,
    introText: null,
    accentColor: null,
    logoUrl: null,
    embedOrigins: [],
    termsUrl: null,
    privacyUrl: null,
    termsVersion: '1',
    privacyNoticeVersion: '1',
  },
  holdMinutes: 10,
  guestCancel: { allowed: true, noticeMinutes: 1440 },
  guestReschedule: { allowed: true, noticeMinutes: 1440 },
  notifications: {
    guestEmail: 'all',
    reminders: [{ minutesBefore: 1440 }],
    quietHours: { start: '21:00', end: '08:00' },
    sms: false,
    businessEmail: { newRequest: true, guestCancelled: true },
  },
  waitlist: { enabled: true, offerMinutes: 30 },
};

const origins = (n: number) => Array.from({ length: n }, (_, i) => `https://shop${i}.example`);

/** [what, body, the path the refusal names] — one row per rule of the table. */
const REFUSED: Array<[string, unknown, string]> = [
  ['introText over 1,000 characters', { bookingPage: { introText: 'x'.repeat(1001) } }, 'body.bookingPage.introText'],
  ['accentColor not #RRGGBB', { bookingPage: { accentColor: '#12345' } }, 'body.bookingPage.accentColor'],
  ['accentColor a name', { bookingPage: { accentColor: 'red' } }, 'body.bookingPage.accentColor'],
  ['logoUrl http', { bookingPage: { logoUrl: 'http://salon.example/logo.png' } }, 'body.bookingPage.logoUrl'],
  ['logoUrl not a URL', { bookingPage: { logoUrl: 'https://' } }, 'body.bookingPage.logoUrl'],
  ['termsUrl with credentials', { bookingPage: { termsUrl: 'https://u:p@salon.example/terms' } }, 'body.bookingPage.termsUrl'],
  ['privacyUrl relative', { bookingPage: { privacyUrl: '/privacy' } }, 'body.bookingPage.privacyUrl'],
  ['21 embedOrigins', { bookingPage: { embedOrigins: origins(21) } }, 'body.bookingPage.embedOrigins'],
  [
    'an origin with a path',
    { bookingPage: { embedOrigins: [...origins(3), 'https://a.example/page'] } },
    'body.bookingPage.embedOrigins.3',
  ],
  ['an origin with a trailing slash', { bookingPage: { embedOrigins: ['https://a.example/'] } }, 'body.bookingPage.embedOrigins.0'],
  ['an http origin', { bookingPage: { embedOrigins: ['https://a.example', 'http://b.example'] } }, 'body.bookingPage.embedOrigins.1'],
  ['an origin with a bad port', { bookingPage: { embedOrigins: ['https://a.example:99999'] } }, 'body.bookingPage.embedOrigins.0'],
  [
    'an origin repeated up to case',
    { bookingPage: { embedOrigins: ['https://a.example', 'https://A.Example:443'] } },
    'body.bookingPage.embedOrigins.1',
  ],
  ['termsVersion empty', { bookingPage: { termsVersion: '' } }, 'body.bookingPage.termsVersion'],
  ['privacyNoticeVersion null', { bookingPage: { privacyNoticeVersion: null } }, 'body.bookingPage.privacyNoticeVersion'],
  ['enabled a string', { bookingPage: { enabled: 'yes' } }, 'body.bookingPage.enabled'],
  ['holdMinutes 0', { holdMinutes: 0 }, 'body.holdMinutes'],
  ['holdMinutes 31', { holdMinutes: 31 }, 'body.holdMinutes'],
  ['holdMinutes not whole', { holdMinutes: 2.5 }, 'body.holdMinutes'],
  ['guestCancel noticeMinutes -1', { guestCancel: { noticeMinutes: -1 } }, 'body.guestCancel.noticeMinutes'],
  ['guestCancel noticeMinutes 20,161', { guestCancel: { noticeMinutes: 20_161 } }, 'body.guestCancel.noticeMinutes'],
  ['guestReschedule noticeMinutes 20,161', { guestReschedule: { noticeMinutes: 20_161 } }, 'body.guestReschedule.noticeMinutes'],
  ['guestEmail outside the enum', { notifications: { guestEmail: 'some' } }, 'body.notifications.guestEmail'],
  ['4 reminders', { notifications: { reminders: [1, 2, 3, 4].map((m) => ({ minutesBefore: m })) } }, 'body.notifications.reminders'],
  ['a reminder 0 minutes before', { notifications: { reminders: [{ minutesBefore: 0 }] } }, 'body.notifications.reminders.0.minutesBefore'],
  [
    'a reminder 10,081 minutes before',
    { notifications: { reminders: [{ minutesBefore: 60 }, { minutesBefore: 10_081 }] } },
    'body.notifications.reminders.1.minutesBefore',
  ],
  [
    'two reminders at once',
    { notifications: { reminders: [{ minutesBefore: 60 }, { minutesBefore: 120 }, { minutesBefore: 60 }] } },
    'body.notifications.reminders.2.minutesBefore',
  ],
  ['quietHours start not HH:MM', { notifications: { quietHours: { start: '9:00', end: '08:00' } } }, 'body.notifications.quietHours.start'],
  ['quietHours end 24:00', { notifications: { quietHours: { start: '21:00', end: '24:00' } } }, 'body.notifications.quietHours.end'],
  ['quietHours start = end', { notifications: { quietHours: { start: '21:00', end: '21:00' } } }, 'body.notifications.quietHours.end'],
  ['quietHours without end', { notifications: { quietHours: { start: '21:00' } } }, 'body.notifications.quietHours.end'],
  ['waitlist offerMinutes 4', { waitlist: { offerMinutes: 4 } }, 'body.waitlist.offerMinutes'],
  ['waitlist offerMinutes 1,441', { waitlist: { offerMinutes: 1441 } }, 'body.waitlist.offerMinutes'],
  ['an unknown field', { bookingPage: { colour: '#000000' } }, 'body.bookingPage.colour'],
  ['an object set to null', { waitlist: null }, 'body.waitlist'],
];

for (const target of dbTargets()) {
  describe(`guest settings of a business [${target.name}]`, () => {
    let h: Harness;
    let salon: SalonFixture;
    const url = () => `/businesses/${salon.business.slug}/guest-settings`;
    before(async () => {
      h = await startHarness(target);
      salon = await createSalon(h.app);
    });
    after(() => h.close());

    test('GET of a business that changed nothing: every field with the default of the table', async () => {
      const fresh = await createSalon(h.app);
      const data = await adminOk(h.app, 'GET', `/businesses/${fresh.business.slug}/guest-settings`);
      assert.deepEqual(data, { guestSettings: SPEC_DEFAULTS });
      assert.deepEqual(defaultGuestSettings(), SPEC_DEFAULTS);
      assert.deepEqual(await readGuestSettings(h.db, fresh.business.id), SPEC_DEFAULTS);
      const none = await admin(h.app, 'GET', '/businesses/no-such-salon/guest-settings');
      assert.equal(none.status, 404);
      assert.equal(none.body.error.code, 'request.not_found');
    });

    test('PATCH of a subset changes only it: objects merge per field, arrays and null replace', async () => {
      const own = await createSalon(h.app);
      const path = `/businesses/${own.business.slug}/guest-settings`;
      let s = (await adminOk(h.app, 'PATCH', path, { notifications: { sms: true } })).guestSettings;
      assert.deepEqual(s, { ...SPEC_DEFAULTS, notifications: { ...SPEC_DEFAULTS.notifications, sms: true } });

      s = (
        await adminOk(h.app, 'PATCH', path, {
          holdMinutes: 30,
          guestCancel: { allowed: false },
          bookingPage: { introText: 'Welcome!', embedOrigins: ['https://Shop.Example:443', 'https://b.example:8443'] },
          notifications: { reminders: [{ minutesBefore: 120 }, { minutesBefore: 10_080 }], quietHours: null },
        })
      ).guestSettings;
      const expected = {
        ...SPEC_DEFAULTS,
        holdMinutes: 30,
        guestCancel: { allowed: false, noticeMinutes: 1440 },
        bookingPage: {
          ...SPEC_DEFAULTS.bookingPage,
          introText: 'Welcome!',
          embedOrigins: ['https://shop.example', 'https://b.example:8443'],
        },
        notifications: {
          ...SPEC_DEFAULTS.notifications,
          sms: true,
          reminders: [{ minutesBefore: 120 }, { minutesBefore: 10_080 }],
          quietHours: null,
        },
      };
      assert.deepEqual(s, expected);
      assert.deepEqual((await adminOk(h.app, 'GET', path)).guestSettings, expected);

      // An array replaces (one reminder left, then none); null clears; an empty patch changes nothing.
      s = (await adminOk(h.app, 'PATCH', path, { notifications: { reminders: [] }, bookingPage: { introText: null } })).guestSettings;
      assert.deepEqual(s.notifications.reminders, []);
      assert.equal(s.bookingPage.introText, null);
      assert.deepEqual(s.bookingPage.embedOrigins, expected.bookingPage.embedOrigins);
      assert.deepEqual((await adminOk(h.app, 'PATCH', path, {})).guestSettings, s);
      s = (await adminOk(h.app, 'PATCH', path, { notifications: { quietHours: { start: '22:30', end: '07:00' } } })).guestSettings;
      assert.deepEqual(s.notifications.quietHours, { start: '22:30', end: '07:00' });
      assert.equal(s.notifications.sms, true);
      // Rows hold only what changed, so untouched fields still follow the defaults.
      const [row] = (await h.db.query<{ settings: any }>('SELECT settings FROM guest_settings WHERE business_id = $1', [own.business.id]))
        .rows;
      assert.equal(row!.settings.waitlist, undefined);
      assert.deepEqual(await readGuestSettings(h.db, own.business.id), s);
    });

    test('the limits themselves are accepted', async () => {
      const s = (
        await adminOk(h.app, 'PATCH', url(), {
          bookingPage: {
            introText: 'é'.repeat(1000),
            accentColor: '#A0b1C2',
            logoUrl: 'https://cdn.salon.example/logo.png',
            termsUrl: 'https://salon.example/terms',
            privacyUrl: 'https://salon.example/privacy?lang=hu',
            embedOrigins: origins(20),
            termsVersion: 't-2031',
            privacyNoticeVersion: 'p-2031',
          },
          holdMinutes: 1,
          guestCancel: { noticeMinutes: 0 },
          guestReschedule: { allowed: false, noticeMinutes: 20_160 },
          notifications: {
            guestEmail: 'bookingPageOnly',
            reminders: [{ minutesBefore: 1 }, { minutesBefore: 10_080 }, { minutesBefore: 60 }],
            businessEmail: { guestCancelled: false },
          },
          waitlist: { enabled: false, offerMinutes: 5 },
        })
      ).guestSettings;
      assert.equal(s.bookingPage.embedOrigins.length, 20);
      assert.equal(s.bookingPage.accentColor, '#A0b1C2');
      assert.deepEqual(s.notifications.businessEmail, { newRequest: true, guestCancelled: false });
      assert.deepEqual(s.waitlist, { enabled: false, offerMinutes: 5 });
      assert.equal(
        (await adminOk(h.app, 'PATCH', url(), { holdMinutes: 30, waitlist: { offerMinutes: 1440 } })).guestSettings.holdMinutes,
        30,
      );
    });

    test('every rule of the table: 400 request.validation_failed naming the field, nothing stored', async () => {
      const before = (await adminOk(h.app, 'GET', url())).guestSettings;
      const failures: string[] = [];
      for (const [what, body, path] of REFUSED) {
        const r = await admin(h.app, 'PATCH', url(), body);
        const paths = (r.body?.error?.details?.issues ?? []).map((i: { path: string }) => i.path);
        if (r.status !== 400 || r.body.error.code !== 'request.validation_failed' || !paths.includes(path)) {
          failures.push(`${what}: ${r.status} ${JSON.stringify(paths)} (expected ${path})`);
        }
      }
      assert.deepEqual(failures, []);
      assert.deepEqual((await adminOk(h.app, 'GET', url())).guestSettings, before);
    });

    test('notifications.sms: true only when the plan has smsNotifications', async () => {
      const withSms = await createSalon(h.app);
      await adminOk(h.app, 'PATCH', `/businesses/${withSms.business.slug}/subscription`, { features: { smsNotifications: false } });
      const refused = await admin(h.app, 'PATCH', `/businesses/${withSms.business.slug}/guest-settings`, {
        holdMinutes: 20,
        notifications: { sms: true },
      });
      assert.equal(refused.status, 400);
      assert.equal(refused.body.error.code, 'request.validation_failed');
      assert.deepEqual(
        refused.body.error.details.issues.map((i: { path: string }) => i.path),
        ['body.notifications.sms'],
      );
      assert.equal((await adminOk(h.app, 'GET', `/businesses/${withSms.business.slug}/guest-settings`)).guestSettings.holdMinutes, 10);
      // Turning it off, and every other field, stays possible without the feature.
      await adminOk(h.app, 'PATCH', `/businesses/${withSms.business.slug}/guest-settings`, { notifications: { sms: false } });
      // A business still in set-up has no plan, so no feature either.
      const setup = await createBusiness(h.app, { status: 'setup', plan: null });
      assert.equal((await admin(h.app, 'PATCH', `/businesses/${setup.slug}/guest-settings`, { notifications: { sms: true } })).status, 400);
      // The override back on: allowed.
      await adminOk(h.app, 'PATCH', `/businesses/${withSms.business.slug}/subscription`, { features: { smsNotifications: true } });
      const ok = await adminOk(h.app, 'PATCH', `/businesses/${withSms.business.slug}/guest-settings`, { notifications: { sms: true } });
      assert.equal(ok.guestSettings.notifications.sms, true);
    });

    test('roles: everyone reads, owners and managers change; another business is out of scope', async () => {
      const other = await createSalon(h.app);
      for (const role of ['owner', 'manager', 'frontDesk'] as const) {
        const { cookie } = await memberCookie(h.app, h.db, salon.business.id, role);
        const read = await asMember(h.app, cookie, 'GET', url());
        assert.equal(read.status, 200, `${role} GET: ${read.raw}`);
        const write = await asMember(h.app, cookie, 'PATCH', url(), { waitlist: { offerMinutes: 45 } });
        if (role === 'frontDesk') {
          assert.equal(write.status, 403);
          assert.equal(write.body.error.code, 'auth.insufficient_capability');
          assert.deepEqual(write.body.error.details.required, ['owner', 'manager']);
        } else {
          assert.equal(write.status, 200, `${role} PATCH: ${write.raw}`);
        }
        for (const method of ['GET', 'PATCH'] as const) {
          const foreign = await asMember(
            h.app,
            cookie,
            method,
            `/businesses/${other.business.slug}/guest-settings`,
            method === 'PATCH' ? {} : undefined,
          );
          assert.equal(foreign.status, 403);
          assert.equal(foreign.body.error.code, 'auth.scope_mismatch');
        }
      }
    });

    test('a change moves the business version (the caches of the booking page see it)', async () => {
      const version = async () =>
        (await h.db.query<{ version: string }>('SELECT version FROM business_versions WHERE business_id = $1', [salon.business.id])).rows[0]
          ?.version;
      const v0 = await version();
      await adminOk(h.app, 'PATCH', url(), { holdMinutes: 12 });
      const v1 = await version();
      assert.ok(Number(v1) > Number(v0), `${v0} -> ${v1}`);
      await admin(h.app, 'PATCH', url(), { holdMinutes: 99 });
      assert.equal(await version(), v1, 'a refused patch moves nothing');
    });

    if (target.name === 'postgres') {
      test('two PATCHes of different fields at once: both kept', async () => {
        const own = await createSalon(h.app);
        const path = `/businesses/${own.business.slug}/guest-settings`;
        await adminOk(h.app, 'PATCH', path, { holdMinutes: 5 });
        // Hold the row so both PATCHes have read nothing yet when they run; then let them go together.
        let release!: () => void;
        const released = new Promise<void>((r) => (release = r));
        let locked!: () => void;
        const isLocked = new Promise<void>((r) => (locked = r));
        const holder = h.db.transaction(async (tx) => {
          await tx.query('SELECT 1 FROM guest_settings WHERE business_id = $1 FOR UPDATE', [own.business.id]);
          locked();
          await released;
        });
        await isLocked;
        const a = adminOk(h.app, 'PATCH', path, { notifications: { guestEmail: 'off' } });
        const b = adminOk(h.app, 'PATCH', path, { waitlist: { offerMinutes: 90 } });
        const deadline = Date.now() + 10_000;
        for (;;) {
          const waiting = await h.db.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%guest_settings%'",
          );
          if (waiting.rows[0]!.n >= 2) break;
          assert.ok(Date.now() < deadline, 'both PATCHes should wait for the row');
          await new Promise((r) => setTimeout(r, 20));
        }
        release();
        await holder;
        await Promise.all([a, b]);
        const s = (await adminOk(h.app, 'GET', path)).guestSettings;
        assert.equal(s.notifications.guestEmail, 'off');
        assert.equal(s.waitlist.offerMinutes, 90);
        assert.equal(s.holdMinutes, 5);
      });
    }
  });
}
