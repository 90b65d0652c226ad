/**
 * The booking page's visit rules without I/O (src/domain/booking-page/visit.ts): which services may
 * be parts, how `more` is read and mended, what `Add another service` offers, the visit's total.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addableServices, joinsVisit, moreParam, visitMinutes, visitOfQuery, visitPrice } from '../../src/domain/booking-page/visit.ts';
import type { ServiceRecord } from '../../src/domain/catalog-records.ts';

function service(id: string, o: Partial<ServiceRecord> = {}): ServiceRecord {
  return {
    id,
    bookingMode: 'appointment',
    depositRequired: false,
    onSite: false,
    durationMinutes: 30,
    bufferBeforeMinutes: 0,
    bufferAfterMinutes: 0,
    priceType: 'fixed',
    priceMinor: 1000,
    currency: 'HUF',
    ...o,
  } as ServiceRecord;
}

const cut = service('cut');
const colour = service('colour', { durationMinutes: 60, bufferAfterMinutes: 10, priceType: 'from', priceMinor: 5000 });
const wash = service('wash', { durationMinutes: 15, bufferBeforeMinutes: 5 });
const dry = service('dry');
const group = service('group', { bookingMode: 'groupSession' });
const deposit = service('deposit', { depositRequired: true });
const onSite = service('onsite', { onSite: true });
const all = [cut, colour, wash, dry, group, deposit, onSite];

test('group sessions, deposit and on-site services are never parts of a page visit', () => {
  assert.deepEqual(
    all.filter(joinsVisit).map((s) => s.id),
    ['cut', 'colour', 'wash', 'dry'],
  );
  assert.deepEqual(
    addableServices([cut], all).map((s) => s.id),
    ['colour', 'wash', 'dry'],
  );
  assert.deepEqual(addableServices([deposit], all), [], 'a deposit service takes nothing after it');
});

test('more is read in order, and anything the page cannot offer is refused whole', () => {
  assert.deepEqual(
    visitOfQuery(cut, 'colour,wash', all)?.map((s) => s.id),
    ['cut', 'colour', 'wash'],
  );
  assert.deepEqual(
    visitOfQuery(cut, undefined, all)?.map((s) => s.id),
    ['cut'],
  );
  for (const bad of ['cut', 'colour,colour', 'nope', 'group', 'deposit', 'onsite', 'colour,wash,dry,cut', 'colour,wash,dry,x']) {
    assert.equal(visitOfQuery(cut, bad, all), undefined, bad);
  }
  assert.equal(visitOfQuery(group, 'cut', all), undefined, 'a group session starts no visit');
  assert.deepEqual(
    visitOfQuery(cut, 'colour,wash,dry', all)?.map((s) => s.id),
    ['cut', 'colour', 'wash', 'dry'],
    'four in all',
  );
  assert.deepEqual(addableServices([cut, colour, wash, dry], all), [], 'no fifth');
  assert.equal(moreParam([]), undefined);
  assert.equal(moreParam(['a', 'b']), 'a,b');
});

test("the total counts the buffers between the parts, and the price says 'from' or nothing as a part does", () => {
  // 30 + (0 + 0) + 60 + (10 + 5) + 15
  assert.equal(visitMinutes([cut, colour, wash]), 120);
  assert.deepEqual(visitPrice([cut, wash]), { priceType: 'fixed', priceMinor: 2000, currency: 'HUF' });
  assert.deepEqual(visitPrice([cut, colour]), { priceType: 'from', priceMinor: 6000, currency: 'HUF' });
  assert.equal(visitPrice([cut, service('ask', { priceType: 'negotiable', priceMinor: null })]).priceMinor, null);
});
