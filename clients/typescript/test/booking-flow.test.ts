/**
 * The client against a really started server: the whole booking flow an integrator writes, the
 * idempotency keys it makes and keeps across retries, and the typed errors.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ServiceProcess } from '../../../test/helpers/api-process.ts';
import { BookingApiError, type BookingClient, createBookingClient } from '../src/index.ts';
import { createSalon, daysFromNow, type Salon, startServer } from './server.ts';

const consent = () => ({
  privacyNoticeVersion: '2026-01',
  termsVersion: '2026-01',
  locale: 'en',
  acceptedAt: new Date().toISOString(),
  policyConsentGiven: true,
});

describe('@booking-api/client against a started server (PGlite)', () => {
  let server: ServiceProcess;
  let salon: Salon;
  let client: BookingClient;

  before(async () => {
    server = await startServer('client-flow');
    salon = await createSalon(server);
    client = createBookingClient({ baseUrl: server.url!, apiKey: salon.apiKey });
  });
  after(() => server?.stop());

  /** The first free slot of the salon's service in the coming week, and the booking body for it. */
  async function bookingBody() {
    const where = { salonSlug: salon.salonSlug, locationSlug: salon.locationSlug };
    const { data: catalog } = await client.listServices(where);
    const service = catalog.services[0]!;
    const { data: found } = await client.searchAvailability({
      ...where,
      serviceId: service.id,
      dateRange: { from: daysFromNow(1), to: daysFromNow(7) },
    });
    const slot = found.slots[0];
    assert.ok(slot && 'startTime' in slot, 'a standard slot is free');
    // explain agrees: the offered time is bookable with its staff member
    const { data: why } = await client.explainAvailability({ ...where, serviceId: service.id, date: slot.date, startTime: slot.startTime });
    assert.equal(why.explanation.staff.find((s) => s.staffId === slot.staffId)?.bookable, true);
    return {
      ...where,
      serviceId: service.id,
      expectedPricingVersion: service.pricingVersion,
      staffId: slot.staffId,
      slot: { date: slot.date, startTime: slot.startTime },
      guest: { name: 'Kiss Éva', phone: '+36301234567' },
      consent: consent(),
    };
  }

  test('services → staff → availability → create (consent, Idempotency-Key) → read → cancel', async () => {
    const where = { salonSlug: salon.salonSlug, locationSlug: salon.locationSlug };
    const { data: staff } = await client.listStaff(where);
    assert.deepEqual(
      staff.staff.map((s) => s.name),
      ['Anna'],
    );

    const body = await bookingBody();
    const created = await client.createBooking(body);
    const booking = created.data.booking;
    assert.equal(booking.status, 'confirmed', 'the service accepts automatically');
    assert.equal(created.meta.idempotent, undefined, 'a first answer, not a replay');

    const read = await client.getBooking(booking.bookingId);
    assert.equal(read.data.booking.bookingId, booking.bookingId);
    assert.deepEqual(read.data.booking.confirmedSlot, booking.confirmedSlot);
    assert.equal(booking.requestedSlot.startTime, body.slot.startTime);

    const cancelled = await client.cancelBooking(booking.bookingId, { salonSlug: salon.salonSlug });
    assert.equal(cancelled.data.booking.status, 'cancelled');
    assert.equal((await client.getBooking(booking.bookingId)).data.booking.status, 'cancelled');
  });

  test('createHold → createBooking with holdId; releaseHold gives a held time back; an ended hold is a typed 409', async () => {
    const body = await bookingBody();
    const { expectedPricingVersion: _v, guest: _g, consent: _c, ...where } = body;
    const held = await client.createHold(where);
    assert.equal(held.data.hold.status, 'active');
    assert.ok(Date.parse(held.data.hold.expiresAt) > Date.now());
    const taken = await client.createHold(where).catch((err: unknown) => err);
    assert.ok(taken instanceof BookingApiError && taken.code === 'booking.slot_unavailable', String(taken));
    const released = await client.releaseHold(held.data.hold.holdId);
    assert.equal(released.data.hold.status, 'released');

    const again = await client.createHold(where);
    const booked = await client.createBooking({ ...body, holdId: again.data.hold.holdId });
    assert.equal(booked.data.booking.staffId, again.data.hold.staffId);
    const late = await client.createBooking({ ...body, holdId: again.data.hold.holdId }).catch((err: unknown) => err);
    assert.ok(late instanceof BookingApiError && late.code === 'booking.hold_expired' && late.status === 409, String(late));
    await client.cancelBooking(booked.data.booking.bookingId);
  });

  test('the same call with the same Idempotency-Key replays the first answer instead of booking twice', async () => {
    const body = await bookingBody();
    const key = crypto.randomUUID();
    const first = await client.createBooking(body, { idempotencyKey: key });
    const again = await client.createBooking(body, { idempotencyKey: key });
    assert.equal(again.meta.idempotent, true);
    assert.equal(again.data.booking.bookingId, first.data.booking.bookingId);
  });

  test('a write whose answer was lost is retried with the key it was sent with: the server replays it', async () => {
    const sent: string[] = [];
    let lose = true;
    // The real request reaches the server and books; only its answer goes missing on the way
    // back, as when a connection drops. That is the case the key made by the client is for.
    const losingFetch: typeof fetch = async (input, init) => {
      const req = new Request(input, init);
      if (req.method === 'POST') sent.push(req.headers.get('idempotency-key') ?? '(none)');
      const res = await fetch(req);
      if (req.method === 'POST' && lose) {
        lose = false;
        throw new TypeError('fetch failed');
      }
      return res;
    };
    const flaky = createBookingClient({ baseUrl: server.url!, apiKey: salon.apiKey, fetch: losingFetch, retry: { baseDelayMs: 10 } });
    const result = await flaky.createBooking(await bookingBody());
    assert.equal(sent.length, 2, 'sent once, retried once');
    assert.match(sent[0]!, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, 'a random UUID made by the client');
    assert.equal(sent[1], sent[0], 'the retry carries the same key');
    assert.equal(result.meta.idempotent, true, 'the second answer is the replay of the first booking');
    const { data: list } = await client.raw.GET('/v1/bookings', { params: { query: { salonSlug: salon.salonSlug } } }).then((r) => {
      assert.ok(r.data, JSON.stringify(r.error));
      return r.data;
    });
    assert.equal(list.bookings.filter((b) => b.bookingId === result.data.booking.bookingId).length, 1);
  });

  test('errors reject with a BookingApiError carrying the catalog code, status, details and request id', async () => {
    const body = await bookingBody();
    const first = await client.createBooking(body);
    // the same slot again, under a new key: taken, and the automatic acceptance's final check says so
    const taken = await client.createBooking({ ...body, consent: consent() }).then(
      () => assert.fail('booked a taken slot'),
      (e: unknown) => e,
    );
    assert.ok(taken instanceof BookingApiError);
    assert.equal(taken.code, 'booking.slot_no_longer_available');
    assert.equal(taken.status, 409);
    assert.equal(taken.retryable, false);
    assert.match(taken.requestId ?? '', /\S/);
    assert.match(taken.idempotencyKey ?? '', /^[0-9a-f-]{36}$/);

    const missing = await client.getBooking('bk_does_not_exist').catch((e: unknown) => e);
    assert.ok(missing instanceof BookingApiError);
    assert.equal(missing.code, 'booking.not_found');

    await client.cancelBooking(first.data.booking.bookingId);
    const twice = await client.cancelBooking(first.data.booking.bookingId).catch((e: unknown) => e);
    assert.ok(twice instanceof BookingApiError);
    assert.equal(twice.code, 'booking.invalid_transition');

    const tooWide = await client
      .searchAvailability({
        salonSlug: salon.salonSlug,
        locationSlug: salon.locationSlug,
        serviceId: body.serviceId,
        dateRange: { from: daysFromNow(1), to: daysFromNow(60) },
      })
      .catch((e: unknown) => e);
    assert.ok(tooWide instanceof BookingApiError);
    assert.equal(tooWide.code, 'availability.date_range_too_wide');
    assert.equal(tooWide.status, 400);

    const stranger = createBookingClient({ baseUrl: server.url!, apiKey: 'bka_not_a_key' });
    const denied = await stranger.listServices({ salonSlug: salon.salonSlug, locationSlug: salon.locationSlug }).catch((e: unknown) => e);
    assert.ok(denied instanceof BookingApiError);
    assert.deepEqual([denied.code, denied.status], ['auth.invalid_key', 401]);
  });
});
