/** The pure rules of the guest settings: the merge of a PATCH, and origins in one spelling. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { effectiveSettings, mergePatch } from '../../src/domain/guest-settings/merge.ts';
import { normaliseOrigin, normaliseOrigins } from '../../src/domain/guest-settings/rules.ts';
import { defaultGuestSettings } from '../../src/domain/guest-settings/settings.ts';

describe('guest settings: merge', () => {
  test('objects merge per field at every depth; arrays, scalars and null replace; inputs unchanged', () => {
    const base = { a: { b: 1, c: [1, 2], d: { e: 'x' } }, f: null as null | { g: number } };
    const patch = { a: { c: [3], d: null }, f: { g: 2 } };
    const frozenBase = structuredClone(base);
    const frozenPatch = structuredClone(patch);
    assert.deepEqual(mergePatch(base, patch), { a: { b: 1, c: [3], d: null }, f: { g: 2 } });
    assert.deepEqual(base, frozenBase);
    assert.deepEqual(patch, frozenPatch);
    assert.deepEqual(mergePatch(base, {}), base);
  });

  test('the effective settings are the defaults under what was stored; a new default reaches untouched fields', () => {
    assert.deepEqual(effectiveSettings(undefined), defaultGuestSettings());
    const s = effectiveSettings({ notifications: { sms: true }, guestCancel: { allowed: false } });
    assert.equal(s.notifications.sms, true);
    assert.deepEqual(s.notifications.reminders, [{ minutesBefore: 1440 }]);
    assert.deepEqual(s.guestCancel, { allowed: false, noticeMinutes: 1440 });
    // the defaults are a fresh object each time: a caller changing one cannot change the next
    s.notifications.reminders.push({ minutesBefore: 5 });
    assert.deepEqual(defaultGuestSettings().notifications.reminders, [{ minutesBefore: 1440 }]);
  });
});

describe('guest settings: origins', () => {
  test('one spelling: host in lower case, IDN as punycode, :443 dropped, other ports kept', () => {
    assert.equal(normaliseOrigin('https://Shop.EXAMPLE', 'p'), 'https://shop.example');
    assert.equal(normaliseOrigin('https://bücher.example', 'p'), 'https://xn--bcher-kva.example');
    assert.equal(normaliseOrigin('https://a.example:443', 'p'), 'https://a.example');
    assert.equal(normaliseOrigin('https://a.example:8443', 'p'), 'https://a.example:8443');
  });

  test('anything but https://host[:port] is refused, and so is a repeat after normalising', () => {
    for (const bad of [
      'http://a.example',
      'https://a.example/',
      'https://a.example/x',
      'https://a.example?x',
      'https://u@a.example',
      'a.example',
      'https://',
    ]) {
      assert.throws(() => normaliseOrigin(bad, 'body.x'), /request\.validation_failed|origin/, bad);
    }
    assert.throws(
      () => normaliseOrigins(['https://a.example', 'https://b.example', 'https://A.example:443']),
      (err: any) => err.details.issues[0].path === 'body.bookingPage.embedOrigins.2',
    );
  });
});
