import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DepositUnavailableError } from '../src/domain/deposits/provider.ts';
import { dbTargets } from './helpers/databases.ts';
import { admin, adminOk, type Harness } from './helpers/harness.ts';
import { api, createKey, createSalon, createService, createStaff, type SalonFixture } from './helpers/fixtures.ts';
import {
  bookingCount,
  bookingEvents,
  bookingHarness,
  cancel,
  CONSENT,
  createBody,
  createBooking,
  createOk,
  day,
  expectError,
  getBooking,
  sql,
} from './helpers/bookings.ts';

const REFERENCE = /^BK-[34679ACDEFGHJKMNPQRTUVWXY]{8}$/;

/** A service of the salon with a staff member of its own who performs it. */
async function serviceWithStaff(h: Harness, salon: SalonFixture, fields: Record<string, unknown>) {
  const service = await createService(h.app, salon.business.slug, salon.location.slug, fields);
  const staff = await createStaff(h.app, salon.business.slug, salon.location.slug, { name: 'Cili', serviceIds: [service.id] });
  return { service, staff };
}

for (const target of dbTargets()) {
  describe(`POST /bookings [${target.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await bookingHarness(target);
    });
    after(() => h.close());

    test('manual policy: 201 requested, stateVersion 1, one booking.requested event', async () => {
      const salon = await createSalon(h.app);
      const r = await createBooking(h, salon, { service: salon.manualService, date: day(2), startTime: '11:00' });
      assert.equal(r.status, 201, r.raw);
      assert.equal(r.body.ok, true);
      assert.equal(r.body.meta.idempotent, undefined);
      const b = r.body.data.booking;
      assert.equal(b.status, 'requested');
      assert.equal(b.stateVersion, 1);
      assert.equal(b.acceptanceMode, 'manual');
      assert.match(b.publicReference, REFERENCE);
      assert.equal(b.serviceId, salon.manualService.id);
      assert.equal(b.serviceName, 'Colouring');
      assert.equal(b.staffId, salon.staff[0]!.id);
      assert.equal(b.staffName, 'Anna');
      assert.equal(b.guestName, 'Kiss Éva');
      assert.equal(b.locationId, salon.location.id);
      assert.deepEqual(b.locationSnapshot, {
        id: salon.location.id,
        locationSlug: salon.location.slug,
        publicLocationName: b.locationSnapshot.publicLocationName,
        address: { city: 'Budapest', street: 'Váci utca 1.', zip: '1052' },
        timezone: 'Europe/Budapest',
      });
      assert.deepEqual(b.requestedSlot, { date: day(2), startTime: '11:00', timezone: 'Europe/Budapest' });
      assert.equal(b.confirmedSlot, null);
      assert.equal(b.note, null);
      assert.equal('serviceLocation' in b, false);
      assert.equal(b.createdAt, new Date(h.clock.now).toISOString());
      assert.equal(r.body.data.nextAction, undefined);

      const events = await bookingEvents(h, salon, b.bookingId);
      assert.equal(events.length, 1);
      assert.equal(events[0].event, 'booking.requested');
      assert.equal(events[0].transition.sequence, 1);
      assert.equal(events[0].transition.id, null);
      assert.equal(events[0].transition.from, null);
      assert.equal(events[0].transition.to, 'requested');
      assert.equal(events[0].salonSlug, salon.business.slug);
      assert.deepEqual(events[0].booking, b);
    });

    test('automatic policy: confirmed in the same call, stateVersion 2, events requested(1) then confirmed(2)', async () => {
      const salon = await createSalon(h.app);
      const b = await createOk(h, salon, { date: day(2), startTime: '10:00', note: 'Rövid hajat kérek' });
      assert.equal(b.status, 'confirmed');
      assert.equal(b.stateVersion, 2);
      assert.equal(b.acceptanceMode, 'automatic');
      assert.match(b.publicReference, REFERENCE);
      assert.equal(b.note, 'Rövid hajat kérek');
      assert.deepEqual(b.confirmedSlot, { date: day(2), startTime: '10:00', endTime: '10:30', timezone: 'Europe/Budapest' });
      assert.deepEqual(b.requestedSlot, { date: day(2), startTime: '10:00', timezone: 'Europe/Budapest' });

      const events = await bookingEvents(h, salon, b.bookingId);
      assert.deepEqual(
        events.map((e) => [e.event, e.transition.sequence, e.transition.from, e.transition.to, e.booking.status, e.booking.stateVersion]),
        [
          ['booking.requested', 1, null, 'requested', 'requested', 1],
          ['booking.confirmed', 2, 'requested', 'confirmed', 'confirmed', 2],
        ],
      );
      // each payload describes its own moment: no confirmedSlot and manual mode in the request event
      assert.equal(events[0].booking.confirmedSlot, null);
      assert.equal(events[0].booking.acceptanceMode, 'manual');
      assert.equal(events[1].booking.acceptanceMode, 'automatic');
      assert.deepEqual(events[1].booking, b);

      const got = await getBooking(h, salon, b.bookingId);
      assert.deepEqual(got.body.data.booking, b);
    });

    test('guest: phone normalised to E.164 (+36 default), email lowercased or dropped when invalid', async () => {
      const salon = await createSalon(h.app);
      const a = await createOk(h, salon, {
        startTime: '09:00',
        guest: { name: '  Nagy Péter  ', phone: '06301234567', email: ' Peter.Nagy@Example.COM ' },
      });
      const b = await createOk(h, salon, {
        startTime: '09:30',
        guest: { name: 'Tóth Anna', phone: '+44 20 7946 0958', email: 'not-an-email' },
      });
      const c = await createOk(h, salon, { startTime: '10:00', guest: { name: 'Szabó Ili', phone: '30 123 4567' } });
      assert.equal(a.guestName, 'Nagy Péter');
      const rows = await sql(h, 'SELECT id, guest_phone, guest_email FROM bookings WHERE id = ANY($1::text[])', [
        [a.bookingId, b.bookingId, c.bookingId],
      ]);
      const byId = new Map(rows.map((r) => [r.id, r]));
      assert.deepEqual(byId.get(a.bookingId), { id: a.bookingId, guest_phone: '+36301234567', guest_email: 'peter.nagy@example.com' });
      assert.deepEqual(byId.get(b.bookingId), { id: b.bookingId, guest_phone: '+442079460958', guest_email: null });
      assert.deepEqual(byId.get(c.bookingId), { id: c.bookingId, guest_phone: '+36301234567', guest_email: null });
    });

    test('guest: name length counts characters (an emoji is one); an over-long email is dropped, not refused', async () => {
      const salon = await createSalon(h.app);
      const emoji = await createOk(h, salon, { startTime: '09:00', guest: { name: '😀'.repeat(100), phone: '+36301234567' } });
      assert.equal(emoji.guestName, '😀'.repeat(100));
      expectError(
        await createBooking(h, salon, { startTime: '09:30', guest: { name: '😀'.repeat(101), phone: '+36301234567' } }),
        400,
        'request.validation_failed',
      );
      const long = await createOk(h, salon, {
        startTime: '10:00',
        guest: { name: 'Long Mail', phone: '+36301234567', email: `${'a'.repeat(330)}@example.com` },
      });
      const [row] = await sql(h, 'SELECT guest_email FROM bookings WHERE id = $1', [long.bookingId]);
      assert.equal(row!.guest_email, null);
    });

    test('guest, consent and note rules give 400 request.validation_failed', async () => {
      const salon = await createSalon(h.app);
      const cases: Array<[string, Record<string, unknown>]> = [
        ['phone abc', { guest: { name: 'X', phone: 'abc' } }],
        ['phone too short', { guest: { name: 'X', phone: '12' } }],
        ['phone missing', { guest: { name: 'X' } }],
        ['name 101 chars', { guest: { name: 'n'.repeat(101), phone: '+36301234567' } }],
        ['name empty', { guest: { name: '', phone: '+36301234567' } }],
        ['name blank', { guest: { name: '   ', phone: '+36301234567' } }],
        ['consent missing', { consent: undefined }],
        ['policyConsentGiven false', { consent: { ...CONSENT, policyConsentGiven: false } }],
        ['consent field missing', { consent: { ...CONSENT, locale: undefined } }],
        ['note 1001 chars', { note: 'n'.repeat(1001) }],
        ['slot missing', { slot: undefined }],
        ['slot time malformed', { slot: { date: day(2), startTime: '9:00' } }],
        ['slot date not real', { slot: { date: '2031-02-30', startTime: '10:00' } }],
        ['unknown field', { extra: 1 }],
        ['sessionId on a standard service', { sessionId: 'ses_x', slotToken: 't' }],
      ];
      for (const [name, opts] of cases) {
        const body = createBody(salon, {});
        for (const [k, v] of Object.entries(opts)) {
          if (v === undefined) delete body[k];
          else body[k] = v;
        }
        if (name === 'consent field missing') delete body.consent.locale;
        const r = await api(h.app, salon.key.secret, 'POST', '/bookings', body);
        expectError(r, 400, 'request.validation_failed');
        assert.ok(Array.isArray(r.body.error.details?.issues), `${name}: ${r.raw}`);
      }
      // the boundaries themselves are fine
      const ok = await createOk(h, salon, { note: 'n'.repeat(1000), guest: { name: 'n'.repeat(100), phone: '+36301234567' } });
      assert.equal(ok.note.length, 1000);
      assert.equal(ok.guestName.length, 100);
      assert.equal(await bookingCount(h, salon.business.id), 1);
    });

    test('serviceLocation: required for on-site services, refused for in-shop ones', async () => {
      const salon = await createSalon(h.app);
      const { service, staff } = await serviceWithStaff(h, salon, { name: 'Home visit', onSite: true });
      const base = { service, staffId: staff.id };
      expectError(await createBooking(h, salon, base), 400, 'request.validation_failed');
      expectError(await createBooking(h, salon, { ...base, serviceLocation: { address: '   ' } }), 400, 'request.validation_failed');
      expectError(
        await createBooking(h, salon, { ...base, serviceLocation: { address: 'a'.repeat(301) } }),
        400,
        'request.validation_failed',
      );
      const a = await createOk(h, salon, { ...base, startTime: '10:00', serviceLocation: { address: 'Budapest, Fő utca 2.' } });
      assert.deepEqual(a.serviceLocation, { address: 'Budapest, Fő utca 2.' });
      const b = await createOk(h, salon, { ...base, startTime: '11:00', serviceLocation: { address: 'Budapest, Fő utca 3.', note: '' } });
      assert.deepEqual(b.serviceLocation, { address: 'Budapest, Fő utca 3.' });
      const c = await createOk(h, salon, {
        ...base,
        startTime: '12:00',
        serviceLocation: { address: 'Fő utca 4.', note: 'kapucsengő 12' },
      });
      assert.deepEqual(c.serviceLocation, { address: 'Fő utca 4.', note: 'kapucsengő 12' });
      // in-shop service
      expectError(await createBooking(h, salon, { serviceLocation: { address: 'Fő utca 2.' } }), 400, 'request.validation_failed');
    });

    test('expectedPricingVersion mismatch → 409 booking.service_pricing_changed, nothing created', async () => {
      const salon = await createSalon(h.app);
      expectError(await createBooking(h, salon, { expectedPricingVersion: '000000000000' }), 409, 'booking.service_pricing_changed');
      const patched = await adminOk(h.app, 'PATCH', `/services/${salon.service.id}`, { price: { amount: 6000, currency: 'HUF' } });
      assert.notEqual(patched.service.pricingVersion, salon.service.pricingVersion);
      expectError(await createBooking(h, salon), 409, 'booking.service_pricing_changed');
      assert.equal(await bookingCount(h, salon.business.id), 0);
      // the new version books; leaving it out is allowed too
      await createOk(h, salon, { startTime: '10:00', expectedPricingVersion: patched.service.pricingVersion });
      await createOk(h, salon, { startTime: '11:00', expectedPricingVersion: undefined });
    });

    test('deposit service: terms required/changed (422), email required (400), payment link only in the live response', async () => {
      const salon = await createSalon(h.app);
      const { service, staff } = await serviceWithStaff(h, salon, {
        name: 'Balayage',
        deposit: { required: true, termsVersion: 'v1', amount: { amount: 2000, currency: 'HUF' } },
      });
      const base = { service, staffId: staff.id };
      const terms = { termsVersion: 'v1', acceptedAt: '2031-06-01T11:50:00.000Z' };
      expectError(await createBooking(h, salon, base), 422, 'booking.deposit_terms_required');
      expectError(
        await createBooking(h, salon, { ...base, depositTermsAcceptance: { ...terms, termsVersion: 'v0' } }),
        422,
        'booking.deposit_terms_changed',
      );
      expectError(
        await createBooking(h, salon, { ...base, depositTermsAcceptance: terms, guest: { name: 'X', phone: '+36301234567' } }),
        400,
        'request.validation_failed',
      );
      expectError(
        await createBooking(h, salon, {
          ...base,
          depositTermsAcceptance: terms,
          guest: { name: 'X', phone: '+36301234567', email: 'nope' },
        }),
        400,
        'request.validation_failed',
      );
      assert.equal(await bookingCount(h, salon.business.id), 0);

      const key = { 'idempotency-key': '3f1e7a52-8c4d-4b7e-9a61-0d2c5b8e9f10' };
      const live = await api(
        h.app,
        salon.key.secret,
        'POST',
        '/bookings',
        createBody(salon, { ...base, depositTermsAcceptance: terms }),
        key,
      );
      assert.equal(live.status, 201, live.raw);
      const b = live.body.data.booking;
      assert.equal(b.status, 'confirmed');
      assert.equal(b.acceptanceMode, 'automatic');
      const url: string = live.body.data.nextAction?.depositPaymentUrl;
      assert.equal(typeof url, 'string', live.raw);
      assert.ok(new URL(url).pathname.includes(b.bookingId));

      const replay = await api(
        h.app,
        salon.key.secret,
        'POST',
        '/bookings',
        createBody(salon, { ...base, depositTermsAcceptance: terms }),
        key,
      );
      assert.equal(replay.status, 201);
      assert.equal(replay.body.meta.idempotent, true);
      assert.deepEqual(replay.body.data, { booking: b });
      assert.ok(!replay.raw.includes(url));

      const got = await getBooking(h, salon, b.bookingId);
      assert.deepEqual(got.body.data, { booking: b });
      assert.ok(!got.raw.includes('depositPaymentUrl'));
      const ev = await api(h.app, salon.key.secret, 'GET', `/bookings/${b.bookingId}/events`);
      assert.equal(ev.body.data.events.length, 2);
      assert.ok(!ev.raw.includes(url) && !ev.raw.includes('/pay/'), ev.raw);
      const stored = await sql(h, 'SELECT payload FROM booking_events WHERE booking_id = $1', [b.bookingId]);
      for (const row of stored) assert.ok(!row.payload.includes('/pay/'));

      // manual acceptance gives no link: the business decides first
      const { service: manualDeposit, staff: s2 } = await serviceWithStaff(h, salon, {
        name: 'Balayage (manual)',
        requestAcceptancePolicy: 'manual',
        deposit: { required: true, termsVersion: 'v1' },
      });
      const m = await createBooking(h, salon, { service: manualDeposit, staffId: s2.id, depositTermsAcceptance: terms });
      assert.equal(m.status, 201, m.raw);
      assert.equal(m.body.data.booking.status, 'requested');
      assert.equal(m.body.data.nextAction, undefined);
    });

    test('location with booking disabled → 409 booking.booking_disabled', async () => {
      const salon = await createSalon(h.app);
      await adminOk(h.app, 'PATCH', `/businesses/${salon.business.slug}/locations/${salon.location.slug}`, { bookingEnabled: false });
      expectError(await createBooking(h, salon), 409, 'booking.booking_disabled');
      expectError(await createBooking(h, salon, { service: salon.manualService }), 409, 'booking.booking_disabled');
      assert.equal(await bookingCount(h, salon.business.id), 0);
      // nor does the search offer what the create would refuse
      const search = await api(h.app, salon.key.secret, 'POST', '/availability/search', {
        salonSlug: salon.business.slug,
        locationSlug: salon.location.slug,
        serviceId: salon.service.id,
        dateRange: { from: day(2), to: day(2) },
      });
      expectError(search, 409, 'booking.booking_disabled');
    });

    test('scope: unknown location or another salon → 403 auth.scope_mismatch', async () => {
      const salon = await createSalon(h.app);
      const other = await createSalon(h.app);
      expectError(await createBooking(h, salon, { locationSlug: 'no-such-location' }), 403, 'auth.scope_mismatch');
      expectError(await createBooking(h, salon, { salonSlug: other.business.slug }), 403, 'auth.scope_mismatch');
      expectError(await createBooking(h, salon, { locationSlug: other.location.slug }), 403, 'auth.scope_mismatch');
    });

    test('unknown or foreign service → 404 catalog.service_not_found; staff not performing it → 404 catalog.staff_not_found', async () => {
      const salon = await createSalon(h.app);
      const other = await createSalon(h.app);
      expectError(
        await createBooking(h, salon, { serviceId: 'svc_doesnotexist00000000', expectedPricingVersion: undefined }),
        404,
        'catalog.service_not_found',
      );
      expectError(await createBooking(h, salon, { service: other.service }), 404, 'catalog.service_not_found');
      const offline = await createService(h.app, salon.business.slug, salon.location.slug, { name: 'Offline', onlineBookable: false });
      expectError(await createBooking(h, salon, { service: offline }), 404, 'catalog.service_not_found');

      const outsider = await createStaff(h.app, salon.business.slug, salon.location.slug, { name: 'Dóra', serviceIds: [] });
      expectError(await createBooking(h, salon, { staffId: outsider.id }), 404, 'catalog.staff_not_found');
      expectError(await createBooking(h, salon, { staffId: 'stf_doesnotexist00000000' }), 404, 'catalog.staff_not_found');
      expectError(await createBooking(h, salon, { staffId: other.staff[0]!.id }), 404, 'catalog.staff_not_found');
      assert.equal(await bookingCount(h, salon.business.id), 0);
    });

    test('staffId omitted: a free staff member who performs the service is picked', async () => {
      const salon = await createSalon(h.app);
      const ids = new Set(salon.staff.map((s) => s.id));
      const a = await createOk(h, salon, { staffId: undefined, startTime: '13:00' });
      const b = await createOk(h, salon, { staffId: undefined, startTime: '13:00' });
      assert.ok(ids.has(a.staffId) && ids.has(b.staffId));
      assert.notEqual(a.staffId, b.staffId);
      assert.equal(a.staffName, a.staffId === salon.staff[0]!.id ? 'Anna' : 'Bence');
      // both are busy now
      expectError(await createBooking(h, salon, { staffId: undefined, startTime: '13:00' }), 409, 'booking.slot_no_longer_available');
      expectError(await createBooking(h, salon, { staffId: undefined, startTime: '13:15' }), 409, 'booking.slot_no_longer_available');
      assert.equal(await bookingCount(h, salon.business.id), 2);
    });

    test('slot outside hours, before the notice, off the grid or taken → 409, nothing created', async () => {
      const salon = await createSalon(h.app);
      const manual = { service: salon.manualService };
      const bad: Array<{ date: string; startTime: string }> = [
        { date: day(2), startTime: '08:45' }, // before opening
        { date: day(2), startTime: '16:45' }, // ends after 17:00 (30 and 60 minutes)
        { date: day(2), startTime: '18:00' },
        { date: day(2), startTime: '10:05' }, // not on the 15-minute grid
        { date: day(0), startTime: '14:30' }, // now is 14:00 local: inside the 60-minute notice
        { date: day(0), startTime: '10:00' }, // in the past
        { date: day(120), startTime: '10:00' }, // beyond the 90-day horizon
      ];
      for (const slot of bad) {
        expectError(await createBooking(h, salon, { ...manual, ...slot }), 409, 'booking.slot_unavailable');
        expectError(await createBooking(h, salon, slot), 409, 'booking.slot_no_longer_available');
        expectError(await createBooking(h, salon, { ...slot, staffId: undefined }), 409, 'booking.slot_no_longer_available');
      }
      assert.equal(await bookingCount(h, salon.business.id), 0);
      // just after the notice is fine
      await createOk(h, salon, { date: day(0), startTime: '15:00' });

      // taken: the same staff member at an overlapping time
      const first = await createOk(h, salon, { date: day(3), startTime: '10:00' });
      assert.equal(first.status, 'confirmed');
      expectError(await createBooking(h, salon, { date: day(3), startTime: '10:00' }), 409, 'booking.slot_no_longer_available');
      expectError(await createBooking(h, salon, { date: day(3), startTime: '10:15' }), 409, 'booking.slot_no_longer_available');
      expectError(await createBooking(h, salon, { ...manual, date: day(3), startTime: '09:45' }), 409, 'booking.slot_unavailable');
      expectError(await createBooking(h, salon, { ...manual, date: day(3), startTime: '10:00' }), 409, 'booking.slot_unavailable');
      assert.equal(await bookingCount(h, salon.business.id), 2);
      // back to back is fine; the other staff member is free
      await createOk(h, salon, { date: day(3), startTime: '10:30' });
      await createOk(h, salon, { service: salon.manualService, date: day(3), startTime: '09:00' });
      await createOk(h, salon, { date: day(3), startTime: '10:00', staffId: salon.staff[1]!.id });
      // a cancelled booking frees its time
      const c = await cancel(h, salon, first.bookingId);
      assert.equal(c.status, 200, c.raw);
      await createOk(h, salon, { date: day(3), startTime: '10:00' });
    });

    test('buffers are held: a service buffer blocks the neighbouring slot', async () => {
      const salon = await createSalon(h.app);
      const { service, staff } = await serviceWithStaff(h, salon, { name: 'Perm', bufferAfterMinutes: 15, bufferBeforeMinutes: 15 });
      await createOk(h, salon, { service, staffId: staff.id, startTime: '10:00' });
      expectError(
        await createBooking(h, salon, { service, staffId: staff.id, startTime: '10:30' }),
        409,
        'booking.slot_no_longer_available',
      );
      expectError(
        await createBooking(h, salon, { service, staffId: staff.id, startTime: '09:30' }),
        409,
        'booking.slot_no_longer_available',
      );
      await createOk(h, salon, { service, staffId: staff.id, startTime: '11:00' });
      const [row] = await sql(
        h,
        "SELECT lower(occupied) AS f, upper(occupied) AS t FROM bookings WHERE business_id = $1 AND slot_start_time = '10:00'",
        [salon.business.id],
      );
      assert.equal(row.f.toISOString(), `${day(2)}T07:45:00.000Z`);
      assert.equal(row.t.toISOString(), `${day(2)}T08:45:00.000Z`);
    });

    test('time off blocks the slot; a booked slot leaves availability and comes back when cancelled', async () => {
      const salon = await createSalon(h.app);
      const [anna] = salon.staff as [any];
      await adminOk(h.app, 'POST', `/staff/${anna.id}/time-off`, {
        from: { date: day(2), time: '12:00' },
        to: { date: day(2), time: '13:00' },
      });
      expectError(await createBooking(h, salon, { startTime: '12:30' }), 409, 'booking.slot_no_longer_available');
      expectError(await createBooking(h, salon, { startTime: '11:45' }), 409, 'booking.slot_no_longer_available');
      await createOk(h, salon, { startTime: '13:00' });
      const offered = async () => {
        const r = await api(h.app, salon.key.secret, 'POST', '/availability/search', {
          salonSlug: salon.business.slug,
          locationSlug: salon.location.slug,
          serviceId: salon.service.id,
          staffId: anna.id,
          dateRange: { from: day(2), to: day(2) },
        });
        assert.equal(r.status, 200, r.raw);
        return new Set(r.body.data.slots.map((s: any) => s.startTime));
      };
      assert.ok((await offered()).has('10:00'));
      const b = await createOk(h, salon, { startTime: '10:00' });
      const after = await offered();
      for (const t of ['09:45', '10:00', '10:15']) assert.ok(!after.has(t), t);
      assert.ok(after.has('09:30') && after.has('10:30'));
      await cancel(h, salon, b.bookingId);
      assert.ok((await offered()).has('10:00'));
    });

    test('quota window: a new month starts the count again', async () => {
      const salon = await createSalon(h.app, { subscription: { plan: 'pro', status: 'active', maxBookingsPerMonth: 1 } });
      await createOk(h, salon, { startTime: '10:00' });
      expectError(await createBooking(h, salon, { startTime: '11:00' }), 403, 'subscription.quota_exceeded');
      // the counter was written in an earlier month
      await sql(
        h,
        "UPDATE booking_quota_counts SET window_start = (date_trunc('month', now() AT TIME ZONE 'UTC') - interval '1 month')::date WHERE business_id = $1",
        [salon.business.id],
      );
      const sub0 = await api(h.app, salon.key.secret, 'GET', '/subscription');
      assert.equal(sub0.body.data.subscription.bookingsThisMonth, 0);
      await createOk(h, salon, { startTime: '11:00' });
      const sub = await api(h.app, salon.key.secret, 'GET', '/subscription');
      assert.equal(sub.body.data.subscription.bookingsThisMonth, 1);
      expectError(await createBooking(h, salon, { startTime: '12:00' }), 403, 'subscription.quota_exceeded');
    });

    test('automatic deposit service without deposit collection on the plan: stays requested, no link', async () => {
      const salon = await createSalon(h.app);
      await adminOk(h.app, 'PATCH', `/businesses/${salon.business.slug}/subscription`, { features: { depositCollection: false } });
      const { service, staff } = await serviceWithStaff(h, salon, { name: 'Balayage', deposit: { required: true, termsVersion: 'v1' } });
      const r = await createBooking(h, salon, {
        service,
        staffId: staff.id,
        depositTermsAcceptance: { termsVersion: 'v1', acceptedAt: '2031-06-01T11:50:00.000Z' },
      });
      assert.equal(r.status, 201, r.raw);
      assert.equal(r.body.data.booking.status, 'requested');
      assert.equal(r.body.data.nextAction, undefined);
    });

    test('quota: maxBookingsPerMonth reached → 403 subscription.quota_exceeded; bookingsThisMonth counts', async () => {
      const salon = await createSalon(h.app, { subscription: { plan: 'pro', status: 'active', maxBookingsPerMonth: 2 } });
      const sub0 = await api(h.app, salon.key.secret, 'GET', '/subscription');
      assert.equal(sub0.body.data.subscription.bookingsThisMonth, 0);
      await createOk(h, salon, { startTime: '10:00' });
      // a refused create does not count
      expectError(await createBooking(h, salon, { startTime: '10:00' }), 409, 'booking.slot_no_longer_available');
      await createOk(h, salon, { service: salon.manualService, startTime: '12:00' });
      const r = await createBooking(h, salon, { startTime: '14:00' });
      expectError(r, 403, 'subscription.quota_exceeded');
      const sub = await api(h.app, salon.key.secret, 'GET', '/subscription');
      assert.equal(sub.body.data.subscription.bookingsThisMonth, 2);
      assert.equal(sub.body.data.subscription.maxBookingsPerMonth, 2);
      assert.equal(await bookingCount(h, salon.business.id), 2);
      // raising the limit lets the next one through
      await adminOk(h.app, 'PATCH', `/businesses/${salon.business.slug}/subscription`, { maxBookingsPerMonth: 3 });
      await createOk(h, salon, { startTime: '14:00' });
      const sub2 = await api(h.app, salon.key.secret, 'GET', '/subscription');
      assert.equal(sub2.body.data.subscription.bookingsThisMonth, 3);
    });

    test('group sessions: seats taken and given back, session_full, slot_token_invalid', async () => {
      const salon = await createSalon(h.app);
      const { service, staff } = await serviceWithStaff(h, salon, { name: 'Jóga', durationMinutes: 60, bookingMode: 'groupSession' });
      const session = async (startAtUtc: string, endAtUtc: string, capacityMax: number) =>
        (await adminOk(h.app, 'POST', `/services/${service.id}/sessions`, { staffId: staff.id, startAtUtc, endAtUtc, capacityMax }))
          .session;
      const s1 = await session(`${day(2)}T08:00:00.000Z`, `${day(2)}T09:00:00.000Z`, 2);
      const s2 = await session(`${day(2)}T10:00:00.000Z`, `${day(2)}T11:00:00.000Z`, 5);
      const search = async () => {
        const r = await api(h.app, salon.key.secret, 'POST', '/availability/search', {
          salonSlug: salon.business.slug,
          locationSlug: salon.location.slug,
          serviceId: service.id,
          dateRange: { from: day(2), to: day(2) },
        });
        assert.equal(r.status, 200, r.raw);
        return new Map<string, any>(r.body.data.slots.map((s: any) => [s.sessionId, s]));
      };
      const group = (sessionId: string, slotToken: string) => ({ service, staffId: undefined, slot: undefined, sessionId, slotToken });

      const slots = await search();
      const t1 = slots.get(s1.id).slotToken as string;
      const t2 = slots.get(s2.id).slotToken as string;
      assert.equal(slots.get(s1.id).remainingSeats, 2);

      // staffId/slot are not used for a group service; sessionId/slotToken are required
      expectError(await createBooking(h, salon, { service, sessionId: s1.id, slotToken: t1 }), 400, 'request.validation_failed');
      expectError(await createBooking(h, salon, { service, staffId: undefined, slot: undefined }), 400, 'request.validation_failed');

      const a = await createOk(h, salon, group(s1.id, t1));
      assert.equal(a.status, 'confirmed');
      assert.equal(a.sessionId, s1.id);
      assert.equal(a.staffId, staff.id);
      assert.deepEqual(a.confirmedSlot, { date: day(2), startTime: '10:00', endTime: '11:00', timezone: 'Europe/Budapest' });
      assert.equal((await search()).get(s1.id).remainingSeats, 1);

      // forged, for another session, or expired tokens
      expectError(await createBooking(h, salon, group(s1.id, `${t1.slice(0, -2)}xx`)), 409, 'booking.slot_token_invalid');
      expectError(await createBooking(h, salon, group(s1.id, 'not-a-token')), 409, 'booking.slot_token_invalid');
      expectError(await createBooking(h, salon, group(s1.id, t2)), 409, 'booking.slot_token_invalid');
      expectError(await createBooking(h, salon, group('ses_doesnotexist00000000', t1)), 409, 'booking.slot_token_invalid');

      const b = await createOk(h, salon, group(s1.id, t1)); // last seat
      expectError(await createBooking(h, salon, group(s1.id, t1)), 409, 'booking.session_full');
      assert.equal((await search()).has(s1.id), false);
      const [seats] = await sql(h, 'SELECT seats_taken FROM group_sessions WHERE id = $1', [s1.id]);
      assert.equal(seats.seats_taken, 2);

      // a cancellation gives the seat back
      const c = await cancel(h, salon, b.bookingId);
      assert.equal(c.status, 200, c.raw);
      assert.equal(c.body.data.booking.confirmedSlot, null);
      const again = await search();
      assert.equal(again.get(s1.id).remainingSeats, 1);
      await createOk(h, salon, group(s1.id, again.get(s1.id).slotToken));
      expectError(await createBooking(h, salon, group(s1.id, t1)), 409, 'booking.session_full');

      // tokens expire after 10 minutes
      h.clock.now = new Date(Date.parse(h.clock.now.toISOString()) + 11 * 60_000);
      try {
        expectError(await createBooking(h, salon, group(s2.id, t2)), 409, 'booking.slot_token_invalid');
      } finally {
        h.clock.now = new Date(Date.parse(h.clock.now.toISOString()) - 11 * 60_000);
      }
      await createOk(h, salon, group(s2.id, t2));
    });

    test('guest_partner key creates bookings; its key id is stored as api source and never shown', async () => {
      const salon = await createSalon(h.app);
      const partner = await createKey(h.app, salon.business.slug, {
        kind: 'guest_partner',
        capabilities: ['services.read', 'staff.read', 'availability.read', 'booking.create'],
      });
      const r = await api(h.app, partner.secret, 'POST', '/bookings', createBody(salon, { startTime: '10:00' }));
      assert.equal(r.status, 201, r.raw);
      const own = await createOk(h, salon, { startTime: '11:00' });
      const rows = await sql(h, 'SELECT id, api_source_key_id FROM bookings WHERE business_id = $1 ORDER BY slot_start_time', [
        salon.business.id,
      ]);
      assert.deepEqual(rows, [
        { id: r.body.data.booking.bookingId, api_source_key_id: partner.id },
        { id: own.bookingId, api_source_key_id: null },
      ]);
      assert.ok(!r.raw.includes(partner.id) && !r.raw.includes('apiSource'));
      const got = await getBooking(h, salon, r.body.data.booking.bookingId);
      const ev = await api(h.app, salon.key.secret, 'GET', `/bookings/${r.body.data.booking.bookingId}/events`);
      for (const raw of [got.raw, ev.raw]) assert.ok(!raw.includes(partner.id) && !raw.includes('apiSource'));
      // the partner may not read it back
      expectError(await api(h.app, partner.secret, 'GET', `/bookings/${r.body.data.booking.bookingId}`), 403, 'auth.kind_endpoint_denied');
    });

    test('consent and deposit terms are stored with the booking', async () => {
      const salon = await createSalon(h.app);
      const b = await createOk(h, salon);
      const [row] = await sql(h, 'SELECT consent, deposit_terms FROM bookings WHERE id = $1', [b.bookingId]);
      assert.deepEqual(row.consent, CONSENT);
      assert.equal(row.deposit_terms, null);
      assert.ok(!JSON.stringify(b).includes(CONSENT.privacyNoticeVersion));
    });
  });

  describe(`POST /bookings with a failing deposit provider [${target.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await bookingHarness(target, {
        deposits: {
          async createPaymentLink() {
            throw new DepositUnavailableError();
          },
        },
      });
    });
    after(() => h.close());

    test('automatic acceptance cannot be carried out: the booking stays requested for the business', async () => {
      const salon = await createSalon(h.app);
      const { service, staff } = await serviceWithStaff(h, salon, { name: 'Balayage', deposit: { required: true, termsVersion: 'v1' } });
      const r = await createBooking(h, salon, {
        service,
        staffId: staff.id,
        depositTermsAcceptance: { termsVersion: 'v1', acceptedAt: '2031-06-01T11:50:00.000Z' },
      });
      assert.equal(r.status, 201, r.raw);
      const b = r.body.data.booking;
      assert.equal(b.status, 'requested');
      assert.equal(b.stateVersion, 1);
      assert.equal(b.confirmedSlot, null);
      assert.equal(r.body.data.nextAction, undefined);
      const events = await bookingEvents(h, salon, b.bookingId);
      assert.deepEqual(
        events.map((e) => e.event),
        ['booking.requested'],
      );
      // it holds its time, and the business can accept it
      const again = await createBooking(h, salon, {
        service,
        staffId: staff.id,
        depositTermsAcceptance: { termsVersion: 'v1', acceptedAt: '2031-06-01T11:50:00.000Z' },
      });
      expectError(again, 409, 'booking.slot_no_longer_available');
      const accepted = await admin(h.app, 'POST', `/bookings/${b.bookingId}/accept`);
      assert.equal(accepted.status, 200, accepted.raw);
      assert.equal(accepted.body.data.booking.acceptanceMode, 'manual');
    });
  });
}
