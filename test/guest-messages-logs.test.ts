/**
 * No log line of the API or the worker, at trace level, carries a guest's phone or email or a
 * manage token while messages are planned, refused (by a server whose refusal names the address),
 * retried and sent by mail and SMS.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, test } from 'node:test';
import { startJobWorker } from '../src/jobs/start.ts';
import { createLogger } from '../src/logger.ts';
import { BASE_NOW, SECRET_EMAIL, SECRET_PHONE_DIGITS, createOk } from './helpers/bookings.ts';
import { isolatedDbTargets } from './helpers/isolated-databases.ts';
import { adminOk, startHarness } from './helpers/harness.ts';
import { createSalon } from './helpers/fixtures.ts';
import { findLeaks } from './helpers/log-scan.ts';
import { parseMail, startMailSink, startSmsSink, waitUntil } from './helpers/message-sinks.ts';

for (const target of isolatedDbTargets()) {
  describe(`guest message logs [${target.name}]`, () => {
    test('trace-level lines hold no guest phone, email or manage token', async () => {
      let lines = '';
      const out = new Writable({
        write(chunk, _enc, done) {
          lines += String(chunk);
          done();
        },
      });
      const log = createLogger('trace', out);
      const sink = await startMailSink({ refuseFirst: 2, refusalText: (to) => `mailbox ${to.join(', ')} busy, try later` });
      const sms = await startSmsSink();
      const h = await startHarness(
        target,
        {
          smtpUrl: sink.url,
          notificationRetryDelaysMs: [200, 200, 200],
          smsGatewayUrl: sms.url,
          smsGatewaySecret: 'sms-gateway-secret-0123456789',
        },
        { logger: log },
      );
      h.clock.now = new Date(BASE_NOW);
      const worker = await startJobWorker({
        db: h.db,
        config: h.app.ctx.config,
        webhooks: false,
        housekeeping: false,
        pollIntervalMs: 100,
        logger: log,
      });
      try {
        const salon = await createSalon(h.app);
        await adminOk(h.app, 'PATCH', `/businesses/${salon.business.slug}/guest-settings`, { notifications: { sms: true } });
        await createOk(h, salon);
        await waitUntil('the mail and the SMS', () => sink.mails.length > 0 && sms.received.length > 0);
        assert.equal(sink.refused, 2, 'the refusals ran, and named the address');
        const token = /\/manage\/([A-Za-z0-9_-]+)/.exec(parseMail(sink.mails[0]!.raw).text)?.[1];
        assert.ok(token);
        await new Promise((r) => setTimeout(r, 300));
        assert.ok(lines.includes('job run failed'), 'the failed attempts were logged');
        assert.ok(lines.includes('mailbox *** busy'), 'with the refusal, its address masked');
        const leaks = findLeaks(lines, [
          { name: 'email', value: SECRET_EMAIL },
          { name: 'phone', value: SECRET_PHONE_DIGITS },
          { name: 'manage token', value: token },
        ]);
        assert.deepEqual(leaks, []);
      } finally {
        await worker.stop();
        await h.close();
        await sink.close();
        await sms.close();
      }
    });
  });
}
