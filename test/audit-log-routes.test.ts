/**
 * The audit log's "Done when" of issue 28: every write route of `/admin/v1` leaves an entry. The
 * route table is walked and each write route is called for real, with a valid body on a record in
 * the state the write needs (a requested booking to accept, a past one to complete, a configured
 * webhook to rotate, …), by the salon's owner unless only the platform operator may call it. Each
 * answer's request id must find exactly one entry with the route's action and target; the two
 * POSTs that only read must find none. The account routes (sign-in, sign-out, language, password
 * reset) are no business's write and are named here, so a new account write has to be decided on;
 * accepting an invitation is recorded in the business joined. Last, no entry holds a secret, a
 * password, a token, a phone or an email used along the way.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { WebhookWorker } from '../src/webhooks/worker.ts';
import { AUDIT_ACTIONS } from '../src/domain/audit/actions.ts';
import { newId } from '../src/domain/ids.ts';
import { openapiPath, operatorRoutesOf } from '../src/http/route-table.ts';
import { BASE_NOW, createOk, day, planConfirmation, sql } from './helpers/bookings.ts';
import { dbTargets } from './helpers/databases.ts';
import { createService, createStaff, createSalon, EVERY_DAY_9_TO_17, type SalonFixture, uniqueSlug } from './helpers/fixtures.ts';
import { admin, adminOk, call, type Harness, type JsonResponse } from './helpers/harness.ts';
import { tokenOf } from './helpers/invitations.ts';
import { asMember, memberCookie, MEMBER_PASSWORD } from './helpers/members.ts';
import { WebhookReceiver } from './helpers/webhook-receiver.ts';
import { testWorker, waitForFinal, webhookHarness } from './helpers/webhooks.ts';

/** The account routes: a member's own session and password, no business's write (docs/clients-and-privacy.md). */
const ACCOUNT_WRITES_NOT_LOGGED = [
  'POST /session',
  'PATCH /session',
  'DELETE /session',
  'POST /password-reset',
  'POST /password-reset/confirm',
];
const GUEST_PHONE = '+36 30 246 8101';
const GUEST_EMAIL = 'walk.guest@example.com';
const NEW_PASSWORD = 'a joining member passphrase';

interface Call {
  path: string;
  body?: unknown;
  /** only the platform operator may call it (operator-api.md) */
  platform?: boolean;
  /** the target id the entry must name; the route's last id, else the created record's, by default */
  target?: string;
}

for (const target of dbTargets()) {
  describe(`audit log: every write route of /admin/v1 [${target.name}]`, () => {
    let h: Harness;
    let receiver: WebhookReceiver;
    let worker: WebhookWorker;
    let salon: SalonFixture;
    let slug: string;
    let owner: string;
    const secrets: string[] = [GUEST_PHONE, '36302468101', GUEST_EMAIL, MEMBER_PASSWORD, NEW_PASSWORD];
    let made = 0;

    before(async () => {
      h = await webhookHarness(target);
      receiver = await WebhookReceiver.start();
      worker = await testWorker(h);
      salon = await createSalon(h.app);
      slug = salon.business.slug;
      owner = (await memberCookie(h.app, h.db, salon.business.id, 'owner')).cookie;
    });
    after(async () => {
      await worker.stop();
      await receiver.close();
      await h.close();
    });

    /** A booking through the public API at its own hour, so none clash: requested for the manual service. */
    const booking = async (opts: { manual?: boolean; date?: string } = {}) => {
      const n = made++;
      const b = await createOk(h, salon, {
        ...(opts.manual ? { service: salon.manualService } : {}),
        date: opts.date ?? day(3 + Math.floor(n / 7)),
        startTime: `${String(9 + (n % 7)).padStart(2, '0')}:00`,
        guest: { name: 'Walk Guest', phone: GUEST_PHONE, email: GUEST_EMAIL },
      });
      return b.bookingId as string;
    };
    const key = async () =>
      (
        await adminOk(h.app, 'POST', `/businesses/${slug}/api-keys`, {
          name: 'k',
          type: 'integration',
          kind: 'owner',
          capabilities: ['services.read'],
        })
      ).apiKey.id as string;
    const invite = async () =>
      (await adminOk(h.app, 'POST', `/businesses/${slug}/invitations`, { email: `walk-${randomUUID()}@example.com`, role: 'frontDesk' }))
        .invitation;

    /** How to call each write route once, successfully. Keyed as AUDIT_ACTIONS is. */
    const WRITES: Record<string, () => Promise<Call>> = {
      'POST /businesses': async () => ({
        path: '/businesses',
        body: { slug: uniqueSlug(), name: 'Walk Salon', currency: 'HUF', subscription: { plan: 'pro', status: 'active' } },
        platform: true,
      }),
      'PATCH /businesses/{slug}': async () => ({
        path: `/businesses/${slug}`,
        body: { clientRetentionMonths: 24 },
        target: salon.business.id,
      }),
      'PATCH /businesses/{slug}/subscription': async () => ({
        path: `/businesses/${slug}/subscription`,
        body: { plan: 'pro' },
        platform: true,
        target: salon.business.id,
      }),
      'POST /businesses/{slug}/api-keys': async () => ({
        path: `/businesses/${slug}/api-keys`,
        body: { name: 'widget', type: 'integration', kind: 'owner', capabilities: ['services.read'] },
      }),
      'DELETE /api-keys/{keyId}': async () => ({ path: `/api-keys/${await key()}` }),
      'POST /businesses/{slug}/invitations': async () => ({
        path: `/businesses/${slug}/invitations`,
        body: { email: `walk-${randomUUID()}@example.com`, role: 'manager' },
      }),
      'DELETE /invitations/{invitationId}': async () => ({ path: `/invitations/${(await invite()).id}` }),
      'PATCH /businesses/{slug}/members/{userId}': async () => {
        const m = await memberCookie(h.app, h.db, salon.business.id, 'frontDesk');
        return { path: `/businesses/${slug}/members/${m.userId}`, body: { role: 'manager' } };
      },
      'DELETE /businesses/{slug}/members/{userId}': async () => {
        const m = await memberCookie(h.app, h.db, salon.business.id, 'frontDesk');
        return { path: `/businesses/${slug}/members/${m.userId}` };
      },
      'POST /businesses/{slug}/locations': async () => ({
        path: `/businesses/${slug}/locations`,
        body: {
          slug: uniqueSlug('loc'),
          name: 'Uptown',
          timezone: 'Europe/Budapest',
          address: { city: 'Budapest', street: 'Fő utca 2.', zip: '1011' },
        },
      }),
      'PATCH /businesses/{slug}/locations/{locationSlug}': async () => ({
        path: `/businesses/${slug}/locations/${salon.location.slug}`,
        body: { paymentInstructions: 'Cash at the desk' },
        target: salon.location.slug,
      }),
      'POST /businesses/{slug}/locations/{locationSlug}/calendar-feed': async () => ({
        path: `/businesses/${slug}/locations/${salon.location.slug}/calendar-feed`,
        target: salon.location.slug,
      }),
      'POST /businesses/{slug}/services': async () => ({
        path: `/businesses/${slug}/services`,
        body: {
          locationSlug: salon.location.slug,
          name: 'Beard trim',
          durationMinutes: 20,
          priceType: 'fixed',
          price: { amount: 3000, currency: 'HUF' },
          requestAcceptancePolicy: 'automatic',
        },
      }),
      'PATCH /services/{serviceId}': async () => ({ path: `/services/${salon.service.id}`, body: { description: 'Wash, cut and dry' } }),
      'POST /services/{serviceId}/sessions': async () => {
        const yoga = await createService(h.app, slug, salon.location.slug, {
          name: 'Yoga',
          bookingMode: 'groupSession',
          durationMinutes: 60,
        });
        const coach = await createStaff(h.app, slug, salon.location.slug, { name: 'Coach', serviceIds: [yoga.id] });
        return {
          path: `/services/${yoga.id}/sessions`,
          body: { staffId: coach.id, startAtUtc: `${day(20)}T08:00:00.000Z`, endAtUtc: `${day(20)}T09:00:00.000Z`, capacityMax: 4 },
        };
      },
      'POST /businesses/{slug}/staff': async () => ({
        path: `/businesses/${slug}/staff`,
        body: { locationSlug: salon.location.slug, name: 'Cili', serviceIds: [], workingHours: EVERY_DAY_9_TO_17 },
      }),
      'PATCH /staff/{staffId}': async () => ({ path: `/staff/${salon.staff[0]!.id}`, body: { name: 'Anna K.' } }),
      'POST /staff/{staffId}/time-off': async () => ({
        path: `/staff/${salon.staff[1]!.id}/time-off`,
        body: { from: { date: day(30), time: '10:00' }, to: { date: day(30), time: '11:00' } },
      }),
      'DELETE /time-off/{timeOffId}': async () => {
        const { timeOff } = await adminOk(h.app, 'POST', `/staff/${salon.staff[1]!.id}/time-off`, {
          from: { date: day(31), time: '10:00' },
          to: { date: day(31), time: '11:00' },
        });
        return { path: `/time-off/${timeOff.id}` };
      },
      'POST /staff/{staffId}/calendar-feed': async () => ({ path: `/staff/${salon.staff[0]!.id}/calendar-feed` }),
      'POST /businesses/{slug}/resources': async () => ({
        path: `/businesses/${slug}/resources`,
        body: { locationSlug: salon.location.slug, name: 'Basin', quantity: 2 },
      }),
      'PATCH /resources/{resourceId}': async () => {
        const { resource } = await adminOk(h.app, 'POST', `/businesses/${slug}/resources`, {
          locationSlug: salon.location.slug,
          name: 'Chair',
          quantity: 2,
        });
        return { path: `/resources/${resource.id}`, body: { quantity: 3 } };
      },
      'POST /businesses/{slug}/bookings': async () => ({
        path: `/businesses/${slug}/bookings`,
        body: {
          locationSlug: salon.location.slug,
          serviceId: salon.service.id,
          staffId: salon.staff[1]!.id,
          date: day(12),
          startTime: '10:00',
          guest: { name: 'Walk In', phone: GUEST_PHONE, email: GUEST_EMAIL },
        },
      }),
      'POST /bookings/{bookingId}/accept': async () => ({ path: `/bookings/${await booking({ manual: true })}/accept` }),
      'POST /bookings/{bookingId}/decline': async () => ({
        path: `/bookings/${await booking({ manual: true })}/decline`,
        body: { reason: 'Fully booked that day' },
      }),
      'POST /bookings/{bookingId}/propose': async () => ({
        path: `/bookings/${await booking({ manual: true })}/propose`,
        body: { date: day(13), startTime: '15:00' },
      }),
      'POST /bookings/{bookingId}/accept-proposal': async () => {
        const id = await booking({ manual: true });
        await adminOk(h.app, 'POST', `/bookings/${id}/propose`, { date: day(14), startTime: '15:00' });
        return { path: `/bookings/${id}/accept-proposal` };
      },
      'POST /bookings/{bookingId}/reschedule': async () => ({
        path: `/bookings/${await booking()}/reschedule`,
        body: { date: day(15), startTime: '11:00' },
      }),
      'POST /bookings/{bookingId}/complete': async () => ({ path: `/bookings/${await pastBooking()}/complete` }),
      'POST /bookings/{bookingId}/no-show': async () => ({ path: `/bookings/${await pastBooking()}/no-show` }),
      'POST /bookings/{bookingId}/cancel': async () => ({ path: `/bookings/${await booking()}/cancel`, body: { reason: 'Guest called' } }),
      'POST /bookings/{bookingId}/deposit': async () => {
        const service = await createService(h.app, slug, salon.location.slug, {
          name: 'Balayage',
          deposit: { required: true, termsVersion: 'v1', amount: { amount: 2000, currency: 'HUF' } },
        });
        const staffId = (await createStaff(h.app, slug, salon.location.slug, { name: 'Dóra', serviceIds: [service.id] })).id;
        const b = await createOk(h, salon, {
          service,
          staffId,
          date: day(16),
          startTime: '10:00',
          depositTermsAcceptance: { termsVersion: 'v1', acceptedAt: '2031-06-01T11:50:00.000Z' },
        });
        return { path: `/bookings/${b.bookingId}/deposit`, body: { status: 'paid' } };
      },
      'POST /bookings/{bookingId}/manage-link': async () => ({ path: `/bookings/${await booking()}/manage-link` }),
      'POST /visits/{visitId}/cancel': async () => {
        // a visit of one part: the row ties a booking of the business to it
        const bookingId = await booking();
        const id = newId('vst');
        await h.db.query('INSERT INTO visits (id, business_id, location_id) VALUES ($1, $2, $3)', [
          id,
          salon.business.id,
          salon.location.id,
        ]);
        await h.db.query('UPDATE bookings SET visit_id = $1 WHERE id = $2', [id, bookingId]);
        return { path: `/visits/${id}/cancel` };
      },
      'PUT /businesses/{slug}/webhook': async () => ({
        path: `/businesses/${slug}/webhook`,
        body: { url: receiver.path('walk').url },
        target: salon.business.id,
      }),
      'POST /businesses/{slug}/webhook/rotate-secret': async () => {
        await ensureWebhook();
        return { path: `/businesses/${slug}/webhook/rotate-secret`, target: salon.business.id };
      },
      'POST /businesses/{slug}/webhook/deliveries/{deliveryId}/redeliver': async () => {
        // the worker delivers a booking's event to the receiver; that delivery is sent again
        await ensureWebhook();
        const [row] = await waitForFinal(h.db, await booking(), 1);
        return { path: `/businesses/${slug}/webhook/deliveries/${row!.delivery_id}/redeliver`, target: row!.delivery_id };
      },
      'DELETE /businesses/{slug}/webhook': async () => {
        await ensureWebhook();
        return { path: `/businesses/${slug}/webhook`, target: salon.business.id };
      },
      'PATCH /businesses/{slug}/guest-settings': async () => ({
        path: `/businesses/${slug}/guest-settings`,
        body: { bookingPage: { introText: 'Welcome' } },
        target: salon.business.id,
      }),
      'POST /notifications/{notificationId}/resend': async () => {
        // no mail server is configured here, so the confirmation is planned as the booking's would be
        const bookingId = await booking();
        const id = await planConfirmation(h, salon.business.id, bookingId, GUEST_EMAIL);
        return { path: `/notifications/${id}/resend` };
      },
      'PATCH /clients/{clientId}': async () => ({
        path: `/clients/${await clientOf(await booking())}`,
        body: { notes: 'Prefers mornings' },
      }),
      'POST /clients/{clientId}/erase': async () => {
        const id = await clientOf(await booking());
        await h.db.query("UPDATE clients SET name = 'Erase Walk' WHERE id = $1", [id]);
        return { path: `/clients/${id}/erase` };
      },
    };

    /** The routes run in registration order; a webhook route that needs one configured makes sure. */
    async function ensureWebhook(): Promise<void> {
      if ((await admin(h.app, 'GET', `/businesses/${slug}/webhook`)).status === 404) {
        collectSecrets(await adminOk(h.app, 'PUT', `/businesses/${slug}/webhook`, { url: receiver.path('walk').url }));
      }
    }
    /** A confirmed booking whose start has passed: made the day before it, with the clock moved on. */
    async function pastBooking(): Promise<string> {
      const id = await booking({ date: day(1) });
      h.clock.now = new Date(`${day(2)}T06:00:00.000Z`);
      return id;
    }
    async function clientOf(bookingId: string): Promise<string> {
      return (await adminOk(h.app, 'GET', `/bookings/${bookingId}`)).booking.clientId;
    }
    /** Every secret, token or private link an answer gives (a key, a signing secret, a manage or feed link). */
    function collectSecrets(data: unknown): void {
      if (data === null || typeof data !== 'object') return;
      for (const [k, v] of Object.entries(data)) {
        if (typeof v === 'string' && /secret$/i.test(k)) secrets.push(v);
        else if (typeof v === 'string' && /(manage|feed|accept)Url$/.test(k))
          secrets.push(new URL(v).searchParams.get('token') ?? v.split('/').at(-1)!);
        else collectSecrets(v);
      }
    }
    const entriesOf = (requestId: string) =>
      sql<{ action: string; target_type: string; target_id: string | null; actor_type: string }>(
        h,
        'SELECT action, target_type, target_id, actor_type FROM audit_log WHERE request_id = $1',
        [requestId],
      );

    test('the walk covers the route table: every write route of /admin/v1 has a call here, an action or an account exemption', () => {
      const recorded = Object.entries(AUDIT_ACTIONS)
        .filter(([, action]) => action !== null)
        .map(([route]) => route);
      assert.deepEqual(Object.keys(WRITES).sort(), recorded.sort());
      // the operator routes against AUDIT_ACTIONS, both ways: test/audit-log.test.ts
      const accountWrites = h.app.routeTable
        .filter((r) => r.access?.surface === 'account' && r.method !== 'GET' && r.url.startsWith('/admin/v1/'))
        .map((r) => `${r.method} ${r.url.replace(/^\/admin\/v1/, '')}`);
      assert.deepEqual(accountWrites.sort(), [...ACCOUNT_WRITES_NOT_LOGGED, 'POST /invitations/accept'].sort());
    });

    test('each write route, called once, leaves exactly one entry with its action and target', async () => {
      const failures: string[] = [];
      for (const route of operatorRoutesOf(h.app.routeTable)) {
        const key = `${route.method} ${openapiPath(route.url).replace(/^\/admin\/v1/, '')}`;
        const action = AUDIT_ACTIONS[key];
        if (route.method === 'GET' || action === null || action === undefined) continue;
        h.clock.now = new Date(BASE_NOW);
        const c = await WRITES[key]!();
        const answer: JsonResponse = c.platform
          ? await admin(h.app, route.method as 'POST', c.path, c.body)
          : await asMember(h.app, owner, route.method as 'POST', c.path, c.body);
        h.clock.now = new Date(BASE_NOW);
        if (answer.status >= 300) {
          failures.push(`${key}: ${answer.status} ${answer.raw.slice(0, 200)}`);
          continue;
        }
        collectSecrets(answer.body.data);
        const found = await entriesOf(answer.body.meta.requestId);
        const ids = c.path.split('/').filter((s) => /^[a-z]{3}_/.test(s));
        const created = Object.values(answer.body.data as Record<string, any>)[0];
        const expectedTarget = c.target ?? ids.at(-1) ?? created?.id ?? created?.bookingId;
        const got = found.map((e) => `${e.action} ${e.target_type}:${e.target_id} by ${e.actor_type}`);
        const want = `${action} ${action.split('.')[0]}:${expectedTarget} by ${c.platform ? 'operator' : 'member'}`;
        if (got.length !== 1 || got[0] !== want) failures.push(`${key}: want [${want}], got ${JSON.stringify(got)}`);
      }
      assert.deepEqual(failures, []);
    });

    test('the POSTs that only read leave none', async () => {
      const check = await asMember(h.app, owner, 'POST', `/businesses/${slug}/bookings/check`, {
        locationSlug: salon.location.slug,
        serviceId: salon.service.id,
        staffId: salon.staff[0]!.id,
        date: day(20),
        startTime: '10:00',
      });
      assert.equal(check.status, 200, check.raw);
      const explain = await asMember(h.app, owner, 'POST', `/businesses/${slug}/availability/explain`, {
        locationSlug: salon.location.slug,
        serviceId: salon.service.id,
        date: day(20),
        startTime: '10:00',
      });
      assert.equal(explain.status, 200, explain.raw);
      for (const r of [check, explain]) assert.deepEqual(await entriesOf(r.body.meta.requestId), []);
    });

    test('accepting an invitation is recorded in the business joined, by the new member', async () => {
      const inv = await invite();
      const token = tokenOf(inv.acceptUrl);
      secrets.push(token);
      const r = await call(h.app, {
        method: 'POST',
        url: '/admin/v1/invitations/accept',
        headers: { origin: new URL(inv.acceptUrl).origin },
        payload: { token, name: 'Joining Member', password: NEW_PASSWORD },
      });
      assert.equal(r.status, 200, r.raw);
      const [entry] = await sql(h, 'SELECT * FROM audit_log WHERE request_id = $1', [r.body.meta.requestId]);
      assert.ok(entry, 'an entry');
      assert.deepEqual(
        [entry.business_id, entry.actor_type, entry.actor_id, entry.actor_name, entry.actor_role, entry.action, entry.target_id],
        [salon.business.id, 'member', r.body.data.member.id, 'Joining Member', 'frontDesk', 'member.join', r.body.data.member.id],
      );
    });

    test('no entry holds a secret, a password, a token, a phone or an email', async () => {
      const rows = await sql<{ row: string }>(h, 'SELECT row_to_json(a)::text AS row FROM audit_log a');
      const text = rows.map((r) => r.row).join('\n');
      assert.ok(rows.length > 40, `${rows.length} entries`);
      assert.ok(secrets.length >= 10, `secrets collected: ${secrets.length}`);
      for (const s of secrets) assert.ok(!text.includes(s), `the audit log holds ${s}`);
      assert.doesNotMatch(text, /@|\+36/);
    });
  });
}
