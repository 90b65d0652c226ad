/** The stylist-variant resolver and its checks (src/domain/scheduling/staff-variants.ts), pure. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pricingVersion } from '../../src/domain/money.ts';
import {
  forStaff,
  longestDurationMinutes,
  shapeOverride,
  staffVariantsProblem,
  variantsKey,
} from '../../src/domain/scheduling/staff-variants.ts';

const COLOUR = [
  { kind: 'work' as const, minutes: 15 },
  { kind: 'processing' as const, minutes: 30 },
  { kind: 'work' as const, minutes: 15 },
];
const service = { durationMinutes: 60, priceMinor: 10000, segments: COLOUR, staffVariants: [] as any[] };

test("forStaff: the variant's fields, else the service's; no variant is the service itself", () => {
  const s = {
    ...service,
    staffVariants: [
      { staffId: 'anna', priceMinor: 12000 },
      { staffId: 'bea', durationMinutes: 45, segments: [{ kind: 'work' as const, minutes: 45 }] },
    ],
  };
  assert.equal(forStaff(s, 'zoe'), s);
  assert.equal(forStaff(s, null), s);
  const anna = forStaff(s, 'anna');
  assert.deepEqual([anna.durationMinutes, anna.priceMinor, anna.segments], [60, 12000, COLOUR], 'same length: the processing stays');
  const bea = forStaff(s, 'bea');
  assert.deepEqual([bea.durationMinutes, bea.priceMinor, bea.segments], [45, 10000, [{ kind: 'work', minutes: 45 }]]);
  assert.equal(shapeOverride(s, 'anna'), undefined, 'a price-only variant leaves the engine alone');
  assert.deepEqual(shapeOverride(s, 'bea'), { durationMinutes: 45, segments: [{ kind: 'work', minutes: 45 }] });
  assert.equal(longestDurationMinutes(s), 60);
  assert.equal(longestDurationMinutes({ ...s, staffVariants: [{ staffId: 'c', durationMinutes: 90 }] }), 90);
});

test('staffVariantsProblem names the variant and the field', () => {
  assert.equal(staffVariantsProblem([{ staffId: 'a', priceMinor: 1 }], service), null);
  assert.deepEqual(staffVariantsProblem([{ staffId: 'a' }, { staffId: 'a' }], service)?.index, 1);
  assert.equal(staffVariantsProblem([{ staffId: 'a', durationMinutes: 0 }], service)?.field, 'durationMinutes');
  // a longer colour without its own segments: where the processing falls is not guessed
  assert.equal(staffVariantsProblem([{ staffId: 'a', durationMinutes: 75 }], service)?.field, 'segments');
  assert.equal(staffVariantsProblem([{ staffId: 'a', durationMinutes: 75 }], { ...service, segments: null }), null);
  assert.equal(staffVariantsProblem([{ staffId: 'a', segments: COLOUR.slice(0, 2) }], service)?.field, 'segments');
});

test('pricingVersion: unchanged without variants, moved by any change of one, blind to their order', () => {
  assert.equal(pricingVersion('fixed', 5000, 30, variantsKey([])), pricingVersion('fixed', 5000, 30));
  const a = [
    { staffId: 'a', priceMinor: 1 },
    { staffId: 'b', durationMinutes: 40 },
  ];
  const v = pricingVersion('fixed', 5000, 30, variantsKey(a));
  assert.notEqual(v, pricingVersion('fixed', 5000, 30));
  assert.equal(v, pricingVersion('fixed', 5000, 30, variantsKey([...a].reverse())));
  assert.notEqual(v, pricingVersion('fixed', 5000, 30, variantsKey([{ staffId: 'a', priceMinor: 2 }, a[1]!])));
});
