/**
 * Erasure (clients-and-reports.md "Erasure"): a client with a completed booking, a future one, an
 * idempotent replay, webhook deliveries and guest messages (sent through a real SMTP server and SMS
 * gateway by the job worker) is erased; then the whole database is dumped (every row of every
 * table, and pg_dump on PostgreSQL) and the client's name, phone and email are found nowhere, while
 * another guest's details stay where they were. The past booking keeps its time, service, staff,
 * price and status; the future one is cancelled with its event and webhook; export says what is
 * stored before, and a second erase changes nothing.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { startJobWorker } from '../src/jobs/start.ts';
import type { JobWorker } from '../src/jobs/worker.ts';
import type { Db } from '../src/store/db.ts';
import { BASE_NOW, CONSENT, createBody, day, operatorOk, sql } from './helpers/bookings.ts';
import { createSalon, api, type SalonFixture } from './helpers/fixtures.ts';
import { admin, adminOk, startHarness, type Harness } from './helpers/harness.ts';
import { isolatedDbTargets } from './helpers/isolated-databases.ts';
import { startMailSink, startSmsSink, waitUntil, type MailSink, type SmsSink } from './helpers/message-sinks.ts';
import { WebhookReceiver } from './helpers/webhook-receiver.ts';
import { createWebhook } from './helpers/webhooks.ts';

const SMS_SECRET = 'sms-gateway-secret-0123456789';
const ERIKA = { name: 'Törlendő Erika', phone: '+36 30 987 6543', email: 'Erika.Torlendo@example.com' };
const MARTA = { name: 'Megmaradó Márta', phone: '+36 30 246 8135', email: 'marta.megmarad@example.com' };
/** How each of Erika's details could be written down anywhere. */
const ERIKA_SPELLINGS = ['Törlendő Erika', '+36309876543', '309876543', '30 987 6543', 'erika.torlendo@example.com', 'Torlendo'];

/** Every row of every table of the database, as JSON text, by table. */
async function dumpRows(db: Db): Promise<Map<string, string[]>> {
  const tables = await db.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1",
  );
  const out = new Map<string, string[]>();
  for (const { table_name } of tables.rows) {
    const rows = await db.query<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM "${table_name}" t`);
    out.set(
      table_name,
      rows.rows.map((r) => r.row),
    );
  }
  return out;
}

function found(dump: Map<string, string[]>, needle: string): string[] {
  const hits: string[] = [];
  const n = needle.toLowerCase();
  for (const [table, rows] of dump) for (const row of rows) if (row.toLowerCase().includes(n)) hits.push(`${table}: ${row.slice(0, 300)}`);
  return hits;
}

for (const target of isolatedDbTargets()) {
  describe(`client erasure [${target.name}]`, () => {
    let h: Harness;
    let sink: MailSink;
    let sms: SmsSink;
    let receiver: WebhookReceiver;
    let worker: JobWorker;
    let salon: SalonFixture;

    before(async () => {
      sink = await startMailSink();
      sms = await startSmsSink();
      receiver = await WebhookReceiver.start();
      h = await startHarness(target, {
        smtpUrl: sink.url,
        notificationRetryDelaysMs: [200, 200, 200],
        smsGatewayUrl: sms.url,
        smsGatewaySecret: SMS_SECRET,
        webhookAllowPrivateTargets: true,
      });
      h.clock.now = new Date(BASE_NOW);
      worker = await startJobWorker({ db: h.db, config: h.app.ctx.config, housekeeping: false, pollIntervalMs: 100 });
      salon = await createSalon(h.app);
      await createWebhook(h, salon, receiver.path('hook').url);
    });
    after(async () => {
      await worker.stop();
      await h.close();
      await sink.close();
      await sms.close();
      await receiver.close();
    });

    const settled = () =>
      waitUntil(
        'every job due done',
        async () =>
          (
            await sql<{ n: number }>(
              h,
              `SELECT (SELECT count(*) FROM jobs WHERE status IN ('pending', 'running', 'retry_scheduled') AND run_at <= now())
                    + (SELECT count(*) FROM webhook_deliveries WHERE status IN ('pending', 'processing', 'retry_scheduled') AND coalesce(next_attempt_at, now()) <= now()) AS n`,
            )
          )[0]!.n === 0,
        20_000,
      );

    test('nothing of the client is left anywhere; what accounting needs stays; another guest is untouched', async () => {
      const key = randomUUID();
      const body = createBody(salon, { guest: ERIKA, date: day(1), startTime: '09:00', consent: { ...CONSENT, locale: 'en-GB' } });
      const made = await api(h.app, salon.key.secret, 'POST', '/bookings', body, { 'idempotency-key': key });
      assert.equal(made.status, 201, made.raw);
      const replay = await api(h.app, salon.key.secret, 'POST', '/bookings', body, { 'idempotency-key': key });
      assert.equal(replay.status, 201, replay.raw);
      assert.equal(replay.body.data.booking.bookingId, made.body.data.booking.bookingId);
      const past = made.body.data.booking;
      const future = (
        await api(h.app, salon.key.secret, 'POST', '/bookings', createBody(salon, { guest: ERIKA, date: day(10), startTime: '11:00' }))
      ).body.data.booking;
      const marta = (
        await api(h.app, salon.key.secret, 'POST', '/bookings', createBody(salon, { guest: MARTA, date: day(10), startTime: '13:00' }))
      ).body.data.booking;
      await settled();
      assert.ok(sink.mails.length >= 3, 'confirmation mails sent');
      h.clock.now = new Date(`${day(1)}T12:00:00Z`);
      await operatorOk(h, past.bookingId, 'complete');
      await settled();

      const clientId = (await adminOk(h.app, 'GET', `/bookings/${past.bookingId}`)).booking.clientId as string;
      const before = await dumpRows(h.db);
      assert.ok(found(before, 'Törlendő Erika').length > 3, 'the name is stored in several places before');
      assert.ok(found(before, '+36309876543').length > 1);

      const exported = await admin(h.app, 'GET', `/clients/${clientId}/export`);
      assert.equal(exported.status, 200, exported.raw);
      assert.match(String(exported.headers['content-disposition']), new RegExp(`^attachment; filename="client-${clientId}\\.json"$`));
      const doc = exported.body.data.export;
      assert.equal(doc.client.name, 'Törlendő Erika');
      assert.deepEqual(doc.bookings.map((b: { bookingId: string }) => b.bookingId).sort(), [past.bookingId, future.bookingId].sort());
      assert.ok(doc.bookings.every((b: { events: unknown[]; consent: unknown }) => b.events.length > 0 && b.consent !== null));
      assert.ok(doc.messages.some((m: { channel: string; status: string }) => m.channel === 'email' && m.status === 'sent'));

      const pastBefore = (await adminOk(h.app, 'GET', `/bookings/${past.bookingId}`)).booking;
      const erased = await adminOk(h.app, 'POST', `/clients/${clientId}/erase`);
      assert.equal(erased.client.name, 'Erased client');
      assert.equal(erased.client.phone, null);
      assert.equal(erased.client.email, null);
      assert.equal(erased.client.erased, true);
      await settled();

      // the future booking was cancelled first, as the business's own cancel (event and webhook)
      const cancelled = (await adminOk(h.app, 'GET', `/bookings/${future.bookingId}`)).booking;
      assert.equal(cancelled.status, 'cancelled');
      await receiver.waitFor(() =>
        receiver.received.some((r) => r.body.toString().includes(future.bookingId) && r.body.toString().includes('booking.cancelled')),
      );
      // the past one keeps what accounting needs
      const kept = (await adminOk(h.app, 'GET', `/bookings/${past.bookingId}`)).booking;
      assert.equal(kept.status, 'completed');
      for (const field of ['publicReference', 'confirmedSlot', 'serviceId', 'serviceName', 'staffId', 'staffName', 'price', 'source']) {
        assert.deepEqual(kept[field], pastBefore[field], field);
      }
      assert.deepEqual(kept.price, { amount: 5000, currency: 'HUF' });
      assert.equal(kept.guest.name, 'Erased client');

      const after = await dumpRows(h.db);
      for (const s of ERIKA_SPELLINGS) assert.deepEqual(found(after, s), [], `"${s}" is still stored`);
      // another guest of the same business keeps every detail
      assert.ok(found(after, MARTA.name).length > 0);
      assert.ok(found(after, MARTA.email).length > 0);
      assert.equal((await adminOk(h.app, 'GET', `/bookings/${marta.bookingId}`)).booking.guest.name, MARTA.name);

      const url = (h.db as Db & { url?: string }).url;
      if (target.name === 'postgres' && url && existsSync('/usr/bin/pg_dump')) {
        const dumped = execFileSync('/usr/bin/pg_dump', ['--data-only', '--no-owner', url], {
          encoding: 'utf8',
          maxBuffer: 64 * 1024 * 1024,
        }).toLowerCase();
        for (const s of ERIKA_SPELLINGS) assert.ok(!dumped.includes(s.toLowerCase()), `pg_dump holds "${s}"`);
        assert.ok(dumped.includes(MARTA.email));
      }

      // erasure is final: a second one answers the same and changes nothing
      const again = await adminOk(h.app, 'POST', `/clients/${clientId}/erase`);
      assert.deepEqual(again.client, erased.client);
      // the erased client is no longer listed; a new booking of the same phone is a new client
      const listed = await adminOk(h.app, 'GET', `/businesses/${salon.business.slug}/clients`);
      assert.ok(!listed.clients.some((c: { id: string }) => c.id === clientId));
    });

    test('only owners and managers export and erase', async () => {
      const b = (
        await api(
          h.app,
          salon.key.secret,
          'POST',
          '/bookings',
          createBody(salon, { guest: { name: 'Role Rózsa', phone: '+36301239999' }, date: day(12), startTime: '10:00' }),
        )
      ).body.data.booking;
      const clientId = (await adminOk(h.app, 'GET', `/bookings/${b.bookingId}`)).booking.clientId;
      const { memberCookie, asMember } = await import('./helpers/members.ts');
      const desk = (await memberCookie(h.app, h.db, salon.business.id, 'frontDesk')).cookie;
      for (const [method, url] of [
        ['GET', `/clients/${clientId}/export`],
        ['POST', `/clients/${clientId}/erase`],
      ] as const) {
        const r = await asMember(h.app, desk, method, url);
        assert.equal(r.status, 403, r.raw);
        assert.equal(r.body.error.code, 'auth.insufficient_capability');
      }
      const missing = await admin(h.app, 'POST', '/clients/cli_00000000000000000000/erase');
      assert.equal(missing.status, 404, missing.raw);
      assert.equal(missing.body.error.code, 'client.not_found');
    });
  });
}
