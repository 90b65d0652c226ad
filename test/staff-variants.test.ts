/**
 * Stylist variants (salon-scheduling.md "Stylist variants") through the API on every database: a
 * service read shows each staff member's duration and price; a search gives each staff member
 * their own length; a booking (named staff, any staff, manual), a hold and a move take the chosen
 * staff member's variant, and the booking keeps the variant's price; pricingVersion moves with the
 * variants; bad variants are envelope errors beside their field.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dbTargets } from './helpers/databases.ts';
import { admin, adminOk, type Harness } from './helpers/harness.ts';
import { api, createSalon, createService, type SalonFixture, type ServiceFixture } from './helpers/fixtures.ts';
import { bookingHarness, createBooking, createOk, day, expectError, operatorAction, sql } from './helpers/bookings.ts';

const COLOUR_SEGMENTS = [
  { kind: 'work', minutes: 15 },
  { kind: 'processing', minutes: 30 },
  { kind: 'work', minutes: 15 },
];

for (const target of dbTargets()) {
  describe(`stylist variants [${target.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await bookingHarness(target);
    });
    after(() => h.close());

    /** Anna (senior) cuts in 45 minutes for 8,000; Bence in the service's 30 for 5,000. */
    async function variantSalon(): Promise<{ salon: SalonFixture; cut: ServiceFixture; anna: string; bence: string }> {
      const salon = await createSalon(h.app);
      const [anna, bence] = [salon.staff[0]!.id, salon.staff[1]!.id];
      const cut = await createService(h.app, salon.business.slug, salon.location.slug, {
        name: 'Senior cut',
        staffVariants: [{ staffId: anna, durationMinutes: 45, price: { amount: 8000, currency: 'HUF' } }],
      });
      for (const id of [anna, bence]) {
        await adminOk(h.app, 'PATCH', `/staff/${id}`, { serviceIds: [salon.service.id, salon.manualService.id, cut.id] });
      }
      return { salon, cut, anna, bence };
    }

    async function slots(salon: SalonFixture, serviceId: string, staffId?: string): Promise<any[]> {
      const r = await api(h.app, salon.key.secret, 'POST', '/availability/search', {
        salonSlug: salon.business.slug,
        locationSlug: salon.location.slug,
        serviceId,
        ...(staffId ? { staffId } : {}),
        dateRange: { from: day(2), to: day(2) },
      });
      assert.equal(r.status, 200, r.raw);
      return r.body.data.slots;
    }

    async function operatorBooking(bookingId: string): Promise<any> {
      return (await adminOk(h.app, 'GET', `/bookings/${bookingId}`)).booking;
    }

    test('operator and public reads show the variants; pricingVersion covers them', async () => {
      const { salon, cut, anna } = await variantSalon();
      const variant = { staffId: anna, durationMinutes: 45, price: { amount: 8000, currency: 'HUF' } };
      assert.deepEqual(cut.staffVariants, [variant]);
      assert.deepEqual((await adminOk(h.app, 'GET', `/services/${cut.id}`)).service.staffVariants, [variant]);
      const pub = await api(
        h.app,
        salon.key.secret,
        'GET',
        `/services?salonSlug=${salon.business.slug}&locationSlug=${salon.location.slug}`,
      );
      assert.equal(pub.status, 200, pub.raw);
      const byId = new Map(pub.body.data.services.map((s: any) => [s.id, s]));
      assert.deepEqual((byId.get(cut.id) as any).staffVariants, [variant]);
      assert.deepEqual((byId.get(salon.service.id) as any).staffVariants, []);
      // the same service without the variant has another version
      assert.notEqual(cut.pricingVersion, salon.service.pricingVersion);
    });

    test('a search gives each staff member their own length; explain agrees', async () => {
      const { salon, cut, anna, bence } = await variantSalon();
      const all = await slots(salon, cut.id);
      const at10 = all.filter((s) => s.startTime === '10:00');
      assert.deepEqual(
        at10.map((s) => [s.staffId, s.endTime]).sort(),
        [
          [anna, '10:45'],
          [bence, '10:30'],
        ].sort(),
      );
      // Anna's 45 minutes do not fit before 17:00 from 16:30; Bence's 30 do
      const late = all.filter((s) => s.startTime === '16:30').map((s) => s.staffId);
      assert.deepEqual(late, [bence]);
      const explained = await api(h.app, salon.key.secret, 'POST', '/availability/explain', {
        salonSlug: salon.business.slug,
        locationSlug: salon.location.slug,
        serviceId: cut.id,
        date: day(2),
        startTime: '16:30',
      });
      assert.equal(explained.status, 200, explained.raw);
      const byStaff = new Map(explained.body.data.explanation.staff.map((s: any) => [s.staffId, s]));
      assert.deepEqual((byStaff.get(anna) as any).reasons, ['outside_working_hours']);
      assert.equal((byStaff.get(bence) as any).bookable, true);
    });

    test("a booking takes the staff member's length and keeps the variant's price; any staff gets the candidate's own", async () => {
      const { salon, cut, anna, bence } = await variantSalon();
      const withAnna = await createOk(h, salon, { service: cut, staffId: anna, startTime: '10:00' });
      assert.equal(withAnna.confirmedSlot.endTime, '10:45');
      assert.deepEqual((await operatorBooking(withAnna.bookingId)).price, { amount: 8000, currency: 'HUF' });
      const withBence = await createOk(h, salon, { service: cut, staffId: bence, startTime: '10:00' });
      assert.equal(withBence.confirmedSlot.endTime, '10:30');
      assert.deepEqual((await operatorBooking(withBence.bookingId)).price, { amount: 5000, currency: 'HUF' });
      // Anna is busy until 10:45: 10:30 is hers no longer, Bence's is
      const at1030 = (await slots(salon, cut.id)).filter((s) => s.startTime === '10:30').map((s) => s.staffId);
      assert.deepEqual(at1030, [bence]);
      // any staff at 12:00: Anna first (display order), with her 45 minutes and her price
      const any = await createOk(h, salon, { service: cut, staffId: undefined, startTime: '12:00' });
      assert.equal(any.staffId, anna);
      assert.equal(any.confirmedSlot.endTime, '12:45');
      assert.deepEqual((await operatorBooking(any.bookingId)).price, { amount: 8000, currency: 'HUF' });
      // any staff at 16:30: only Bence's 30 minutes fit
      const late = await createOk(h, salon, { service: cut, staffId: undefined, startTime: '16:30' });
      assert.equal(late.staffId, bence);
      assert.equal(late.confirmedSlot.endTime, '17:00');
      // what the database holds: Anna's booking occupies 10:00-10:45
      const [row] = await sql(h, 'SELECT upper(occupied) - lower(occupied) AS len FROM bookings WHERE id = $1', [withAnna.bookingId]);
      assert.match(String(row.len?.minutes ?? row.len), /45/);
    });

    test("a hold takes the staff member's length; a move to another staff member takes theirs; a manual booking too", async () => {
      const { salon, cut, anna, bence } = await variantSalon();
      const held = await api(h.app, salon.key.secret, 'POST', '/holds', {
        salonSlug: salon.business.slug,
        locationSlug: salon.location.slug,
        serviceId: cut.id,
        staffId: anna,
        slot: { date: day(2), startTime: '09:00' },
      });
      assert.equal(held.status, 201, held.raw);
      assert.equal(held.body.data.hold.slot.endTime, '09:45');
      // Bence's booking moved to Anna lasts her 45 minutes (its price stays as booked)
      const b = await createOk(h, salon, { service: cut, staffId: bence, startTime: '11:00' });
      const moved = await operatorAction(h, b.bookingId, 'reschedule', { date: day(2), startTime: '14:00', staffId: anna });
      assert.equal(moved.status, 200, moved.raw);
      const after = await operatorBooking(b.bookingId);
      assert.equal(after.staffId, anna);
      assert.equal(after.confirmedSlot.endTime, '14:45');
      assert.deepEqual(after.price, { amount: 5000, currency: 'HUF' });
      const manual = await admin(h.app, 'POST', `/businesses/${salon.business.slug}/bookings`, {
        locationSlug: salon.location.slug,
        serviceId: cut.id,
        staffId: anna,
        date: day(3),
        startTime: '10:00',
        guest: { name: 'Walk In', phone: '+36 30 111 2222' },
      });
      assert.equal(manual.status, 200, manual.raw);
      assert.equal(manual.body.data.booking.confirmedSlot.endTime, '10:45');
      assert.deepEqual(manual.body.data.booking.price, { amount: 8000, currency: 'HUF' });
    });

    /** The business version cached answers are kept under (migration 011): a changed variant must move it. */
    async function businessVersion(businessId: string): Promise<number> {
      const [row] = await sql(h, 'SELECT version FROM business_versions WHERE business_id = $1', [businessId]);
      return Number(row.version);
    }

    test('a changed variant moves pricingVersion: a booking made against the old one is 409', async () => {
      const { salon, cut, anna } = await variantSalon();
      const versionBefore = await businessVersion(salon.business.id);
      // a search first, so a cached answer exists to be dropped
      assert.equal((await slots(salon, cut.id, anna)).find((s) => s.startTime === '09:00').endTime, '09:45');
      const changed = (
        await adminOk(h.app, 'PATCH', `/services/${cut.id}`, {
          staffVariants: [{ staffId: anna, durationMinutes: 45, price: { amount: 9000, currency: 'HUF' } }],
        })
      ).service;
      assert.notEqual(changed.pricingVersion, cut.pricingVersion);
      assert.ok((await businessVersion(salon.business.id)) > versionBefore, 'the business version moved: cached answers are not served');
      expectError(await createBooking(h, salon, { service: cut, staffId: anna }), 409, 'booking.service_pricing_changed');
      const booked = await createOk(h, salon, { service: changed, staffId: anna });
      assert.deepEqual((await operatorBooking(booked.bookingId)).price, { amount: 9000, currency: 'HUF' });
      // an unrelated edit leaves the version; removing the variants moves it again
      const renamed = (await adminOk(h.app, 'PATCH', `/services/${cut.id}`, { name: 'Cut (senior)' })).service;
      assert.equal(renamed.pricingVersion, changed.pricingVersion);
      assert.deepEqual(renamed.staffVariants, changed.staffVariants);
      const cleared = (await adminOk(h.app, 'PATCH', `/services/${cut.id}`, { staffVariants: [] })).service;
      assert.deepEqual(cleared.staffVariants, []);
      assert.notEqual(cleared.pricingVersion, changed.pricingVersion);
      const at10 = (await slots(salon, cut.id, anna)).find((s) => s.startTime === '09:00');
      assert.equal(at10.endTime, '09:30');
    });

    test('variant segments: processing per staff member; a duration change without segments is refused', async () => {
      const { salon, anna, bence } = await variantSalon();
      const colour = await createService(h.app, salon.business.slug, salon.location.slug, {
        name: 'Colour',
        durationMinutes: 60,
        segments: COLOUR_SEGMENTS,
        staffVariants: [
          {
            staffId: anna,
            durationMinutes: 55,
            segments: [
              { kind: 'work', minutes: 15 },
              { kind: 'processing', minutes: 30 },
              { kind: 'work', minutes: 10 },
            ],
          },
        ],
      });
      for (const id of [anna, bence]) await adminOk(h.app, 'PATCH', `/staff/${id}`, { serviceIds: [salon.service.id, colour.id] });
      const b = await createOk(h, salon, { service: colour, staffId: anna, startTime: '10:00' });
      assert.equal(b.confirmedSlot.endTime, '10:55');
      // Anna is free 10:15-10:45 (her own processing): a 30-minute cut fits there, not at 10:30
      const cutTimes = (await slots(salon, salon.service.id, anna)).map((s) => s.startTime);
      assert.ok(cutTimes.includes('10:15') && !cutTimes.includes('10:30'), cutTimes.join(','));
      await createOk(h, salon, { staffId: anna, startTime: '10:15' });
      // Bence works the service's 60 minutes with its own processing (10:15-10:45)
      const bence10 = (await slots(salon, colour.id, bence)).find((s) => s.startTime === '10:00');
      assert.equal(bence10.endTime, '11:00');
      // 50 minutes without segments on a service with processing: where would it fall?
      const bad = await admin(h.app, 'PATCH', `/services/${colour.id}`, { staffVariants: [{ staffId: bence, durationMinutes: 50 }] });
      expectError(bad, 400, 'request.validation_failed');
      assert.equal(bad.body.error.details.issues[0].path, 'body.staffVariants.0.segments', bad.raw);
      // changing the service's duration that Anna's variant's segments no longer... still fit: they are hers
      const longer = await admin(h.app, 'PATCH', `/services/${colour.id}`, {
        durationMinutes: 75,
        segments: [
          { kind: 'work', minutes: 15 },
          { kind: 'processing', minutes: 45 },
          { kind: 'work', minutes: 15 },
        ],
      });
      assert.equal(longer.status, 200, longer.raw);
      // a variant with only a price on a service with processing keeps the service's segments
      const priced = await admin(h.app, 'PATCH', `/services/${colour.id}`, {
        staffVariants: [{ staffId: bence, price: { amount: 20000, currency: 'HUF' } }],
      });
      assert.equal(priced.status, 200, priced.raw);
    });

    test('bad variants are envelope errors with catalog codes, never 500', async () => {
      const { salon, cut, anna } = await variantSalon();
      const other = await createSalon(h.app);
      const create = (staffVariants: unknown, extra: Record<string, unknown> = {}) =>
        admin(h.app, 'POST', `/businesses/${salon.business.slug}/services`, {
          locationSlug: salon.location.slug,
          name: 'Bad',
          durationMinutes: 30,
          priceType: 'fixed',
          price: { amount: 5000, currency: 'HUF' },
          requestAcceptancePolicy: 'automatic',
          staffVariants,
          ...extra,
        });
      const unknown = await create([{ staffId: 'stf_nobody', durationMinutes: 40 }]);
      expectError(unknown, 404, 'catalog.staff_not_found');
      assert.deepEqual(unknown.body.error.details.staffIds, ['stf_nobody']);
      // another business's staff member is not found either
      expectError(await create([{ staffId: other.staff[0]!.id }]), 404, 'catalog.staff_not_found');
      const twice = await create([{ staffId: anna }, { staffId: anna, durationMinutes: 40 }]);
      expectError(twice, 400, 'request.validation_failed');
      assert.equal(twice.body.error.details.issues[0].path, 'body.staffVariants.1.staffId');
      expectError(await create([{ staffId: anna, durationMinutes: 0 }]), 400, 'request.validation_failed');
      expectError(await create([{ staffId: anna, extra: 1 }]), 400, 'request.validation_failed');
      const sum = await create([{ staffId: anna, durationMinutes: 40, segments: COLOUR_SEGMENTS }]);
      expectError(sum, 400, 'request.validation_failed');
      assert.equal(sum.body.error.details.issues[0].path, 'body.staffVariants.0.segments');
      const currency = await create([{ staffId: anna, price: { amount: 10, currency: 'EUR' } }]);
      expectError(currency, 400, 'request.validation_failed');
      assert.equal(currency.body.error.details.issues[0].path, 'body.staffVariants.0.price.currency');
      const negotiable = await create([{ staffId: anna, price: { amount: 10, currency: 'HUF' } }], {
        priceType: 'negotiable',
        price: null,
      });
      expectError(negotiable, 400, 'request.validation_failed');
      // a PATCH to negotiable of a service whose variant has a price is refused beside priceType
      const toNegotiable = await admin(h.app, 'PATCH', `/services/${cut.id}`, { priceType: 'negotiable', price: null });
      expectError(toNegotiable, 400, 'request.validation_failed');
      assert.equal(toNegotiable.body.error.details.issues[0].path, 'body.priceType');
      expectError(await admin(h.app, 'PATCH', `/services/${cut.id}`, { staffVariants: 'x' }), 400, 'request.validation_failed');
      // nothing was changed by the refusals
      assert.deepEqual((await adminOk(h.app, 'GET', `/services/${cut.id}`)).service.staffVariants, cut.staffVariants);
    });
  });
}
