import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Resolver } from '../src/webhooks/dispatcher.ts';
import type { WebhookWorker } from '../src/webhooks/worker.ts';
import { createOk } from './helpers/bookings.ts';
import { createSalon } from './helpers/fixtures.ts';
import type { Harness } from './helpers/harness.ts';
import { isolatedDbTargets } from './helpers/isolated-databases.ts';
import { WebhookReceiver } from './helpers/webhook-receiver.ts';
import { attemptsOf, createWebhook, storeWebhookRow, testWorker, waitForFinal, webhookHarness } from './helpers/webhooks.ts';

/** Names the tests resolve without touching /etc/hosts or real DNS. */
const DNS: Record<string, Array<{ address: string; family: number }>> = {
  'rebind.example.test': [{ address: '127.0.0.1', family: 4 }],
  'mixed.example.test': [
    { address: '93.184.216.34', family: 4 },
    { address: '10.0.0.7', family: 4 },
  ],
  'metadata.example.test': [{ address: '169.254.169.254', family: 4 }],
  'v6-loopback.example.test': [{ address: '::1', family: 6 }],
};
const resolver: Resolver = async (hostname) => {
  const a = DNS[hostname];
  if (!a) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return a;
};

for (const target of isolatedDbTargets()) {
  describe(`webhook connect-time address check, private targets off [${target.name}]`, () => {
    let h: Harness;
    let receiver: WebhookReceiver;
    let worker: WebhookWorker;
    let resolved: string[];
    before(async () => {
      h = await webhookHarness(target, { webhookAllowPrivateTargets: false });
      receiver = await WebhookReceiver.start();
      resolved = [];
      worker = await testWorker(h, {
        resolver: (name) => {
          resolved.push(name);
          return resolver(name);
        },
      });
    });
    after(async () => {
      await worker.stop();
      await receiver.close();
      await h.close();
    });

    /** Every attempt is refused before any connection: network_error with the reason, nothing received. */
    async function expectRefused(url: string, reason: RegExp, via: 'route' | 'row' = 'route'): Promise<void> {
      const before = receiver.received.length;
      const salon = await createSalon(h.app);
      // Names pass the URL rules (they cannot know the addresses); what the rules refuse is written directly.
      if (via === 'route') await createWebhook(h, salon, url);
      else await storeWebhookRow(h, salon.business.id, url);
      const booking = await createOk(h, salon, { service: salon.manualService });
      const [row] = await waitForFinal(h.db, booking.bookingId, 1);
      assert.deepEqual([row!.status, row!.attempt_count, row!.outcome, row!.status_code], ['exhausted', 3, 'network_error', null]);
      for (const a of await attemptsOf(h.db, row!.delivery_id)) assert.match(a.error ?? '', reason);
      assert.equal(receiver.received.length, before, 'no request reached the receiver');
    }

    test('a hostname that resolves to 127.0.0.1 is refused at connect time; no connection reaches the receiver', async () => {
      await expectRefused(
        `https://rebind.example.test:${receiver.port}/hook`,
        /refused: rebind\.example\.test resolves to a loopback address/,
      );
      assert.ok(resolved.includes('rebind.example.test'), 'the name went through the injected resolver');
    });

    test('a hostname with one private address among public ones is refused', async () => {
      await expectRefused('https://mixed.example.test/hook', /resolves to a private address/);
    });

    test('link-local (cloud metadata) and IPv6 loopback answers are refused', async () => {
      await expectRefused('https://metadata.example.test/hook', /metadata\.example\.test resolves to a link-local address/);
      await expectRefused(
        `https://v6-loopback.example.test:${receiver.port}/hook`,
        /v6-loopback\.example\.test resolves to a loopback address/,
      );
    });

    test('literal private IPs are refused at connect time', async () => {
      await expectRefused(`https://127.0.0.1:${receiver.port}/hook`, /refused: 127\.0\.0\.1 is a loopback address/, 'row');
      await expectRefused(`https://[::ffff:127.0.0.1]:${receiver.port}/hook`, /is a loopback address/, 'row');
      await expectRefused('https://10.20.30.40/hook', /refused: 10\.20\.30\.40 is a private address/, 'row');
      await expectRefused('https://[fd00::1]/hook', /is a private address/, 'row');
    });

    test('http:// targets are refused', async () => {
      await expectRefused(`http://rebind.example.test:${receiver.port}/hook`, /refused: http:\/\/ targets are not allowed/, 'row');
    });

    test('an unresolvable name is a network error', async () => {
      await expectRefused('https://nowhere.example.test/hook', /ENOTFOUND/);
    });
  });

  describe(`webhook connect-time address check, private targets on [${target.name}]`, () => {
    let h: Harness;
    let receiver: WebhookReceiver;
    let worker: WebhookWorker;
    before(async () => {
      h = await webhookHarness(target, { webhookAllowPrivateTargets: true });
      receiver = await WebhookReceiver.start();
      worker = await testWorker(h, { resolver });
    });
    after(async () => {
      await worker.stop();
      await receiver.close();
      await h.close();
    });

    test('the same name resolving to 127.0.0.1 is delivered to the address the resolver gave', async () => {
      const salon = await createSalon(h.app);
      const { path } = receiver.path('allowed');
      await createWebhook(h, salon, `http://rebind.example.test:${receiver.port}${path}`);
      const booking = await createOk(h, salon, { service: salon.manualService });
      const [row] = await waitForFinal(h.db, booking.bookingId, 1);
      assert.deepEqual([row!.status, row!.attempt_count], ['succeeded', 1]);
      assert.equal(receiver.at(path).length, 1);
      assert.equal(receiver.at(path)[0]!.headers.host, `rebind.example.test:${receiver.port}`);
    });
  });
}
