/**
 * A deposit always has an amount (guest-side.md): the service's deposit amount, else its full
 * price. A deposit service with neither is refused when saved (create and PATCH), and a booking of
 * a service that names no amount owes the full price (public API, automatic and manual acceptance;
 * the payment link's provider is asked for that sum too). The business's own bookings take no deposit.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { bookingHarness, createBooking, day } from './helpers/bookings.ts';
import { dbTargets } from './helpers/databases.ts';
import { createSalon, createService, createStaff, type SalonFixture } from './helpers/fixtures.ts';
import { admin, adminOk, type Harness } from './helpers/harness.ts';

const TERMS = { termsVersion: 'v1', acceptedAt: '2031-06-01T11:50:00.000Z' };
const DEPOSIT = { required: true, termsVersion: 'v1' };

function refused(r: { status: number; body: any; raw: string }, path: string): void {
  assert.equal(r.status, 400, r.raw);
  assert.equal(r.body.error.code, 'request.validation_failed');
  assert.deepEqual(
    r.body.error.details.issues.map((i: { path: string }) => i.path),
    [path],
  );
}

for (const target of dbTargets()) {
  describe(`a deposit always has an amount [${target.name}]`, () => {
    let h: Harness;
    let salon: SalonFixture;
    const asked: Array<number | null> = [];
    before(async () => {
      h = await bookingHarness(target, {
        deposits: {
          async createPaymentLink(input) {
            asked.push(input.amountMinor);
            return `https://pay.example/${input.bookingId}`;
          },
        },
      });
      salon = await createSalon(h.app);
    });
    after(() => h.close());

    const newService = (body: Record<string, unknown>) =>
      admin(h.app, 'POST', `/businesses/${salon.business.slug}/services`, {
        locationSlug: salon.location.slug,
        name: 'Balayage',
        durationMinutes: 30,
        priceType: 'fixed',
        price: { amount: 8000, currency: 'HUF' },
        requestAcceptancePolicy: 'automatic',
        ...body,
      });

    test('saving a deposit service with neither an amount nor a usable price is refused', async () => {
      refused(await newService({ priceType: 'negotiable', price: null, deposit: DEPOSIT }), 'body.deposit.amount');
      refused(await newService({ price: { amount: 0, currency: 'HUF' }, deposit: DEPOSIT }), 'body.deposit.amount');
      refused(await newService({ priceType: 'from', price: { amount: 0, currency: 'HUF' }, deposit: DEPOSIT }), 'body.deposit.amount');
      // With either it is saved; the service shows only the amount it names.
      const byPrice = (await newService({ deposit: DEPOSIT })).body.data.service;
      assert.deepEqual(byPrice.deposit, DEPOSIT);
      const named = await newService({
        priceType: 'negotiable',
        price: null,
        deposit: { ...DEPOSIT, amount: { amount: 3000, currency: 'HUF' } },
      });
      assert.equal(named.status, 200, named.raw);
      const fromPrice = await newService({ priceType: 'from', price: { amount: 6000, currency: 'HUF' }, deposit: DEPOSIT });
      assert.equal(fromPrice.status, 200, fromPrice.raw);

      // PATCH: whatever would leave the deposit without a sum, naming the field that did it.
      const id = byPrice.id;
      refused(await admin(h.app, 'PATCH', `/services/${id}`, { price: { amount: 0, currency: 'HUF' } }), 'body.price');
      refused(await admin(h.app, 'PATCH', `/services/${id}`, { priceType: 'negotiable', price: null }), 'body.price');
      const namedId = named.body.data.service.id;
      refused(await admin(h.app, 'PATCH', `/services/${namedId}`, { deposit: DEPOSIT }), 'body.deposit.amount');
      const plain = (await newService({ priceType: 'negotiable', price: null })).body.data.service;
      refused(await admin(h.app, 'PATCH', `/services/${plain.id}`, { deposit: DEPOSIT }), 'body.deposit.amount');
      // Nothing of the refused patches was written.
      const after = await adminOk(h.app, 'GET', `/services/${id}`);
      assert.deepEqual([after.service.priceType, after.service.price.amount], ['fixed', 8000]);
      // Allowed: an amount first, then the price may go; dropping the deposit lets a price of 0 in.
      await adminOk(h.app, 'PATCH', `/services/${id}`, { deposit: { ...DEPOSIT, amount: { amount: 2500, currency: 'HUF' } } });
      await adminOk(h.app, 'PATCH', `/services/${id}`, { priceType: 'negotiable', price: null });
      await adminOk(h.app, 'PATCH', `/services/${plain.id}`, { name: 'Consultation' });
      await adminOk(h.app, 'PATCH', `/services/${fromPrice.body.data.service.id}`, { deposit: { required: false } });
      await adminOk(h.app, 'PATCH', `/services/${fromPrice.body.data.service.id}`, { price: { amount: 0, currency: 'HUF' } });
    });

    test('a booking of a service with no deposit amount owes its full price; one that names it owes that', async () => {
      const auto = await createService(h.app, salon.business.slug, salon.location.slug, {
        name: 'Balayage (auto)',
        price: { amount: 8000, currency: 'HUF' },
        deposit: DEPOSIT,
      });
      const manual = await createService(h.app, salon.business.slug, salon.location.slug, {
        name: 'Balayage (manual)',
        priceType: 'from',
        price: { amount: 6500, currency: 'HUF' },
        requestAcceptancePolicy: 'manual',
        deposit: DEPOSIT,
      });
      const named = await createService(h.app, salon.business.slug, salon.location.slug, {
        name: 'Balayage (named)',
        price: { amount: 8000, currency: 'HUF' },
        deposit: { ...DEPOSIT, amount: { amount: 1500, currency: 'HUF' } },
      });
      const staff = await createStaff(h.app, salon.business.slug, salon.location.slug, {
        name: 'Cili',
        serviceIds: [auto.id, manual.id, named.id],
      });
      const book = async (service: any, startTime: string) => {
        const r = await createBooking(h, salon, { service, staffId: staff.id, startTime, depositTermsAcceptance: TERMS });
        assert.equal(r.status, 201, r.raw);
        return adminOk(h.app, 'GET', `/bookings/${r.body.data.booking.bookingId}`);
      };
      asked.length = 0;
      const a = await book(auto, '10:00');
      assert.equal(a.booking.status, 'confirmed');
      assert.deepEqual([a.booking.deposit.status, a.booking.deposit.amount, a.booking.deposit.currency], ['pending', 8000, 'HUF']);
      assert.deepEqual(asked, [8000], 'the payment link is made for the full price (HUF minor units: forints)');
      const m = await book(manual, '12:00');
      assert.equal(m.booking.status, 'requested');
      assert.equal(m.booking.deposit.amount, 6500);
      const n = await book(named, '14:00');
      assert.equal(n.booking.deposit.amount, 1500);
      const list = await adminOk(h.app, 'GET', `/businesses/${salon.business.slug}/bookings`);
      const listed = list.bookings.find((b: any) => b.bookingId === a.booking.bookingId);
      assert.equal(listed.deposit.amount, 8000);
      // The amount is the one of the booking's time: a later price change does not move it.
      await adminOk(h.app, 'PATCH', `/services/${auto.id}`, { price: { amount: 9000, currency: 'HUF' } });
      assert.equal((await adminOk(h.app, 'GET', `/bookings/${a.booking.bookingId}`)).booking.deposit.amount, 8000);

      // The business's own booking of a deposit service takes none (decisions.md "Deposits").
      const own = await adminOk(h.app, 'POST', `/businesses/${salon.business.slug}/bookings`, {
        locationSlug: salon.location.slug,
        serviceId: auto.id,
        staffId: staff.id,
        date: day(2),
        startTime: '16:00',
        guest: { name: 'Walk-in', phone: '+36301112233' },
      });
      assert.equal(own.booking.deposit, undefined);
    });
  });
}
