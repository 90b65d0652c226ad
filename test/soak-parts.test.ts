/**
 * The soak's own instruments, checked on their own: a broken receiver or guest-data scanner would
 * make the soak pass (or fail) for the wrong reason.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { request } from 'undici';
import { signatureHeader } from '../src/domain/webhooks/signing-secret.ts';
import { GuestData } from '../scripts/soak/guest-data.ts';
import { WebhookReceiver } from '../scripts/soak/receiver.ts';
import { Recorder } from '../scripts/soak/recorder.ts';

const SECRET = 'a'.repeat(64);

async function deliver(receiver: WebhookReceiver, slug: string, body: string, headers: Record<string, string>) {
  const res = await request(receiver.url(slug), { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
  await res.body.text();
  return res.statusCode;
}

describe('soak webhook receiver', () => {
  test('accepts a correctly signed delivery and records it as valid', async () => {
    const r = new WebhookReceiver({ error500: 0, rate429: 0, late: 0 }, 10);
    await r.start();
    try {
      r.setSecret('salon-a', SECRET);
      const body = JSON.stringify({ deliveryId: 'd'.repeat(32), timestamp: '2030-01-01T00:00:00.000Z', event: 'booking.requested' });
      const status = await deliver(r, 'salon-a', body, {
        'x-service-signature': signatureHeader(SECRET, body),
        'x-service-delivery-id': 'd'.repeat(32),
        'x-service-timestamp': '2030-01-01T00:00:00.000Z',
        'x-service-attempt': '1',
        'x-service-event': 'booking.requested',
      });
      assert.equal(status, 200);
      assert.equal(r.log.length, 1);
      const e = r.log[0]!;
      assert.deepEqual([e.signatureValid, e.idMatches, e.timestampMatches, e.attempt, e.answer], [true, true, true, 1, 'ok']);
    } finally {
      await r.stop();
    }
  });

  test('records a wrong secret, a changed body and a missing signature as invalid', async () => {
    const r = new WebhookReceiver({ error500: 0, rate429: 0, late: 0 }, 10);
    await r.start();
    try {
      r.setSecret('salon-a', SECRET);
      const body = JSON.stringify({ deliveryId: 'e'.repeat(32), timestamp: 't' });
      await deliver(r, 'salon-a', body, { 'x-service-signature': signatureHeader('b'.repeat(64), body) });
      await deliver(r, 'salon-a', body, { 'x-service-signature': signatureHeader(SECRET, `${body} `) });
      await deliver(r, 'salon-a', body, {});
      await deliver(r, 'salon-b', body, { 'x-service-signature': signatureHeader(SECRET, body) });
      assert.deepEqual(
        r.log.map((x) => x.signatureValid),
        [false, false, false, false],
      );
    } finally {
      await r.stop();
    }
  });

  test('injects the configured failures: 500, and 429 with Retry-After', async () => {
    for (const [faults, expected] of [
      [{ error500: 1, rate429: 0, late: 0 }, 500],
      [{ error500: 0, rate429: 1, late: 0 }, 429],
    ] as const) {
      const r = new WebhookReceiver(faults, 10);
      await r.start();
      try {
        r.setSecret('s', SECRET);
        const body = JSON.stringify({ deliveryId: 'f'.repeat(32) });
        assert.equal(await deliver(r, 's', body, { 'x-service-signature': signatureHeader(SECRET, body) }), expected);
      } finally {
        await r.stop();
      }
    }
  });
});

describe('soak guest-data scanner', () => {
  test('finds a phone in compact, spaced and national form, and the e-mail domain', () => {
    const g = new GuestData(42);
    const guest = g.guest('Test');
    const digits = guest.phone.slice(1);
    assert.ok(g.leaksIn(`{"phone":"${guest.phone}"}`).length > 0);
    assert.ok(g.leaksIn(`tel ${digits.slice(0, 2)} ${digits.slice(2, 4)} ${digits.slice(4, 7)} ${digits.slice(7)}`).length > 0);
    assert.ok(g.leaksIn(`"06${digits.slice(2)}"`).length > 0, 'national form');
    assert.ok(g.leaksIn(`mail ${guest.email.toUpperCase()}`).length > 0);
  });

  test('does not flag ids, timestamps or other numbers', () => {
    const g = new GuestData(42);
    g.guest('Test');
    assert.deepEqual(g.leaksIn('{"deliveryId":"3670123456789abcdef0123456789abc","at":"2030-01-01T00:00:00.000Z","n":36701234}'), []);
  });
});

describe('soak recorder', () => {
  test('a request to the killed process counts as inside the kill window when its span touches it', () => {
    const rec = new Recorder();
    rec.kill = { killedAt: 1_000, readyAt: 2_000, marginMs: 500, api: 1 };
    assert.equal(rec.inKillWindow({ startMs: 900, endMs: 1_001, api: 1 }), true);
    assert.equal(rec.inKillWindow({ startMs: 2_400, endMs: 2_600, api: 1 }), true);
    assert.equal(rec.inKillWindow({ startMs: 2_501, endMs: 2_600, api: 1 }), false);
    assert.equal(rec.inKillWindow({ startMs: 100, endMs: 999, api: 1 }), false);
    assert.equal(rec.inKillWindow({ startMs: 1_500, endMs: 1_600, api: 0 }), false, 'the survivor gets no excuse');
  });
});
