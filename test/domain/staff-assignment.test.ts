/** Who gets an "any staff" booking (salon-scheduling.md): the try order of the free staff members. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { compareDisplayOrder, staffInTryOrder, type AssignableStaff } from '../../src/domain/bookings/staff-assignment.ts';

const staff = (id: string, name: string, position: number | null): AssignableStaff => ({ id, name, position });
const ids = (list: AssignableStaff[]) => list.map((s) => s.id);

const ANNA = staff('stf_3', 'Anna', null);
const BELA = staff('stf_1', 'Béla', 2);
const CILI = staff('stf_2', 'Cili', 1);
const DORA = staff('stf_4', 'Dóra', null);

test('ordered: position first (unset ones last), then name, then id', () => {
  assert.deepEqual(ids(staffInTryOrder([DORA, ANNA, BELA, CILI], 'ordered')), ['stf_2', 'stf_1', 'stf_3', 'stf_4']);
  const twins = [staff('stf_b', 'Eszter', null), staff('stf_a', 'Eszter', null)];
  assert.deepEqual(ids(staffInTryOrder(twins, 'ordered')), ['stf_a', 'stf_b']);
});

test('balanced: fewest booked minutes that day first, ties in display order; none booked is zero', () => {
  const booked = new Map([
    ['stf_2', 90],
    ['stf_1', 30],
  ]);
  assert.deepEqual(ids(staffInTryOrder([DORA, ANNA, BELA, CILI], 'balanced', booked)), ['stf_3', 'stf_4', 'stf_1', 'stf_2']);
  assert.deepEqual(ids(staffInTryOrder([DORA, ANNA, BELA, CILI], 'balanced')), ids(staffInTryOrder([DORA, ANNA, BELA, CILI], 'ordered')));
});

test('the try order is a total order: the same whatever order the candidates come in', () => {
  const arb = fc.uniqueArray(
    fc.record({
      id: fc.string({ minLength: 1, maxLength: 4 }),
      name: fc.constantFrom('Anna', 'Béla', 'Cili'),
      position: fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }),
    }),
    { selector: (s) => s.id, maxLength: 8 },
  );
  fc.assert(
    fc.property(arb, fc.func(fc.integer({ min: 0, max: 3 })), (list, minutesOf) => {
      const booked = new Map(list.map((s) => [s.id, minutesOf(s.id) * 30]));
      for (const policy of ['ordered', 'balanced'] as const) {
        const once = ids(staffInTryOrder(list, policy, booked));
        assert.deepEqual(ids(staffInTryOrder([...list].reverse(), policy, booked)), once);
      }
      const sorted = [...list].sort(compareDisplayOrder);
      for (let i = 1; i < sorted.length; i++) assert.ok(compareDisplayOrder(sorted[i - 1]!, sorted[i]!) <= 0);
    }),
  );
});
