/**
 * Guest and business messages end to end (guest-side.md "Notifications"): bookings made and
 * changed through the API, the job worker planning and sending, a real SMTP server and a real HTTP
 * server as the SMS gateway receiving. Every kind arrives in the guest's language with the zone
 * named, the manage link, and a calendar file node-ical reads (REQUEST or CANCEL, one UID, SEQUENCE
 * = state version); a refusing server still ends with exactly one message; a dead one blocks no
 * booking and no webhook.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import ical from 'node-ical';
import { startJobWorker } from '../src/jobs/start.ts';
import type { JobWorker } from '../src/jobs/worker.ts';
import { findEvent } from '../src/store/booking-events.ts';
import { planBookingEventMessages } from '../src/use-cases/messages/plan.ts';
import { BASE_NOW, CONSENT, SECRET_EMAIL, createOk, day, operatorOk, sql } from './helpers/bookings.ts';
import { isolatedDbTargets } from './helpers/isolated-databases.ts';
import { adminOk, startHarness, type Harness } from './helpers/harness.ts';
import { createSalon, type SalonFixture } from './helpers/fixtures.ts';
import { insertMember } from './helpers/members.ts';
import {
  parseMail,
  startMailSink,
  startSmsSink,
  waitUntil,
  type MailSink,
  type ParsedMail,
  type SmsSink,
} from './helpers/message-sinks.ts';
import { WebhookReceiver } from './helpers/webhook-receiver.ts';
import { createWebhook } from './helpers/webhooks.ts';

const SMS_SECRET = 'sms-gateway-secret-0123456789';
const EN = { ...CONSENT, locale: 'en-GB' };

function mailsAbout(sink: MailSink, reference: string): ParsedMail[] {
  return sink.mails.map((m) => ({ ...parseMail(m.raw), to: m.to })).filter((m) => m.text.includes(reference)) as ParsedMail[];
}

async function mailOf(sink: MailSink, reference: string, subjectPart: string, to = SECRET_EMAIL): Promise<ParsedMail & { to: string[] }> {
  let found: (ParsedMail & { to: string[] }) | undefined;
  await waitUntil(`"${subjectPart}" about ${reference}`, () => {
    found = mailsAbout(sink, reference).find((m) => m.subject.includes(subjectPart) && (m as any).to.includes(to)) as any;
    return found !== undefined;
  });
  return found!;
}

function calendarOf(mail: ParsedMail): { method: string; uid: string; sequence: number; start: Date } {
  assert.ok(mail.calendars.length > 0, 'a calendar part');
  const parsed = ical.sync.parseICS(mail.calendars[0]!);
  const event = Object.values(parsed).find((c: any) => c.type === 'VEVENT') as any;
  const cal = parsed.vcalendar as any;
  return { method: cal.method, uid: event.uid, sequence: Number(event.sequence), start: new Date(event.start) };
}

function checkGuestMail(mail: ParsedMail, o: { bookingId: string; method: string; sequence: number; manage: boolean }) {
  assert.match(mail.text, /\(Europe\/Budapest\)/, 'the zone is named');
  assert.match(mail.html, /Europe\/Budapest/);
  if (o.manage) assert.match(mail.text, /http:\/\/127\.0\.0\.1:\d+\/manage\/[A-Za-z0-9_-]+/, 'the manage link');
  assert.ok(!mail.text.includes('+36'), 'no phone number in the mail');
  const cal = calendarOf(mail);
  assert.equal(cal.method, o.method);
  assert.equal(cal.uid, `${o.bookingId}@127.0.0.1`);
  assert.equal(cal.sequence, o.sequence);
}

for (const target of isolatedDbTargets()) {
  describe(`guest messages [${target.name}]`, () => {
    let h: Harness;
    let sink: MailSink;
    let sms: SmsSink;
    let worker: JobWorker;
    let salon: SalonFixture;
    let owner: { email: string };
    let manager: { email: string };
    let frontDesk: { email: string };

    before(async () => {
      sink = await startMailSink();
      sms = await startSmsSink();
      h = await startHarness(target, {
        smtpUrl: sink.url,
        notificationRetryDelaysMs: [200, 200, 200],
        smsGatewayUrl: sms.url,
        smsGatewaySecret: SMS_SECRET,
      });
      h.clock.now = new Date(BASE_NOW);
      worker = await startJobWorker({ db: h.db, config: h.app.ctx.config, webhooks: false, housekeeping: false, pollIntervalMs: 100 });
      salon = await createSalon(h.app);
      owner = await insertMember(h.db, salon.business.id, 'owner');
      manager = await insertMember(h.db, salon.business.id, 'manager');
      frontDesk = await insertMember(h.db, salon.business.id, 'frontDesk');
    });
    after(async () => {
      await worker.stop();
      await h.close();
      await sink.close();
      await sms.close();
    });

    test('an automatic booking: one "confirmed" mail in Hungarian (none saying "received"), REQUEST with SEQUENCE 2', async () => {
      const b = await createOk(h, salon);
      const mail = await mailOf(sink, b.publicReference, 'Foglalás visszaigazolva');
      assert.match(mail.subject, new RegExp(`^Salon ${salon.business.slug}: Foglalás visszaigazolva – .*10:00 \\(Europe/Budapest\\)$`));
      assert.match(mail.text, /Időpont: .*10:00–10:30 \(Europe\/Budapest\)/);
      checkGuestMail(mail, { bookingId: b.bookingId, method: 'REQUEST', sequence: 2, manage: true });
      assert.equal(mail.messageId.endsWith('@127.0.0.1>'), true);
      // Nothing else about it: the request and the confirmation were one write.
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(mailsAbout(sink, b.publicReference).length, 1);
      // Its reminder is planned 24 hours before (outside quiet hours), not yet sent.
      const [rem] = await sql(h, "SELECT status, scheduled_at FROM messages WHERE booking_id = $1 AND kind = 'booking.reminder'", [
        b.bookingId,
      ]);
      assert.equal(rem.status, 'pending');
      assert.equal(new Date(rem.scheduled_at).toISOString(), new Date(Date.parse(`${day(2)}T08:00:00Z`) - 86_400_000).toISOString());
    });

    test('a run again after a crash between accept and record repeats once with the same Message-ID; a sent row is never sent again', async () => {
      const b = await createOk(h, salon, { startTime: '16:00' });
      const first = await mailOf(sink, b.publicReference, 'Foglalás visszaigazolva');
      const [row] = await sql(
        h,
        "SELECT id, job_id FROM messages WHERE booking_id = $1 AND kind = 'booking.confirmed' AND channel = 'email'",
        [b.bookingId],
      );
      await waitUntil(
        'the row sent',
        async () => (await sql(h, 'SELECT status FROM messages WHERE id = $1', [row.id]))[0].status === 'sent',
      );
      const rerun = async () => {
        await h.db.query("UPDATE jobs SET status = 'pending', run_at = now(), locked_until = NULL WHERE id = $1", [row.job_id]);
        // claimed is not finished: wait for the run's outcome, not only for the claim
        await waitUntil('the run', async () =>
          ['succeeded', 'skipped', 'failed', 'cancelled'].includes(
            (await sql(h, 'SELECT status FROM jobs WHERE id = $1', [row.job_id]))[0].status,
          ),
        );
      };
      // The job run again while the row says sent: it reads the row and sends nothing.
      await rerun();
      assert.equal((await sql(h, 'SELECT status FROM jobs WHERE id = $1', [row.job_id]))[0].status, 'skipped');
      assert.equal(mailsAbout(sink, b.publicReference).length, 1);
      // The crash case: the server accepted, the record never happened (the row still pending).
      await h.db.query("UPDATE messages SET status = 'pending', sent_at = NULL WHERE id = $1", [row.id]);
      await rerun();
      await waitUntil('the repeat', () => mailsAbout(sink, b.publicReference).length === 2);
      const [a, again] = mailsAbout(sink, b.publicReference);
      assert.equal(a!.messageId, first.messageId);
      assert.equal(again!.messageId, first.messageId, 'the repeat is the same message');
      assert.equal(first.messageId, `<${row.id}@127.0.0.1>`);
    });

    test('a request in English: received, the owners and managers told, then confirmed, proposed, moved and cancelled', async () => {
      const b = await createOk(h, salon, { service: salon.manualService, consent: EN, startTime: '11:00' });
      const ref = b.publicReference;
      const received = await mailOf(sink, ref, 'Booking request received');
      checkGuestMail(received, { bookingId: b.bookingId, method: 'REQUEST', sequence: 1, manage: true });
      for (const m of [owner, manager]) {
        const biz = await mailOf(sink, ref, 'New booking request', m.email);
        assert.match(biz.text, /Kiss Éva/);
        assert.ok(!/\/manage\//.test(biz.text), 'business mail never carries the guest manage link');
        assert.match(biz.text, /\/dashboard\//);
      }

      await operatorOk(h, b.bookingId, 'accept');
      const confirmed = await mailOf(sink, ref, 'Booking confirmed');
      checkGuestMail(confirmed, { bookingId: b.bookingId, method: 'REQUEST', sequence: 2, manage: true });

      await operatorOk(h, b.bookingId, 'propose', { date: day(3), startTime: '11:00' });
      const proposed = await mailOf(sink, ref, 'A new time is proposed');
      assert.match(proposed.text, /Proposed new time: .*11:00–12:00 \(Europe\/Budapest\)/);
      assert.match(proposed.subject, /11:00/);
      checkGuestMail(proposed, { bookingId: b.bookingId, method: 'REQUEST', sequence: 3, manage: true });

      await operatorOk(h, b.bookingId, 'accept-proposal');
      const moved = await mailOf(sink, ref, 'Booking moved to a new time');
      checkGuestMail(moved, { bookingId: b.bookingId, method: 'REQUEST', sequence: 4, manage: true });
      assert.match(moved.text, /When: .*11:00–12:00/);

      await operatorOk(h, b.bookingId, 'cancel');
      const cancelled = await mailOf(sink, ref, 'Booking cancelled');
      checkGuestMail(cancelled, { bookingId: b.bookingId, method: 'CANCEL', sequence: 5, manage: true });
      // A member's cancellation is not news to the business; frontDesk is never written to.
      assert.equal(sink.mails.filter((m) => m.to.includes(frontDesk.email)).length, 0);
      assert.equal(mailsAbout(sink, ref).filter((m) => m.subject.includes('A guest cancelled')).length, 0);
    });

    test('a declined request gets a CANCEL file; a guest cancellation tells the owners and managers', async () => {
      const b = await createOk(h, salon, { service: salon.manualService, startTime: '13:00' });
      await operatorOk(h, b.bookingId, 'decline');
      const declined = await mailOf(sink, b.publicReference, 'Foglalási kérés elutasítva');
      checkGuestMail(declined, { bookingId: b.bookingId, method: 'CANCEL', sequence: 2, manage: true });

      // The manage page's cancel writes actor 'guest' (another branch): the policy as it runs for it.
      const c = await createOk(h, salon, { startTime: '14:00' });
      await operatorOk(h, c.bookingId, 'cancel');
      const event = (await findEvent(h.db, c.bookingId, 3))!;
      await planBookingEventMessages(h.db, { ...event, actor: 'guest' });
      const biz = await mailOf(sink, c.publicReference, 'A guest cancelled', owner.email);
      assert.match(biz.text, /Kiss Éva/);
      await mailOf(sink, c.publicReference, 'A guest cancelled', manager.email);
      // The guest's own cancellation mail was planned once, whatever ran it twice.
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(mailsAbout(sink, c.publicReference).filter((m) => m.subject.includes('Foglalás lemondva')).length, 1);
    });

    test('SMS through the gateway, signed, with the manage link', async () => {
      await adminOk(h.app, 'PATCH', `/businesses/${salon.business.slug}/guest-settings`, { notifications: { sms: true } });
      const b = await createOk(h, salon, { startTime: '15:00' });
      await waitUntil('the SMS', () => sms.received.some((r) => r.body.text.includes('15:00')));
      const got = sms.received.find((r) => r.body.text.includes('15:00'))!;
      assert.equal(got.body.to, '+36307654321');
      assert.equal(got.signature, `sha256=${createHmac('sha256', SMS_SECRET).update(got.raw).digest('hex')}`);
      assert.match(got.body.text, /Foglalás visszaigazolva/);
      assert.match(got.body.text, /\(Europe\/Budapest\)/);
      assert.match(got.body.text, /\/manage\//);
      const [row] = await sql(
        h,
        "SELECT id, status FROM messages WHERE booking_id = $1 AND channel = 'sms' AND kind = 'booking.confirmed'",
        [b.bookingId],
      );
      assert.equal(got.body.messageId, row.id);
      await waitUntil(
        'the sms row sent',
        async () => (await sql(h, 'SELECT status FROM messages WHERE id = $1', [row.id]))[0].status === 'sent',
      );
      await adminOk(h.app, 'PATCH', `/businesses/${salon.business.slug}/guest-settings`, { notifications: { sms: false } });

      // A waitlist offer's mail (claim and withdraw links) is sent in test/waitlist.test.ts from a real offer.
    });
  });

  describe(`a refusing mail server [${target.name}]`, () => {
    test('no SMTP_URL: the message is planned and ends skipped, saying why', async () => {
      const h = await startHarness(target, { smtpUrl: undefined });
      h.clock.now = new Date(BASE_NOW);
      const worker = await startJobWorker({
        db: h.db,
        config: h.app.ctx.config,
        webhooks: false,
        housekeeping: false,
        pollIntervalMs: 100,
      });
      try {
        const b = await createOk(h, await createSalon(h.app));
        await waitUntil('the row skipped', async () => {
          const [row] = await sql(h, "SELECT status FROM messages WHERE booking_id = $1 AND kind = 'booking.confirmed'", [b.bookingId]);
          return row?.status === 'skipped';
        });
        const [row] = await sql(h, "SELECT attempts, last_error FROM messages WHERE booking_id = $1 AND kind = 'booking.confirmed'", [
          b.bookingId,
        ]);
        assert.equal(row.attempts, 0);
        assert.equal(row.last_error, 'SMTP_URL is not set: no mail is sent');
      } finally {
        await worker.stop();
        await h.close();
      }
    });

    test('451 on the first two DATA: exactly one mail, the row sent after 3 attempts, each attempt recorded', async () => {
      const sink = await startMailSink({ refuseFirst: 2 });
      const h = await startHarness(target, { smtpUrl: sink.url, notificationRetryDelaysMs: [200, 200, 200] });
      h.clock.now = new Date(BASE_NOW);
      const worker = await startJobWorker({
        db: h.db,
        config: h.app.ctx.config,
        webhooks: false,
        housekeeping: false,
        pollIntervalMs: 100,
      });
      try {
        const salon = await createSalon(h.app);
        const b = await createOk(h, salon);
        await waitUntil('the mail', () => sink.mails.length > 0);
        await new Promise((r) => setTimeout(r, 800));
        assert.equal(sink.refused, 2);
        assert.equal(sink.mails.length, 1);
        const [row] = await sql(
          h,
          "SELECT id, status, attempts, job_id FROM messages WHERE booking_id = $1 AND kind = 'booking.confirmed'",
          [b.bookingId],
        );
        assert.equal(row.status, 'sent');
        assert.equal(row.attempts, 3);
        const runs = await sql(h, 'SELECT outcome, error FROM job_attempts WHERE job_id = $1 ORDER BY attempt', [row.job_id]);
        assert.deepEqual(
          runs.map((r) => r.outcome),
          ['failed', 'failed', 'succeeded'],
        );
        assert.ok(runs.every((r) => !String(r.error ?? '').includes(SECRET_EMAIL)));
      } finally {
        await worker.stop();
        await h.close();
        await sink.close();
      }
    });

    test('a server that always refuses blocks neither the booking nor its webhook; the row ends failed', async () => {
      const sink = await startMailSink({ refuseAll: true });
      const receiver = await WebhookReceiver.start();
      const h = await startHarness(target, {
        smtpUrl: sink.url,
        notificationRetryDelaysMs: [200, 200, 200],
        webhookAllowPrivateTargets: true,
      });
      h.clock.now = new Date(BASE_NOW);
      const worker = await startJobWorker({ db: h.db, config: h.app.ctx.config, housekeeping: false, pollIntervalMs: 100 });
      try {
        const salon = await createSalon(h.app);
        const hook = receiver.path('hook');
        await createWebhook(h, salon, hook.url);
        const t0 = Date.now();
        const b = await createOk(h, salon);
        assert.ok(Date.now() - t0 < 5000, 'the create does not wait for mail');
        await receiver.waitFor(() => receiver.at(hook.path).length >= 2, 10_000);
        await waitUntil('the row failed', async () => {
          const [row] = await sql(h, "SELECT status FROM messages WHERE booking_id = $1 AND kind = 'booking.confirmed'", [b.bookingId]);
          return row?.status === 'failed';
        });
        const [row] = await sql(h, "SELECT attempts, last_error FROM messages WHERE booking_id = $1 AND kind = 'booking.confirmed'", [
          b.bookingId,
        ]);
        assert.equal(row.attempts, 4);
        assert.match(row.last_error, /451/);
        assert.ok(!row.last_error.includes(SECRET_EMAIL));
      } finally {
        await worker.stop();
        await h.close();
        await receiver.close();
        await sink.close();
      }
    });
  });
}
