/**
 * The messages log (guest-side.md "Notifications"): GET /admin/v1/businesses/{slug}/notifications
 * and POST /admin/v1/notifications/{id}/resend.
 *
 * Fixtures: real bookings made through the operator API, and messages planned for them with
 * planMessages, the planner's own store function. The sender (the `message.send` handler) is not
 * run here: its outcomes are simulated by SQL updates of the status columns alone (status,
 * attempts, last_error, sent_at), never of what a message is or whom it is to.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { newId } from '../src/domain/ids.ts';
import type { NewMessage } from '../src/domain/messages/kinds.ts';
import { createLogger } from '../src/logger.ts';
import { planMessages } from '../src/store/messages.ts';
import { dbTargets } from './helpers/databases.ts';
import { admin, adminOk, startHarness, type Harness } from './helpers/harness.ts';
import { createSalon, type SalonFixture } from './helpers/fixtures.ts';
import { findLeaks } from './helpers/log-scan.ts';
import { asMember, memberCookie } from './helpers/members.ts';

const RUN = `${process.pid}${Date.now().toString(36)}`;
const EMAIL = `peter.log.${RUN}@example.com`;
const PHONE = `+36 30 ${String(Date.now()).slice(-7, -4)} ${String(Date.now()).slice(-4)}`;
const OTHER_EMAIL = `other.log.${RUN}@example.org`;
const T0 = new Date('2031-05-01T08:00:00.000Z');
const HOUR = 3_600_000;

const FIELDS = ['attempts', 'bookingId', 'channel', 'id', 'kind', 'lastError', 'scheduledAt', 'sentAt', 'status', 'to'];

let dayCounter = 0;
async function manualBooking(h: Harness, salon: SalonFixture, guest: { phone: string; email?: string }): Promise<string> {
  const date = new Date(Date.UTC(2031, 3, 1 + dayCounter++)).toISOString().slice(0, 10);
  const r = await adminOk(h.app, 'POST', `/businesses/${salon.business.slug}/bookings`, {
    locationSlug: salon.location.slug,
    serviceId: salon.service.id,
    staffId: salon.staff[0]!.id,
    date,
    startTime: '10:00',
    guest: { name: 'Peter Log', ...guest },
  });
  return r.booking.bookingId;
}

function message(salon: SalonFixture, bookingId: string | null, m: Partial<NewMessage> & Pick<NewMessage, 'kind' | 'channel'>): NewMessage {
  const id = newId('msg');
  return {
    id,
    businessId: salon.business.id,
    bookingId,
    audience: 'guest',
    recipient: m.channel === 'email' ? EMAIL : PHONE,
    lang: 'hu',
    stateVersion: 1,
    uniqueKey: `${bookingId ?? 'waitlist'}:${m.kind}:${id}`,
    scheduledAt: T0,
    ...m,
  };
}

function assertError(r: { status: number; body: any; raw: string }, status: number, code: string): void {
  assert.equal(r.status, status, r.raw);
  assert.equal(r.body.ok, false, r.raw);
  assert.equal(r.body.error.code, code, r.raw);
}

for (const target of dbTargets()) {
  describe(`messages log [${target.name}]`, () => {
    let h: Harness;
    let logText = '';
    let salon: SalonFixture;
    let other: SalonFixture;
    let booking1: string;
    let booking2: string;
    let otherBooking: string;
    const cookies: Record<string, string> = {};
    const ids: Record<string, string> = {};
    let otherMessage: string;

    const list = (query: string, cookie?: string) =>
      cookie
        ? asMember(h.app, cookie, 'GET', `/businesses/${salon.business.slug}/notifications${query}`)
        : admin(h.app, 'GET', `/businesses/${salon.business.slug}/notifications${query}`);

    before(async () => {
      const sink = new Writable({
        write(chunk, _enc, done) {
          logText += String(chunk);
          done();
        },
      });
      h = await startHarness(target, {}, { logger: createLogger('trace', sink) });
      salon = await createSalon(h.app);
      other = await createSalon(h.app);
      for (const role of ['owner', 'manager', 'frontDesk'] as const) {
        cookies[role] = (await memberCookie(h.app, h.db, salon.business.id, role)).cookie;
      }
      cookies.otherOwner = (await memberCookie(h.app, h.db, other.business.id, 'owner')).cookie;
      booking1 = await manualBooking(h, salon, { phone: PHONE, email: EMAIL });
      booking2 = await manualBooking(h, salon, { phone: PHONE, email: EMAIL });
      otherBooking = await manualBooking(h, other, { phone: PHONE, email: OTHER_EMAIL });

      const rows = {
        confirmedEmail: message(salon, booking1, { kind: 'booking.confirmed', channel: 'email' }),
        confirmedSms: message(salon, booking1, { kind: 'booking.confirmed', channel: 'sms' }),
        reminder: message(salon, booking1, {
          kind: 'booking.reminder',
          channel: 'email',
          reminderMinutes: 60,
          scheduledAt: new Date(+T0 + HOUR),
        }),
        second: message(salon, booking2, { kind: 'booking.received', channel: 'email', scheduledAt: new Date(+T0 - HOUR) }),
        owner: message(salon, booking2, {
          kind: 'business.new_request',
          channel: 'email',
          audience: 'business',
          recipient: `owner.${RUN}@salon.example`,
          scheduledAt: new Date(+T0 - 2 * HOUR),
        }),
        offer: message(salon, null, { kind: 'waitlist.offer', channel: 'sms', stateVersion: null, data: { offerId: 'wlo_x' } }),
      };
      await h.db.transaction((tx) => planMessages(tx, Object.values(rows)));
      for (const [name, row] of Object.entries(rows)) ids[name] = row.id;
      const foreign = message(other, otherBooking, { kind: 'booking.confirmed', channel: 'email', recipient: OTHER_EMAIL });
      await h.db.transaction((tx) => planMessages(tx, [foreign]));
      otherMessage = foreign.id;

      // The sender's outcomes, status columns only.
      await h.db.query(`UPDATE messages SET status = 'sent', attempts = 1, sent_at = $2 WHERE id = $1`, [
        ids.confirmedEmail,
        new Date(+T0 + 2000),
      ]);
      await h.db.query(`UPDATE messages SET status = 'failed', attempts = 6, last_error = $2 WHERE id = $1`, [
        ids.confirmedSms,
        `gateway answered 422: ${PHONE.replace(/\s/g, '')} unreachable (was ${PHONE}); contact ${EMAIL.toUpperCase()}`,
      ]);
      await h.db.query(`UPDATE messages SET status = 'failed', attempts = 2, last_error = $2 WHERE id = $1`, [
        ids.second,
        `550 5.1.1 <${EMAIL}>: user ${EMAIL.split('@')[0]} unknown`,
      ]);
      await h.db.query(`UPDATE messages SET status = 'skipped' WHERE id = $1`, [ids.reminder]);
    });
    after(() => h.close());

    test('owner and manager read every message, latest scheduled first, recipients and errors masked', async () => {
      for (const cookie of [cookies.owner!, cookies.manager!]) {
        const r = await list('', cookie);
        assert.equal(r.status, 200, r.raw);
        const got = r.body.data.notifications as any[];
        assert.deepEqual(
          got.map((n) => n.id),
          [ids.reminder, ...[ids.confirmedEmail, ids.confirmedSms, ids.offer].sort().reverse(), ids.second, ids.owner],
        );
        for (const n of got) assert.deepEqual(Object.keys(n).sort(), FIELDS);
        const byId = new Map(got.map((n) => [n.id, n]));
        assert.deepEqual(byId.get(ids.confirmedEmail), {
          id: ids.confirmedEmail,
          bookingId: booking1,
          kind: 'booking.confirmed',
          channel: 'email',
          to: 'p***@example.com',
          status: 'sent',
          attempts: 1,
          lastError: null,
          scheduledAt: T0.toISOString(),
          sentAt: new Date(+T0 + 2000).toISOString(),
        });
        const sms = byId.get(ids.confirmedSms);
        assert.match(sms.to, /^\+36 30 \*\*\* \*\*\d\d$/);
        assert.equal(sms.to.slice(-2), PHONE.slice(-2));
        assert.equal(sms.status, 'failed');
        assert.equal(sms.attempts, 6);
        assert.match(
          sms.lastError,
          /^gateway answered 422: \+3630\*{5}\d\d unreachable \(was \+36 30 \*\*\* \*\*\d\d\); contact P\*\*\*@EXAMPLE\.COM$/,
        );
        assert.equal(byId.get(ids.second).lastError, '550 5.1.1 <p***@example.com>: user p*** unknown');
        assert.equal(byId.get(ids.reminder).status, 'skipped');
        assert.equal(byId.get(ids.offer).bookingId, null);
        assert.equal(byId.get(ids.owner).to, 'o***@salon.example');
        // nothing of a recipient anywhere in the answer
        assert.deepEqual(
          findLeaks(r.raw, [
            { name: 'email', value: EMAIL },
            { name: 'local part', value: EMAIL.split('@')[0]! },
            { name: 'phone digits', value: PHONE.replace(/\D/g, '').slice(4) },
            { name: 'owner email', value: `owner.${RUN}` },
          ]),
          [],
        );
        assert.ok(!r.raw.includes(otherMessage), 'another business’s message listed');
      }
    });

    test('the front desk reads one booking at a time; other businesses and unknown bookings are refused', async () => {
      const whole = await list('', cookies.frontDesk);
      assertError(whole, 403, 'auth.insufficient_capability');
      assert.deepEqual(whole.body.error.details.required, ['owner', 'manager']);
      assertError(await list('?status=failed', cookies.frontDesk), 403, 'auth.insufficient_capability');

      const one = await list(`?bookingId=${booking1}`, cookies.frontDesk);
      assert.equal(one.status, 200, one.raw);
      assert.deepEqual(
        one.body.data.notifications.map((n: { id: string }) => n.id),
        [ids.reminder, ...[ids.confirmedEmail, ids.confirmedSms].sort().reverse()],
      );

      // a booking of another business, or of none, through this business's log: 404 for every role
      for (const cookie of [cookies.frontDesk, cookies.owner, undefined]) {
        assertError(await list(`?bookingId=${otherBooking}`, cookie), 404, 'booking.not_found');
        assertError(await list('?bookingId=bkg_nosuchbooking000000000', cookie), 404, 'booking.not_found');
      }
      // another business's log: out of the member's scope
      assertError(
        await asMember(h.app, cookies.otherOwner!, 'GET', `/businesses/${salon.business.slug}/notifications`),
        403,
        'auth.scope_mismatch',
      );
      // the platform operator reads any business's log
      const platform = await adminOk(h.app, 'GET', `/businesses/${other.business.slug}/notifications`);
      assert.deepEqual(
        platform.notifications.map((n: { id: string }) => n.id),
        [otherMessage],
      );
    });

    test('filters: status, booking, both', async () => {
      const failed = (await adminOk(h.app, 'GET', `/businesses/${salon.business.slug}/notifications?status=failed`)).notifications;
      assert.deepEqual(
        failed.map((n: { id: string }) => n.id),
        [ids.confirmedSms, ids.second],
      );
      const pending = (await adminOk(h.app, 'GET', `/businesses/${salon.business.slug}/notifications?status=pending&bookingId=${booking2}`))
        .notifications;
      assert.deepEqual(
        pending.map((n: { id: string }) => n.id),
        [ids.owner],
      );
      const none = (await adminOk(h.app, 'GET', `/businesses/${salon.business.slug}/notifications?status=sent&bookingId=${booking2}`))
        .notifications;
      assert.deepEqual(none, []);
    });

    test('pages by cursor, bound to its filters; bad status, limit and cursor are 400 in the envelope', async () => {
      const all = (await list('', cookies.owner)).body.data.notifications.map((n: { id: string }) => n.id);
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const r = await list(`?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, cookies.owner);
        assert.equal(r.status, 200, r.raw);
        seen.push(...r.body.data.notifications.map((n: { id: string }) => n.id));
        cursor = r.body.meta.cursor;
        pages += 1;
      } while (cursor && pages < 10);
      assert.deepEqual(seen, all);
      assert.equal(pages, Math.ceil(all.length / 2));

      const first = await list('?limit=2', cookies.owner);
      const c = encodeURIComponent(first.body.meta.cursor);
      assertError(await list(`?limit=2&status=failed&cursor=${c}`, cookies.owner), 400, 'request.invalid_cursor');
      assertError(await list(`?limit=3&cursor=${c}`, cookies.owner), 400, 'request.invalid_cursor');
      assertError(
        await asMember(h.app, cookies.otherOwner!, 'GET', `/businesses/${other.business.slug}/notifications?limit=2&cursor=${c}`),
        400,
        'request.invalid_cursor',
      );
      assertError(await list('?cursor=not-a-cursor', cookies.owner), 400, 'request.invalid_cursor');
      assertError(await list('?status=delivered', cookies.owner), 400, 'request.validation_failed');
      assertError(await list('?limit=0', cookies.owner), 400, 'request.validation_failed');
      assertError(await list('?limit=abc', cookies.owner), 400, 'request.validation_failed');
    });

    test('resend plans a new pending message copying the original, and its message.send job', async () => {
      const r = await asMember(h.app, cookies.owner!, 'POST', `/notifications/${ids.confirmedSms}/resend`);
      assert.equal(r.status, 201, r.raw);
      const n = r.body.data.notification;
      assert.notEqual(n.id, ids.confirmedSms);
      assert.match(n.id, /^msg_/);
      assert.deepEqual(
        { ...n, id: undefined, scheduledAt: undefined },
        {
          id: undefined,
          bookingId: booking1,
          kind: 'booking.confirmed',
          channel: 'sms',
          to: (await list(`?bookingId=${booking1}&status=failed`)).body.data.notifications[0].to,
          status: 'pending',
          attempts: 0,
          lastError: null,
          scheduledAt: undefined,
          sentAt: null,
        },
      );
      assert.equal(n.scheduledAt, h.clock.now.toISOString());

      const stored = await h.db.query<Record<string, unknown>>(
        `SELECT m.recipient, m.lang, m.state_version, m.reminder_minutes, m.unique_key, m.resend_of, m.audience, m.job_id,
                o.unique_key AS original_key
           FROM messages m JOIN messages o ON o.id = m.resend_of WHERE m.id = $1`,
        [n.id],
      );
      const row = stored.rows[0]!;
      assert.equal(row.recipient, PHONE);
      assert.equal(row.lang, 'hu');
      assert.equal(row.state_version, 1);
      assert.equal(row.resend_of, ids.confirmedSms);
      assert.equal(row.unique_key, `${row.original_key}:resend:${n.id}`);
      const job = await h.db.query<{ kind: string; status: string; payload: { messageId: string } }>(
        'SELECT kind, status, payload FROM jobs WHERE id = $1',
        [row.job_id],
      );
      assert.equal(job.rows[0]?.kind, 'message.send');
      assert.equal(job.rows[0]?.status, 'pending');
      assert.deepEqual(job.rows[0]?.payload, { messageId: n.id });

      // the original is untouched, and the resend is in the log
      const failed = (await list(`?bookingId=${booking1}&status=failed`)).body.data.notifications;
      assert.deepEqual(
        failed.map((x: { id: string }) => x.id),
        [ids.confirmedSms],
      );
      const pending = (await list(`?bookingId=${booking1}&status=pending`)).body.data.notifications;
      assert.ok(pending.some((x: { id: string }) => x.id === n.id));

      // a reminder keeps its reminder, data is copied, and a resend may itself be resent
      const reminder = (await adminOk(h.app, 'POST', `/notifications/${ids.reminder}/resend`)).notification;
      const again = (await adminOk(h.app, 'POST', `/notifications/${reminder.id}/resend`)).notification;
      const chain = await h.db.query<{ id: string; reminder_minutes: number; resend_of: string }>(
        'SELECT id, reminder_minutes, resend_of FROM messages WHERE id = ANY($1::text[]) ORDER BY created_at, id',
        [[reminder.id, again.id]],
      );
      assert.deepEqual(
        chain.rows.map((x) => [x.reminder_minutes, x.resend_of]).sort(),
        [
          [60, ids.reminder],
          [60, reminder.id],
        ].sort(),
      );
    });

    test('resend: the front desk for a booking’s messages only; other business, unknown id', async () => {
      const desk = await asMember(h.app, cookies.frontDesk!, 'POST', `/notifications/${ids.second}/resend`);
      assert.equal(desk.status, 201, desk.raw);
      const offer = await asMember(h.app, cookies.frontDesk!, 'POST', `/notifications/${ids.offer}/resend`);
      assertError(offer, 403, 'auth.insufficient_capability');
      assert.deepEqual(offer.body.error.details.required, ['owner', 'manager']);
      const byManager = await asMember(h.app, cookies.manager!, 'POST', `/notifications/${ids.offer}/resend`);
      assert.equal(byManager.status, 201, byManager.raw);
      const offerCopy = await h.db.query<{ data: unknown; booking_id: string | null }>(
        'SELECT data, booking_id FROM messages WHERE id = $1',
        [byManager.body.data.notification.id],
      );
      assert.deepEqual(offerCopy.rows[0], { data: { offerId: 'wlo_x' }, booking_id: null });

      // a member never learns whether another business's message exists: foreign and unknown alike
      for (const id of [otherMessage, 'msg_nosuchmessage0000000']) {
        assertError(await asMember(h.app, cookies.owner!, 'POST', `/notifications/${id}/resend`), 403, 'auth.scope_mismatch');
      }
      assertError(await admin(h.app, 'POST', '/notifications/msg_nosuchmessage0000000/resend'), 404, 'request.not_found');
      const count = await h.db.query<{ n: number }>('SELECT count(*)::int AS n FROM messages WHERE resend_of = $1', [otherMessage]);
      assert.equal(count.rows[0]!.n, 0);
    });

    test('no log line, at trace level, carries a recipient', () => {
      assert.ok(logText.includes('/notifications'), 'the requests were logged');
      assert.deepEqual(
        findLeaks(logText, [
          { name: 'email', value: EMAIL },
          { name: 'other email', value: OTHER_EMAIL },
          { name: 'phone digits', value: PHONE.replace(/\D/g, '') },
          { name: 'phone as written', value: PHONE },
        ]),
        [],
      );
    });
  });
}
