/** The guest message settings (guest-side.md "Runtime settings") and what NOTIFICATION_WORKER turns off. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.ts';
import { registerStandardJobs } from '../src/jobs/handlers/index.ts';
import { JobRegistry } from '../src/jobs/registry.ts';
import type { Db } from '../src/store/db.ts';

describe('notification settings', () => {
  test('NOTIFICATION_RETRY_DELAYS: default 1m,5m,15m,30m,60m; ms values; a bad one names the variable', () => {
    assert.deepEqual(loadConfig({}).notificationRetryDelaysMs, [60_000, 300_000, 900_000, 1_800_000, 3_600_000]);
    assert.deepEqual(loadConfig({ NOTIFICATION_RETRY_DELAYS: '200ms,200ms,1s' }).notificationRetryDelaysMs, [200, 200, 1000]);
    assert.throws(
      () => loadConfig({ NOTIFICATION_RETRY_DELAYS: '1m,soon' }),
      (e: unknown) => e instanceof ConfigError && e.variable === 'NOTIFICATION_RETRY_DELAYS',
    );
  });

  test('SMS_GATEWAY_URL needs SMS_GATEWAY_SECRET of 16 characters or more', () => {
    assert.equal(loadConfig({}).smsGatewayUrl, undefined);
    assert.throws(
      () => loadConfig({ SMS_GATEWAY_URL: 'https://sms.example/send' }),
      (e: unknown) => e instanceof ConfigError && e.variable === 'SMS_GATEWAY_SECRET',
    );
    assert.throws(() => loadConfig({ SMS_GATEWAY_URL: 'ftp://sms.example', SMS_GATEWAY_SECRET: 'x'.repeat(16) }), ConfigError);
    const c = loadConfig({ SMS_GATEWAY_URL: 'https://sms.example/send', SMS_GATEWAY_SECRET: 'x'.repeat(16) });
    assert.equal(c.smsGatewayUrl, 'https://sms.example/send');
  });

  test('NOTIFICATION_WORKER=false: no booking follow-up, message or waitlist kind is run by this worker', () => {
    const config = loadConfig({ NOTIFICATION_WORKER: 'false' });
    assert.equal(config.notificationWorker, false);
    assert.equal(loadConfig({}).notificationWorker, true);
    const deps = { db: {} as Db, config };
    const off = registerStandardJobs(new JobRegistry(), deps, { webhooks: false, notifications: config.notificationWorker });
    assert.deepEqual([...off.handlers.keys()].sort(), ['clients.retention', 'housekeeping']);
    const on = registerStandardJobs(new JobRegistry(), deps, { webhooks: false });
    assert.deepEqual([...on.handlers.keys()].sort(), [
      'booking.followup',
      'clients.retention',
      'housekeeping',
      'message.send',
      'waitlist.match',
      'waitlist.offer_expiry',
    ]);
  });
});
