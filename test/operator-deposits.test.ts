import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { bookingHarness, createBooking, createOk, day, expectError, SECRET_EMAIL, SECRET_PHONE } from './helpers/bookings.ts';
import { dbTargets } from './helpers/databases.ts';
import { createService, createSalon, createStaff, type SalonFixture } from './helpers/fixtures.ts';
import { admin, adminOk, call, type Harness } from './helpers/harness.ts';

const TERMS = { termsVersion: 'v1', acceptedAt: '2031-06-01T11:50:00.000Z' };
const INSTRUCTIONS = 'Transfer to <b>HU12 3456</b> & write "deposit" in the note.\n<script>alert(1)</script>';

for (const target of dbTargets()) {
  describe(`deposits: operator reads, recording and the payment page [${target.name}]`, () => {
    let h: Harness;
    let salon: SalonFixture;
    let depositService: any;
    let staffId: string;
    before(async () => {
      h = await bookingHarness(target);
      salon = await createSalon(h.app);
      depositService = await createService(h.app, salon.business.slug, salon.location.slug, {
        name: 'Balayage',
        deposit: { required: true, termsVersion: 'v1', amount: { amount: 2000, currency: 'HUF' } },
      });
      staffId = (await createStaff(h.app, salon.business.slug, salon.location.slug, { name: 'Cili', serviceIds: [depositService.id] })).id;
      const { location } = await adminOk(h.app, 'PATCH', `/businesses/${salon.business.slug}/locations/${salon.location.slug}`, {
        paymentInstructions: INSTRUCTIONS,
      });
      assert.equal(location.paymentInstructions, INSTRUCTIONS);
    });
    after(() => h.close());

    /** A confirmed deposit booking on day(2) at `startTime` (Budapest, UTC+2); returns it and its payment link's path. */
    async function depositBooking(startTime: string): Promise<{ booking: any; path: string }> {
      const r = await createBooking(h, salon, { service: depositService, staffId, startTime, depositTermsAcceptance: TERMS });
      assert.equal(r.status, 201, r.raw);
      const url = new URL(r.body.data.nextAction.depositPaymentUrl);
      return { booking: r.body.data.booking, path: url.pathname };
    }

    const page = (path: string) => call(h.app, { method: 'GET', url: path });

    function assertHtmlPage(r: { status: number; headers: any; raw: string }, status: number): void {
      assert.equal(r.status, status, r.raw);
      assert.match(String(r.headers['content-type']), /^text\/html; charset=utf-8/);
      const csp = String(r.headers['content-security-policy']);
      assert.match(csp, /default-src 'none'/);
      assert.match(csp, /style-src 'unsafe-inline'/);
      assert.doesNotMatch(csp, /script-src/);
      assert.equal(r.headers['referrer-policy'], 'no-referrer');
      assert.equal(r.headers['cache-control'], 'no-store');
      assert.ok(!r.raw.includes('<script'), 'no script, escaped or not, as a tag');
      assert.ok(r.raw.startsWith('<!doctype html>'));
    }

    test('the locations list shows the payment instructions; PATCH null clears them', async () => {
      const other = await createSalon(h.app);
      const path = `/businesses/${other.business.slug}/locations/${other.location.slug}`;
      assert.equal(
        (await adminOk(h.app, 'PATCH', path, { paymentInstructions: 'Cash at the desk' })).location.paymentInstructions,
        'Cash at the desk',
      );
      const { locations } = await adminOk(h.app, 'GET', `/businesses/${other.business.slug}/locations`);
      assert.equal(locations[0].paymentInstructions, 'Cash at the desk');
      assert.equal((await adminOk(h.app, 'PATCH', path, { paymentInstructions: null })).location.paymentInstructions, null);
      expectError(await admin(h.app, 'PATCH', path, { paymentInstructions: 'x'.repeat(2001) }), 400, 'request.validation_failed');
    });

    test('operator reads show the deposit of a deposit booking (pending, amount, currency, dueAt) and none on others', async () => {
      const { booking } = await depositBooking('09:00');
      const expected = { status: 'pending', amount: 2000, currency: 'HUF', dueAt: `${day(2)}T07:00:00.000Z`, recordedAt: null };
      const one = (await adminOk(h.app, 'GET', `/bookings/${booking.bookingId}`)).booking;
      assert.deepEqual(one.deposit, expected);
      const listed = (await adminOk(h.app, 'GET', `/businesses/${salon.business.slug}/bookings`)).bookings;
      assert.deepEqual(listed.find((b: any) => b.bookingId === booking.bookingId).deposit, expected);
      const { agenda } = await adminOk(
        h.app,
        'GET',
        `/businesses/${salon.business.slug}/agenda?locationSlug=${salon.location.slug}&date=${day(2)}`,
      );
      const inAgenda = agenda.staff.flatMap((s: any) => s.bookings).find((b: any) => b.bookingId === booking.bookingId);
      assert.deepEqual(inAgenda.deposit, expected);

      const plain = await createOk(h, salon, { startTime: '09:00' });
      assert.ok(!('deposit' in (await adminOk(h.app, 'GET', `/bookings/${plain.bookingId}`)).booking));
      // the public API never shows it
      const pub = await call(h.app, {
        method: 'GET',
        url: `/v1/bookings/${booking.bookingId}`,
        headers: { authorization: `Bearer ${salon.key.secret}` },
      });
      assert.equal(pub.status, 200, pub.raw);
      assert.ok(!('deposit' in pub.body.data.booking));
    });

    test('paid is recorded once: the same status again changes nothing, waived after it is 409; a booking without deposit is 409', async () => {
      const { booking } = await depositBooking('10:00');
      h.clock.now = new Date('2031-06-01T13:00:00.000Z');
      const paid = (await adminOk(h.app, 'POST', `/bookings/${booking.bookingId}/deposit`, { status: 'paid' })).booking;
      assert.deepEqual(paid.deposit, {
        status: 'paid',
        amount: 2000,
        currency: 'HUF',
        dueAt: `${day(2)}T08:00:00.000Z`,
        recordedAt: '2031-06-01T13:00:00.000Z',
      });
      assert.equal(paid.status, 'confirmed');
      assert.equal(paid.stateVersion, booking.stateVersion, 'no state change, no event');
      h.clock.now = new Date('2031-06-01T14:00:00.000Z');
      const again = (await adminOk(h.app, 'POST', `/bookings/${booking.bookingId}/deposit`, { status: 'paid' })).booking;
      assert.deepEqual(again, paid);
      const waived = await admin(h.app, 'POST', `/bookings/${booking.bookingId}/deposit`, { status: 'waived' });
      expectError(waived, 409, 'booking.invalid_transition');
      assert.match(waived.body.error.message, /already recorded as paid/);
      assert.deepEqual(waived.body.error.details, { depositStatus: 'paid' });

      const plain = await createOk(h, salon, { startTime: '10:00' });
      const none = await admin(h.app, 'POST', `/bookings/${plain.bookingId}/deposit`, { status: 'paid' });
      expectError(none, 409, 'booking.invalid_transition');
      assert.match(none.body.error.message, /takes no deposit/);
      expectError(
        await admin(h.app, 'POST', `/bookings/${booking.bookingId}/deposit`, { status: 'pending' }),
        400,
        'request.validation_failed',
      );
      expectError(await admin(h.app, 'POST', '/bookings/bkg_nope/deposit', { status: 'paid' }), 404, 'booking.not_found');
    });

    test('the payment page: amount, due time, escaped instructions and state; nothing about the guest', async () => {
      const { booking, path } = await depositBooking('11:00');
      const r = await page(path);
      assertHtmlPage(r, 200);
      const html = r.raw;
      assert.ok(html.includes('2,000'), html);
      assert.ok(html.includes('3 June 2031') && html.includes('11:00') && html.includes('Europe/Budapest'), html);
      assert.ok(html.includes('Transfer to &lt;b&gt;HU12 3456&lt;/b&gt; &amp; write &quot;deposit&quot; in the note.'), html);
      assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
      assert.ok(html.includes('Confirmed') && html.includes('Not received yet'), html);
      for (const secret of ['Kiss', SECRET_PHONE, SECRET_EMAIL, booking.publicReference, 'Balayage', 'Cili', booking.bookingId]) {
        assert.ok(!html.includes(secret), `the page shows ${secret}`);
      }
      // HEAD answers the same headers without a body
      const head = await h.app.inject({ method: 'HEAD', url: path });
      assert.equal(head.statusCode, 200);

      await adminOk(h.app, 'POST', `/bookings/${booking.bookingId}/deposit`, { status: 'waived' });
      const waived = await page(path);
      assertHtmlPage(waived, 200);
      assert.ok(waived.raw.includes('Waived by the salon'));
      assert.ok(!waived.raw.includes('HU12'), 'no payment instructions once nothing is owed');
    });

    test('a cancelled booking with a pending deposit: the page says so and shows no instructions', async () => {
      const { booking, path } = await depositBooking('12:00');
      await adminOk(h.app, 'POST', `/bookings/${booking.bookingId}/cancel`, { reason: 'closed that day' });
      const r = await page(path);
      assertHtmlPage(r, 200);
      assert.ok(r.raw.includes('Cancelled') && r.raw.includes('no longer open'), r.raw);
      assert.ok(!r.raw.includes('HU12') && !r.raw.includes('closed that day'));
    });

    test('a tampered, foreign or unsigned link is an HTML 404 page', async () => {
      const { path } = await depositBooking('13:00');
      const { booking: other } = await depositBooking('14:00');
      const [, , , bookingId, token] = path.split('/');
      const flipped = token!.slice(0, -1) + (token!.endsWith('A') ? 'B' : 'A');
      const plain = await createOk(h, salon, { startTime: '13:00' });
      for (const bad of [
        `/pay/deposit/${bookingId}/${flipped}`,
        `/pay/deposit/${other.bookingId}/${token}`,
        `/pay/deposit/${bookingId}/${token!.split('.')[0]}`,
        `/pay/deposit/${plain.bookingId}/${token}`,
        `/pay/deposit/bkg_nope/${token}`,
        `/pay/deposit/${bookingId}/${token}/extra`,
        `/pay/deposit/${bookingId}/${'x'.repeat(300)}`,
        `/pay/deposit/${bookingId}`,
      ]) {
        const r = await page(bad);
        assertHtmlPage(r, 404);
        assert.ok(r.raw.includes('Page not found'), bad);
        assert.ok(!r.raw.includes('HU12'));
      }
    });
  });
}
