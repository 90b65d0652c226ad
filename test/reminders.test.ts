/**
 * Reminders in real time (guest-side.md "Notifications"): bookings a few minutes ahead at a
 * location with no minimum notice, a reminder 2 minutes before each. The one of a booking that
 * stays arrives before the booking starts; a cancelled booking's and a moved booking's old one end
 * `skipped` (their jobs made due at once through the database clock) and never arrive; the moved
 * one's new reminder arrives at its new time; quiet hours send one earlier than due, never later.
 * The wait is at most about a minute: every reminder here is due within the next whole minute.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startJobWorker } from '../src/jobs/start.ts';
import type { JobWorker } from '../src/jobs/worker.ts';
import { instantToLocal } from '../src/domain/time/wall-clock.ts';
import { CONSENT, SECRET_EMAIL, sql } from './helpers/bookings.ts';
import { isolatedDbTargets } from './helpers/isolated-databases.ts';
import { adminOk, startHarness, type Harness } from './helpers/harness.ts';
import { api, createBusiness, createKey, createLocation, createService, createStaff } from './helpers/fixtures.ts';
import { parseMail, startMailSink, waitUntil, type MailSink } from './helpers/message-sinks.ts';

const TZ = 'Europe/Budapest';
const ALL_DAY = [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, start: '00:00', end: '23:59' }));

async function quickSalon(h: Harness, settings: Record<string, unknown>) {
  const business = await createBusiness(h.app);
  const location = await createLocation(h.app, business.slug, { timezone: TZ, minNoticeMinutes: 0, slotIntervalMinutes: 1 });
  const service = await createService(h.app, business.slug, location.slug, { durationMinutes: 5 });
  const staff = await createStaff(h.app, business.slug, location.slug, { serviceIds: [service.id], workingHours: ALL_DAY });
  const key = await createKey(h.app, business.slug);
  await adminOk(h.app, 'PATCH', `/businesses/${business.slug}/guest-settings`, { notifications: settings });
  const book = async (start: Date) => {
    h.clock.now = new Date();
    const local = instantToLocal(start, TZ);
    const r = await api(h.app, key.secret, 'POST', '/bookings', {
      salonSlug: business.slug,
      locationSlug: location.slug,
      serviceId: service.id,
      expectedPricingVersion: service.pricingVersion,
      staffId: staff.id,
      slot: { date: local.date, startTime: local.time },
      guest: { name: 'Kiss Éva', phone: '+36 30 765 4321', email: SECRET_EMAIL },
      consent: { ...CONSENT, locale: 'en' },
    });
    assert.equal(r.status, 201, r.raw);
    return r.body.data.booking as { bookingId: string; publicReference: string };
  };
  const move = async (bookingId: string, start: Date) => {
    h.clock.now = new Date();
    const local = instantToLocal(start, TZ);
    await adminOk(h.app, 'POST', `/bookings/${bookingId}/reschedule`, { date: local.date, startTime: local.time });
  };
  const cancel = async (bookingId: string) => {
    h.clock.now = new Date();
    await adminOk(h.app, 'POST', `/bookings/${bookingId}/cancel`);
  };
  return { book, move, cancel };
}

const MIN = 60_000;
const reminders = (sink: MailSink, reference: string) =>
  sink.mails.map((m) => ({ ...parseMail(m.raw), at: m.at })).filter((m) => m.text.includes(reference) && m.subject.includes('Reminder'));

for (const target of isolatedDbTargets()) {
  describe(`reminders [${target.name}]`, () => {
    let h: Harness;
    let sink: MailSink;
    let worker: JobWorker;
    before(async () => {
      sink = await startMailSink();
      h = await startHarness(target, { smtpUrl: sink.url, notificationRetryDelaysMs: [200, 200, 200] });
      worker = await startJobWorker({ db: h.db, config: h.app.ctx.config, webhooks: false, housekeeping: false, pollIntervalMs: 100 });
    });
    after(async () => {
      await worker.stop();
      await h.close();
      await sink.close();
    });

    const rows = (bookingId: string) =>
      sql<{ id: string; status: string; scheduled_at: Date; last_error: string | null; job_id: string | null }>(
        h,
        "SELECT id, status, scheduled_at, last_error, job_id FROM messages WHERE booking_id = $1 AND kind = 'booking.reminder' ORDER BY scheduled_at",
        [bookingId],
      );
    const planned = async (bookingId: string, n: number) => {
      await waitUntil(`${n} reminder rows of ${bookingId}`, async () => (await rows(bookingId)).length >= n);
      return rows(bookingId);
    };

    test('sent before the booking; none for a cancelled or moved-away time; the moved one at its new time; quiet hours earlier', async () => {
      // Every reminder below is due at `due`: the next whole minute at least 15 s away.
      let due = Math.ceil(Date.now() / MIN) * MIN;
      if (due - Date.now() < 15_000) due += MIN;
      const plain = await quickSalon(h, { reminders: [{ minutesBefore: 2 }], quietHours: null });
      const dueLocal = (t: number) => instantToLocal(new Date(t), TZ).time;
      // Quiet hours from the minute after `due`: a reminder due 2 minutes after `due` goes at `due`.
      const quiet = await quickSalon(h, {
        reminders: [{ minutesBefore: 2 }],
        quietHours: { start: dueLocal(due + MIN), end: dueLocal(due + 60 * MIN) },
      });

      const kept = await plain.book(new Date(due + 2 * MIN));
      const cancelled = await plain.book(new Date(due + 30 * MIN));
      const moved = await plain.book(new Date(due + 40 * MIN));
      const hushed = await quiet.book(new Date(due + 4 * MIN));

      await plain.cancel(cancelled.bookingId);
      // The confirmation's follow-up first, so the reminder of the time it moves away from exists.
      const [old] = await planned(moved.bookingId, 1);
      // Moved to start 2 minutes after `due`, on another minute than `kept` (its own staff time is free: 5-minute service).
      await plain.move(moved.bookingId, new Date(due + 8 * MIN));
      const movedRows = await planned(moved.bookingId, 2);
      assert.equal(movedRows.length, 2);
      assert.equal(new Date(movedRows[0]!.scheduled_at).getTime(), due + 6 * MIN);

      const [q] = await planned(hushed.bookingId, 1);
      assert.equal(new Date(q!.scheduled_at).getTime(), due, 'moved earlier, to the minute before quiet hours');

      // The cancelled booking's and the moved-away time's reminders, made due now: skipped, never sent.
      const [c] = await planned(cancelled.bookingId, 1);
      const stale = movedRows.find((r) => new Date(r.scheduled_at).getTime() === due + 38 * MIN)!;
      assert.ok(old && stale);
      await h.db.query('UPDATE jobs SET run_at = now() WHERE id = ANY($1::text[])', [[c!.job_id, stale.job_id]]);
      await waitUntil('both skipped', async () => {
        const r = await sql(h, 'SELECT status FROM messages WHERE id = ANY($1::text[])', [[c!.id, stale.id]]);
        return r.every((x) => x.status === 'skipped');
      });
      const ended = await sql(h, 'SELECT id, last_error FROM messages WHERE id = ANY($1::text[]) ORDER BY id', [[c!.id, stale.id]]);
      assert.deepEqual(ended.map((r) => r.last_error).sort(), ['the booking is cancelled', 'the booking moved to another time'].sort());

      await waitUntil(
        'the kept and the quiet reminder',
        () => reminders(sink, kept.publicReference).length > 0 && reminders(sink, hushed.publicReference).length > 0,
        90_000,
      );
      const k = reminders(sink, kept.publicReference)[0]!;
      assert.ok(k.at >= due - 1000 && k.at < due + 2 * MIN, 'before the booking, not before its time');
      const qm = reminders(sink, hushed.publicReference)[0]!;
      assert.ok(qm.at < due + MIN, 'sent before quiet hours began');
      assert.equal(reminders(sink, cancelled.publicReference).length, 0);
      assert.equal(reminders(sink, moved.publicReference).length, 0, 'the moved one is not due yet');

      // The moved booking's new reminder, made due now: it is for the time the booking has, so it is sent.
      const fresh = movedRows.find((r) => new Date(r.scheduled_at).getTime() === due + 6 * MIN)!;
      await h.db.query('UPDATE jobs SET run_at = now() WHERE id = $1', [fresh.job_id]);
      await waitUntil('the moved reminder', () => reminders(sink, moved.publicReference).length === 1);
      assert.match(reminders(sink, moved.publicReference)[0]!.text, new RegExp(dueLocal(due + 8 * MIN)));
    });

    test('a reminder whose time has passed when the booking is made is recorded skipped', async () => {
      const s = await quickSalon(h, { reminders: [{ minutesBefore: 60 }], quietHours: null });
      const b = await s.book(new Date(Math.ceil(Date.now() / MIN) * MIN + 5 * MIN));
      const [r] = await planned(b.bookingId, 1);
      assert.equal(r!.status, 'skipped');
      assert.equal(r!.job_id, null);
      assert.match(r!.last_error ?? '', /passed/);
    });
  });
}
