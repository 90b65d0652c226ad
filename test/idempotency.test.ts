import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { purgeExpiredKeys } from '../src/store/idempotency.ts';
import { dbTargets } from './helpers/databases.ts';
import { adminOk, call, type Harness } from './helpers/harness.ts';
import { api, createSalon, createService, createStaff, type SalonFixture } from './helpers/fixtures.ts';
import { bookingCount, bookingHarness, cancel, createBody, createOk, expectError, sql } from './helpers/bookings.ts';

/** The parts of a response that a replay must repeat (requestId and the idempotent flag differ). */
function sameAnswer(live: { status: number; body: any }, replay: { status: number; body: any }): void {
  assert.equal(replay.status, live.status);
  assert.equal(replay.body.meta.idempotent, true);
  assert.equal(live.body.meta.idempotent, undefined);
  assert.equal(replay.body.meta.v, '1');
  const strip = (b: any) => ({ ...b, meta: { ...b.meta, requestId: undefined, idempotent: undefined } });
  assert.deepEqual(strip(replay.body), strip(live.body));
}

for (const target of dbTargets()) {
  describe(`Idempotency-Key on public writes [${target.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await bookingHarness(target);
    });
    after(() => h.close());

    const post = (salon: SalonFixture, body: unknown, key?: string) =>
      call(h.app, {
        method: 'POST',
        url: '/v1/bookings',
        headers: { authorization: `Bearer ${salon.key.secret}`, ...(key === undefined ? {} : { 'idempotency-key': key }) },
        payload: body as object,
      });

    test('missing key → 400 idempotency.key_required; not a v1-v5 UUID → 400 idempotency.key_invalid', async () => {
      const salon = await createSalon(h.app);
      const body = createBody(salon);
      expectError(await post(salon, body), 400, 'idempotency.key_required');
      expectError(await post(salon, body, ''), 400, 'idempotency.key_required');
      expectError(await post(salon, body, '   '), 400, 'idempotency.key_required');
      for (const bad of [
        'abc',
        '12345',
        '00000000-0000-0000-0000-000000000000', // nil
        '01890a5d-ac96-774b-bcce-b302099a8057', // v7
        '3f1e7a52-8c4d-6b7e-9a61-0d2c5b8e9f10', // v6
        '3f1e7a52-8c4d-4b7e-ca61-0d2c5b8e9f10', // wrong variant
        '3f1e7a528c4d4b7e9a610d2c5b8e9f10', // no dashes
        '{3f1e7a52-8c4d-4b7e-9a61-0d2c5b8e9f10}',
        '3f1e7a52-8c4d-4b7e-9a61-0d2c5b8e9f10x',
      ]) {
        expectError(await post(salon, body, bad), 400, 'idempotency.key_invalid');
      }
      // the header is checked before the body
      expectError(await post(salon, { nonsense: true }, 'abc'), 400, 'idempotency.key_invalid');
      expectError(await post(salon, { nonsense: true }), 400, 'idempotency.key_required');
      // cancel needs one too
      const b = await createOk(h, salon);
      const r = await call(h.app, {
        method: 'POST',
        url: `/v1/bookings/${b.bookingId}/cancel`,
        headers: { authorization: `Bearer ${salon.key.secret}` },
      });
      expectError(r, 400, 'idempotency.key_required');
      expectError(await cancel(h, salon, b.bookingId, { 'idempotency-key': 'nope' }), 400, 'idempotency.key_invalid');
      assert.equal(await bookingCount(h, salon.business.id), 1);
      // v1 and v5 keys, any case, are accepted
      assert.equal((await post(salon, createBody(salon, { startTime: '11:00' }), 'c232ab00-9414-11ec-b3c8-9e6bdeced846')).status, 201);
      assert.equal((await post(salon, createBody(salon, { startTime: '12:00' }), '2ED6657D-E927-568B-95E1-2665A8AEA6A2')).status, 201);
    });

    test('replay: same status and body with meta.idempotent true; one booking', async () => {
      const salon = await createSalon(h.app);
      const key = randomUUID();
      const live = await post(salon, createBody(salon), key);
      assert.equal(live.status, 201, live.raw);
      const replay = await post(salon, createBody(salon), key);
      sameAnswer(live, replay);
      assert.notEqual(replay.body.meta.requestId, live.body.meta.requestId);
      // the key is case-insensitive
      sameAnswer(live, await post(salon, createBody(salon), key.toUpperCase()));
      assert.equal(await bookingCount(h, salon.business.id), 1);
      // a replay does not count against the quota either
      const sub = await api(h.app, salon.key.secret, 'GET', '/subscription');
      assert.equal(sub.body.data.subscription.bookingsThisMonth, 1);
    });

    test('same key, other body → 409 idempotency.payload_mismatch; other operation too', async () => {
      const salon = await createSalon(h.app);
      const key = randomUUID();
      const live = await post(salon, createBody(salon, { startTime: '10:00' }), key);
      assert.equal(live.status, 201, live.raw);
      const r = await post(salon, createBody(salon, { startTime: '10:15' }), key);
      expectError(r, 409, 'idempotency.payload_mismatch');
      assert.equal(r.body.error.retryable, false);
      expectError(await post(salon, createBody(salon, { note: 'x' }), key), 409, 'idempotency.payload_mismatch');
      expectError(
        await cancel(h, salon, live.body.data.booking.bookingId, { 'idempotency-key': key }),
        409,
        'idempotency.payload_mismatch',
      );
      assert.equal(await bookingCount(h, salon.business.id), 1);
      // the same key in another business is another key
      const other = await createSalon(h.app);
      const o = await post(other, createBody(other, { startTime: '10:00' }), key);
      assert.equal(o.status, 201, o.raw);
      assert.equal(o.body.meta.idempotent, undefined);
    });

    test('canonical body: reordered keys and added null members replay instead of mismatching', async () => {
      const salon = await createSalon(h.app);
      const key = randomUUID();
      const body = createBody(salon);
      const live = await post(salon, body, key);
      assert.equal(live.status, 201, live.raw);
      const reordered = Object.fromEntries(Object.entries(body).reverse());
      reordered.guest = Object.fromEntries(Object.entries(body.guest).reverse());
      reordered.consent = Object.fromEntries(Object.entries(body.consent).reverse());
      sameAnswer(live, await post(salon, reordered, key));
      const withNulls = {
        ...reordered,
        note: null,
        serviceLocation: null,
        depositTermsAcceptance: null,
        guest: { ...reordered.guest, email: body.guest.email },
      };
      const r = await post(salon, withNulls, key);
      sameAnswer(live, r);
      assert.equal(await bookingCount(h, salon.business.id), 1);
      // a null optional member means "absent" on a fresh key as well
      const fresh = await post(
        salon,
        {
          ...createBody(salon, { startTime: '12:00' }),
          note: null,
          staffId: null,
          guest: { name: 'X', phone: '+36301234567', email: null },
        },
        randomUUID(),
      );
      assert.equal(fresh.status, 201, fresh.raw);
      assert.equal(fresh.body.data.booking.note, null);
    });

    test('non-retryable errors are stored and replayed; retryable ones release the key', async () => {
      const salon = await createSalon(h.app);
      const first = await createOk(h, salon, { startTime: '10:00' });
      const key = randomUUID();
      const clash = await post(salon, createBody(salon, { startTime: '10:00' }), key);
      expectError(clash, 409, 'booking.slot_no_longer_available');
      // even after the slot frees up, the same request gets the same answer
      assert.equal((await cancel(h, salon, first.bookingId)).status, 200);
      const again = await post(salon, createBody(salon, { startTime: '10:00' }), key);
      sameAnswer(clash, again);
      assert.equal(await bookingCount(h, salon.business.id), 1);

      // deposit collection switched off: 409 booking.deposit_unavailable is retryable, so the key is freed
      await adminOk(h.app, 'PATCH', `/businesses/${salon.business.slug}/subscription`, { features: { depositCollection: false } });
      const service = await createService(h.app, salon.business.slug, salon.location.slug, {
        name: 'Deposit',
        requestAcceptancePolicy: 'manual',
        deposit: { required: true, termsVersion: 'v1' },
      });
      const staff = await createStaff(h.app, salon.business.slug, salon.location.slug, { name: 'Cili', serviceIds: [service.id] });
      const body = createBody(salon, {
        service,
        staffId: staff.id,
        depositTermsAcceptance: { termsVersion: 'v1', acceptedAt: '2031-06-01T11:00:00.000Z' },
      });
      const dKey = randomUUID();
      const unavailable = await post(salon, body, dKey);
      expectError(unavailable, 409, 'booking.deposit_unavailable');
      assert.equal(unavailable.body.error.retryable, true);
      await adminOk(h.app, 'PATCH', `/businesses/${salon.business.slug}/subscription`, { features: { depositCollection: true } });
      const retried = await post(salon, body, dKey);
      assert.equal(retried.status, 201, retried.raw);
      assert.equal(retried.body.meta.idempotent, undefined);
      sameAnswer(retried, await post(salon, body, dKey));
    });

    test('a replay returns the original answer even when the salon has changed since', async () => {
      const salon = await createSalon(h.app);
      const key = randomUUID();
      const live = await post(salon, createBody(salon), key);
      assert.equal(live.status, 201, live.raw);
      await adminOk(h.app, 'PATCH', `/businesses/${salon.business.slug}/locations/${salon.location.slug}`, { bookingEnabled: false });
      await adminOk(h.app, 'PATCH', `/services/${salon.service.id}`, { active: false });
      sameAnswer(live, await post(salon, createBody(salon), key));
      // a new request sees the change
      const fresh = await post(salon, createBody(salon, { startTime: '12:00' }), randomUUID());
      assert.equal(fresh.status >= 400, true, fresh.raw);
    });

    test('cancel: replay of the same key is the original 200, a new key gets 409 invalid_transition', async () => {
      const salon = await createSalon(h.app);
      const b = await createOk(h, salon);
      const key = { 'idempotency-key': randomUUID() };
      const live = await cancel(h, salon, b.bookingId, key);
      assert.equal(live.status, 200, live.raw);
      sameAnswer(live, await cancel(h, salon, b.bookingId, key));
      // an empty JSON body is the same request as no body
      const withBody = await call(h.app, {
        method: 'POST',
        url: `/v1/bookings/${b.bookingId}/cancel`,
        headers: { authorization: `Bearer ${salon.key.secret}`, 'content-type': 'application/json', ...key },
        payload: '',
      });
      sameAnswer(live, withBody);
      expectError(await cancel(h, salon, b.bookingId), 409, 'booking.invalid_transition');
      // the same key on another booking is another request
      const c = await createOk(h, salon, { startTime: '12:00' });
      expectError(await cancel(h, salon, c.bookingId, key), 409, 'idempotency.payload_mismatch');
    });

    test('a claim still processing → 503 request_in_progress; once its lease lapses it is taken over', async () => {
      const salon = await createSalon(h.app);
      const key = randomUUID();
      const body = createBody(salon);
      const live = await post(salon, body, key);
      assert.equal(live.status, 201, live.raw);
      const lost = live.body.data.booking.bookingId;
      // Simulate a request that crashed before its transaction committed: no booking, and the
      // claim left 'processing' with a lease that is still running.
      await sql(h, 'DELETE FROM bookings WHERE id = $1', [lost]);
      await sql(
        h,
        `UPDATE idempotency_records SET state = 'processing', response_status = NULL, response_body = NULL,
                locked_until = now() + interval '1 minute'
          WHERE business_id = $1 AND idempotency_key = $2`,
        [salon.business.id, key],
      );
      const busy = await post(salon, body, key);
      expectError(busy, 503, 'idempotency.request_in_progress');
      assert.equal(busy.body.error.retryable, true);
      expectError(await post(salon, createBody(salon, { startTime: '11:00' }), key), 409, 'idempotency.payload_mismatch');

      await sql(
        h,
        "UPDATE idempotency_records SET locked_until = now() - interval '1 minute' WHERE business_id = $1 AND idempotency_key = $2",
        [salon.business.id, key],
      );
      // another body still does not take the key over
      expectError(await post(salon, createBody(salon, { startTime: '11:00' }), key), 409, 'idempotency.payload_mismatch');
      const taken = await post(salon, body, key);
      assert.equal(taken.status, 201, taken.raw);
      assert.equal(taken.body.meta.idempotent, undefined);
      assert.notEqual(taken.body.data.booking.bookingId, lost);
      sameAnswer(taken, await post(salon, body, key));
      assert.equal(await bookingCount(h, salon.business.id), 1);
    });

    test('the window is 24 hours: an older record is a new request; purgeExpiredKeys removes old records', async () => {
      const salon = await createSalon(h.app);
      const key = randomUUID();
      const live = await post(salon, createBody(salon, { startTime: '10:00' }), key);
      assert.equal(live.status, 201, live.raw);
      await sql(
        h,
        "UPDATE idempotency_records SET created_at = now() - interval '25 hours' WHERE business_id = $1 AND idempotency_key = $2",
        [salon.business.id, key],
      );
      // another body is no mismatch any more: it is simply a new request
      const fresh = await post(salon, createBody(salon, { startTime: '11:00' }), key);
      assert.equal(fresh.status, 201, fresh.raw);
      assert.equal(fresh.body.meta.idempotent, undefined);
      assert.notEqual(fresh.body.data.booking.bookingId, live.body.data.booking.bookingId);
      sameAnswer(fresh, await post(salon, createBody(salon, { startTime: '11:00' }), key));
      // just inside the window it still replays
      await sql(
        h,
        "UPDATE idempotency_records SET created_at = now() - interval '23 hours' WHERE business_id = $1 AND idempotency_key = $2",
        [salon.business.id, key],
      );
      sameAnswer(fresh, await post(salon, createBody(salon, { startTime: '11:00' }), key));

      const oldKey = randomUUID();
      assert.equal((await post(salon, createBody(salon, { startTime: '12:00' }), oldKey)).status, 201);
      await sql(
        h,
        "UPDATE idempotency_records SET created_at = now() - interval '25 hours' WHERE business_id = $1 AND idempotency_key = $2",
        [salon.business.id, oldKey],
      );
      const purged = await purgeExpiredKeys(h.db);
      assert.ok(purged >= 1, `purged ${purged}`);
      const left = await sql(h, 'SELECT idempotency_key FROM idempotency_records WHERE business_id = $1 ORDER BY idempotency_key', [
        salon.business.id,
      ]);
      assert.deepEqual(
        left.map((r) => r.idempotency_key),
        [key],
      );
    });
  });
}

for (const target of dbTargets()) {
  describe(`a claim that lapses while its request still runs [${target.name}]`, () => {
    let h: Harness;
    /** each test's first payment-link request waits for its release: the create is past the claim and before its write */
    let gate: { entered: () => void; released: Promise<void> } | undefined;
    before(async () => {
      h = await bookingHarness(target, {
        deposits: {
          async createPaymentLink({ bookingId }) {
            const g = gate;
            gate = undefined;
            if (g) {
              g.entered();
              await g.released;
            }
            return `https://pay.example.test/${bookingId}`;
          },
        },
      });
    });
    after(() => h.close());

    /**
     * A deposit create whose first request is held inside its payment-link call, with its claim's
     * lease lapsed, as a request held up for longer than the lease would be.
     */
    async function lapsedFirstRequest() {
      const salon = await createSalon(h.app);
      const service = await createService(h.app, salon.business.slug, salon.location.slug, {
        name: 'Balayage',
        deposit: { required: true, termsVersion: 'v1' },
      });
      const staff = await createStaff(h.app, salon.business.slug, salon.location.slug, { name: 'Cili', serviceIds: [service.id] });
      const body = createBody(salon, {
        service,
        staffId: staff.id,
        depositTermsAcceptance: { termsVersion: 'v1', acceptedAt: '2031-06-01T11:50:00.000Z' },
      });
      const key = randomUUID();
      const post = () => api(h.app, salon.key.secret, 'POST', '/bookings', body, { 'idempotency-key': key });
      let entered!: () => void;
      let release!: () => void;
      const inside = new Promise<void>((resolve) => (entered = resolve));
      gate = { entered, released: new Promise<void>((resolve) => (release = resolve)) };
      const first = post();
      await inside;
      await sql(
        h,
        "UPDATE idempotency_records SET locked_until = now() - interval '1 second' WHERE business_id = $1 AND idempotency_key = $2",
        [salon.business.id, key],
      );
      return { salon, post, first, release };
    }

    async function expectOneBookingAnsweredBy(salon: SalonFixture, post: () => Promise<any>, bookingId: string) {
      assert.equal(await bookingCount(h, salon.business.id), 1);
      const replay = await post();
      assert.equal(replay.status, 201, replay.raw);
      assert.equal(replay.body.meta.idempotent, true);
      assert.equal(replay.body.data.booking.bookingId, bookingId);
      const sub = await api(h.app, salon.key.secret, 'GET', '/subscription');
      assert.equal(sub.body.data.subscription.bookingsThisMonth, 1);
    }

    test('the duplicate that took the key over answers; the first request then writes nothing (503)', async () => {
      const { salon, post, first, release } = await lapsedFirstRequest();
      const second = await post();
      assert.equal(second.status, 201, second.raw);
      assert.equal(second.body.meta.idempotent, undefined);
      release();
      const late = await first;
      expectError(late, 503, 'idempotency.request_in_progress');
      await expectOneBookingAnsweredBy(salon, post, second.body.data.booking.bookingId);
    });

    /**
     * Sends the duplicate; when it reaches its read of the staff's calendar, lets the first request
     * go on and waits for its answer. `failWrite`: the first request's booking write then fails as a
     * lost connection would (500, retryable: it releases its claim).
     */
    async function duplicateWhileFirstAnswers(run: Awaited<ReturnType<typeof lapsedFirstRequest>>, failWrite = false) {
      const db = h.app.ctx.db;
      const query = db.query.bind(db);
      let firstAnswer: Awaited<typeof run.first> | undefined;
      let failedWrites = 0;
      db.query = (async (text: string, params?: unknown[]) => {
        // the booking's insert is compiled by Kysely (lower case, quoted names)
        if (failWrite && failedWrites === 0 && /insert into "?bookings"?/i.test(text)) {
          failedWrites += 1;
          throw new Error('connection lost (test)');
        }
        if (firstAnswer === undefined && text.includes('JOIN staff_services')) {
          run.release();
          firstAnswer = await run.first;
        }
        return query(text, params);
      }) as typeof db.query;
      try {
        const second = await run.post();
        assert.ok(firstAnswer, "the duplicate read the staff's calendar");
        return { second, firstAnswer, failedWrites };
      } finally {
        db.query = query;
      }
    }

    test('the first request answers while the duplicate runs: the duplicate, finding its slot taken, gets 503, not 409', async () => {
      const run = await lapsedFirstRequest();
      const { second, firstAnswer } = await duplicateWhileFirstAnswers(run);
      assert.equal(firstAnswer.status, 201, firstAnswer.raw);
      // The slot is the first request's booking now; that is not this key's answer.
      expectError(second, 503, 'idempotency.request_in_progress');
      await expectOneBookingAnsweredBy(run.salon, run.post, firstAnswer.body.data.booking.bookingId);
    });

    test("the first request failing in a retryable way frees only its own claim, not the duplicate's", async () => {
      const run = await lapsedFirstRequest();
      const { second, firstAnswer, failedWrites } = await duplicateWhileFirstAnswers(run, true);
      expectError(firstAnswer, 500, 'internal.error');
      assert.equal(failedWrites, 1);
      // The duplicate's claim survived the first request's release: it writes and answers.
      assert.equal(second.status, 201, second.raw);
      await expectOneBookingAnsweredBy(run.salon, run.post, second.body.data.booking.bookingId);
    });
  });
}
