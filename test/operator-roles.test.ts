/**
 * The role table of business-side.md, walked over the real route table: every operator route ×
 * every role × own and another business gets the answer the table gives. The expected table is
 * written here from the spec, not read from the routes' config, so a route given the wrong roles
 * fails; a route missing from it fails too.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newId } from '../src/domain/ids.ts';
import { MEMBER_ROLES, type MemberRole } from '../src/domain/members/roles.ts';
import { openapiPath, operatorRoutesOf } from '../src/http/route-table.ts';
import { planConfirmation } from './helpers/bookings.ts';
import { dbTargets } from './helpers/databases.ts';
import { admin, adminOk, startHarness, type Harness } from './helpers/harness.ts';
import { createSalon, type SalonFixture } from './helpers/fixtures.ts';
import { asMember, memberCookie } from './helpers/members.ts';

type Allowed = 'platform' | readonly MemberRole[];
const OWNER: Allowed = ['owner'];
const MANAGERS: Allowed = ['owner', 'manager'];
const EVERYONE: Allowed = ['owner', 'manager', 'frontDesk'];

/** business-side.md "Principals" and the route tables of operator-api.md and business-side.md. */
const ROLE_TABLE: Record<string, Allowed> = {
  'POST /businesses': 'platform',
  'GET /businesses': EVERYONE,
  'GET /businesses/{slug}': EVERYONE,
  'PATCH /businesses/{slug}/subscription': 'platform',
  'POST /businesses/{slug}/api-keys': OWNER,
  'GET /businesses/{slug}/api-keys': MANAGERS,
  'DELETE /api-keys/{keyId}': OWNER,
  'DELETE /businesses/{slug}/members/{userId}': OWNER,
  'POST /businesses/{slug}/locations': MANAGERS,
  'GET /businesses/{slug}/locations': EVERYONE,
  'PATCH /businesses/{slug}/locations/{locationSlug}': MANAGERS,
  'POST /businesses/{slug}/services': MANAGERS,
  'GET /businesses/{slug}/services': EVERYONE,
  'GET /services/{serviceId}': EVERYONE,
  'PATCH /services/{serviceId}': MANAGERS,
  'POST /businesses/{slug}/staff': MANAGERS,
  'GET /businesses/{slug}/staff': EVERYONE,
  'GET /staff/{staffId}': EVERYONE,
  'PATCH /staff/{staffId}': MANAGERS,
  'POST /staff/{staffId}/time-off': MANAGERS,
  'GET /staff/{staffId}/time-off': EVERYONE,
  'DELETE /time-off/{timeOffId}': MANAGERS,
  'POST /services/{serviceId}/sessions': MANAGERS,
  'GET /services/{serviceId}/sessions': EVERYONE,
  'POST /businesses/{slug}/bookings': EVERYONE,
  // the warnings before `Book anyway?` (docs/dashboard.md)
  'POST /businesses/{slug}/bookings/check': EVERYONE,
  'GET /businesses/{slug}/bookings': EVERYONE,
  'GET /businesses/{slug}/agenda': EVERYONE,
  'GET /bookings/{bookingId}': EVERYONE,
  'GET /bookings/{bookingId}/events': EVERYONE,
  'POST /bookings/{bookingId}/accept': EVERYONE,
  'POST /bookings/{bookingId}/decline': EVERYONE,
  'POST /bookings/{bookingId}/propose': EVERYONE,
  'POST /bookings/{bookingId}/accept-proposal': EVERYONE,
  'POST /bookings/{bookingId}/reschedule': EVERYONE,
  'POST /bookings/{bookingId}/complete': EVERYONE,
  'POST /bookings/{bookingId}/no-show': EVERYONE,
  'POST /bookings/{bookingId}/cancel': EVERYONE,
  'POST /bookings/{bookingId}/deposit': EVERYONE,
  'POST /bookings/{bookingId}/manage-link': EVERYONE,
  'POST /businesses/{slug}/invitations': OWNER,
  'GET /businesses/{slug}/invitations': OWNER,
  'DELETE /invitations/{invitationId}': OWNER,
  'GET /businesses/{slug}/members': OWNER,
  'PATCH /businesses/{slug}/members/{userId}': OWNER,
  'GET /businesses/{slug}/webhook': OWNER,
  'PUT /businesses/{slug}/webhook': OWNER,
  'POST /businesses/{slug}/webhook/rotate-secret': OWNER,
  'DELETE /businesses/{slug}/webhook': OWNER,
  'GET /businesses/{slug}/webhook/deliveries': MANAGERS,
  'POST /businesses/{slug}/webhook/deliveries/{deliveryId}/redeliver': OWNER,
  // guest-side.md "Guest settings of a business"
  'GET /businesses/{slug}/guest-settings': EVERYONE,
  'PATCH /businesses/{slug}/guest-settings': MANAGERS,
  // guest-side.md "Calendar feeds"
  'POST /staff/{staffId}/calendar-feed': MANAGERS,
  'POST /businesses/{slug}/locations/{locationSlug}/calendar-feed': MANAGERS,
  // guest-side.md "Notifications": the front desk reads one booking's messages (with ?bookingId=,
  // test/notifications-log.test.ts); the walk calls without it
  'GET /businesses/{slug}/notifications': MANAGERS,
  'POST /notifications/{notificationId}/resend': EVERYONE,
  // guest-side.md "Waitlist"
  'GET /businesses/{slug}/waitlist': EVERYONE,
  // salon-scheduling.md "Explain"
  'POST /businesses/{slug}/availability/explain': EVERYONE,
  // salon-scheduling.md "Resources"
  'POST /businesses/{slug}/resources': MANAGERS,
  'GET /businesses/{slug}/resources': EVERYONE,
  'PATCH /resources/{resourceId}': MANAGERS,
  // salon-scheduling.md "Visits"
  'POST /visits/{visitId}/cancel': EVERYONE,
  // clients-and-reports.md "Clients"
  'GET /businesses/{slug}/clients': EVERYONE,
  'GET /clients/{clientId}': EVERYONE,
  'PATCH /clients/{clientId}': EVERYONE,
  'GET /clients/{clientId}/export': MANAGERS,
  'POST /clients/{clientId}/erase': MANAGERS,
  // clients-and-reports.md "Reports"
  'GET /businesses/{slug}/reports': MANAGERS,
  'GET /businesses/{slug}/bookings.csv': MANAGERS,
  'PATCH /businesses/{slug}': MANAGERS,
  // clients-and-reports.md "Audit log"
  'GET /businesses/{slug}/audit-log': MANAGERS,
};

/** A value for each path parameter, in a given salon; resources a call may delete are made fresh. */
async function paramValue(h: Harness, salon: SalonFixture, name: string): Promise<string> {
  const slug = salon.business.slug;
  switch (name) {
    case 'slug':
      return slug;
    case 'locationSlug':
      return salon.location.slug;
    case 'serviceId':
      return salon.service.id;
    case 'staffId':
      return salon.staff[0]!.id;
    case 'userId':
      return 'usr_nobody';
    case 'resourceId':
      return (
        await adminOk(h.app, 'POST', `/businesses/${slug}/resources`, { locationSlug: salon.location.slug, name: 'Chair', quantity: 2 })
      ).resource.id;
    case 'deliveryId':
      return '0'.repeat(32);
    case 'invitationId':
      return (
        await adminOk(h.app, 'POST', `/businesses/${slug}/invitations`, {
          email: `invitee-${invitationCounter++}-${Date.now()}@example.com`,
          role: 'frontDesk',
        })
      ).invitation.id;
    case 'keyId':
      return (
        await adminOk(h.app, 'POST', `/businesses/${slug}/api-keys`, {
          name: 'k',
          type: 'integration',
          kind: 'owner',
          capabilities: ['services.read'],
        })
      ).apiKey.id;
    case 'timeOffId':
      return (
        await adminOk(h.app, 'POST', `/staff/${salon.staff[0]!.id}/time-off`, {
          from: { date: '2031-02-03', time: '10:00' },
          to: { date: '2031-02-03', time: '11:00' },
        })
      ).timeOff.id;
    case 'bookingId':
      return (
        await adminOk(h.app, 'POST', `/businesses/${slug}/bookings`, {
          locationSlug: salon.location.slug,
          serviceId: salon.service.id,
          staffId: salon.staff[1]!.id,
          // One booking a day from 2031-03-01 on: the walk needs about seventy, none may clash.
          date: new Date(Date.UTC(2031, 2, 1 + bookingCounter++)).toISOString().slice(0, 10),
          startTime: '10:00',
          guest: { name: 'Role Walk', phone: '+36 30 123 4567' },
        })
      ).booking.bookingId;
    case 'visitId': {
      // a visit of one part is enough for the walk: the row ties a booking of the business to it
      const bookingId = await paramValue(h, salon, 'bookingId');
      const id = newId('vst');
      await h.db.query('INSERT INTO visits (id, business_id, location_id) VALUES ($1, $2, $3)', [id, salon.business.id, salon.location.id]);
      await h.db.query('UPDATE bookings SET visit_id = $1 WHERE id = $2', [id, bookingId]);
      return id;
    }
    case 'clientId': {
      const bookingId = await paramValue(h, salon, 'bookingId');
      return (await adminOk(h.app, 'GET', `/bookings/${bookingId}`)).booking.clientId;
    }
    case 'notificationId': {
      const bookingId = await paramValue(h, salon, 'bookingId');
      return planConfirmation(h, salon.business.id, bookingId, 'role.walk@example.com');
    }
    default:
      throw new Error(`no fixture for path parameter ${name}: add one`);
  }
}
let bookingCounter = 0;
let invitationCounter = 0;

async function pathFor(h: Harness, salon: SalonFixture, url: string): Promise<string> {
  const path = url.replace(/^\/admin\/v1/, '');
  let out = path;
  for (const m of path.matchAll(/:([A-Za-z]+)/g)) out = out.replace(`:${m[1]}`, encodeURIComponent(await paramValue(h, salon, m[1]!)));
  return out;
}

const [target] = dbTargets();

describe(`operator routes × roles × own and other business [${target!.name}]`, () => {
  let h: Harness;
  let own: SalonFixture;
  let other: SalonFixture;
  const cookies = new Map<MemberRole, string>();
  before(async () => {
    h = await startHarness(target!);
    own = await createSalon(h.app);
    other = await createSalon(h.app);
    for (const role of MEMBER_ROLES) cookies.set(role, (await memberCookie(h.app, h.db, own.business.id, role)).cookie);
  });
  after(() => h.close());

  test('every operator route is in the role table, and every table row is a route', () => {
    const routes = operatorRoutesOf(h.app.routeTable).map((r) => `${r.method} ${openapiPath(r.url).replace(/^\/admin\/v1/, '')}`);
    assert.deepEqual([...routes].sort(), Object.keys(ROLE_TABLE).sort());
  });

  test('each role gets what the table gives, in its own business and in another', async () => {
    const failures: string[] = [];
    for (const route of operatorRoutesOf(h.app.routeTable)) {
      const key = `${route.method} ${openapiPath(route.url).replace(/^\/admin\/v1/, '')}`;
      const allowed = ROLE_TABLE[key]!;
      const aboutOneBusiness = route.access?.surface === 'operator' && route.access.business !== 'none';
      const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : {};
      for (const role of MEMBER_ROLES) {
        const cookie = cookies.get(role)!;
        const mayCall = allowed !== 'platform' && allowed.includes(role);
        const ownAnswer = await asMember(h.app, cookie, route.method as any, await pathFor(h, own, route.url), body);
        const code = ownAnswer.body?.error?.code as string | undefined;
        if (mayCall) {
          if (code?.startsWith('auth.')) failures.push(`${key} as ${role}, own business: ${ownAnswer.status} ${code}`);
        } else {
          const required = allowed === 'platform' ? ['platformOperator'] : [...allowed];
          if (ownAnswer.status !== 403 || code !== 'auth.insufficient_capability') {
            failures.push(`${key} as ${role}, own business: expected 403 auth.insufficient_capability, got ${ownAnswer.status} ${code}`);
          } else if (JSON.stringify(ownAnswer.body.error.details.required) !== JSON.stringify(required)) {
            failures.push(`${key} as ${role}: details.required ${JSON.stringify(ownAnswer.body.error.details.required)}`);
          }
        }
        if (aboutOneBusiness) {
          const otherAnswer = await asMember(h.app, cookie, route.method as any, await pathFor(h, other, route.url), body);
          if (otherAnswer.status !== 403 || otherAnswer.body?.error?.code !== 'auth.scope_mismatch') {
            failures.push(
              `${key} as ${role}, other business: expected 403 auth.scope_mismatch, got ${otherAnswer.status} ${otherAnswer.raw.slice(0, 120)}`,
            );
          }
        }
      }
      // The platform operator may call every route of every business.
      const platform = await admin(h.app, route.method as any, await pathFor(h, other, route.url), body);
      if (String(platform.body?.error?.code).startsWith('auth.'))
        failures.push(`${key} as the platform operator: ${platform.raw.slice(0, 120)}`);
    }
    assert.deepEqual(failures, []);
  });

  test('an id that exists nowhere answers a member like another business’s: 403, never 404', async () => {
    for (const path of ['/bookings/bkg_nope', '/services/svc_nope', '/staff/stf_nope', '/businesses/no-such-salon']) {
      const r = await asMember(h.app, cookies.get('owner')!, 'GET', path);
      assert.equal(r.status, 403, `${path}: ${r.raw}`);
      assert.equal(r.body.error.code, 'auth.scope_mismatch');
    }
    assert.equal((await admin(h.app, 'GET', '/bookings/bkg_nope')).status, 404, 'the platform operator still gets 404');
  });

  test('an owner issues keys, but only the platform operator gives one the elevated tier', async () => {
    const body = { name: 'fast', type: 'integration', kind: 'owner', capabilities: ['services.read'], tier: 'elevated' };
    const r = await asMember(h.app, cookies.get('owner')!, 'POST', `/businesses/${own.business.slug}/api-keys`, body);
    assert.equal(r.status, 403, r.raw);
    assert.equal(r.body.error.code, 'auth.insufficient_capability');
    assert.deepEqual(r.body.error.details.required, ['platformOperator']);
    const standard = await asMember(h.app, cookies.get('owner')!, 'POST', `/businesses/${own.business.slug}/api-keys`, {
      ...body,
      tier: 'standard',
    });
    assert.equal(standard.status, 200, standard.raw);
    assert.equal((await admin(h.app, 'POST', `/businesses/${own.business.slug}/api-keys`, body)).body.data.apiKey.tier, 'elevated');
  });

  test('GET /metrics is the platform operator’s alone', async () => {
    const r = await h.app.inject({ method: 'GET', url: '/metrics', headers: { cookie: cookies.get('owner')! } });
    assert.equal(r.statusCode, 403, r.body);
    assert.equal(JSON.parse(r.body).error.code, 'auth.insufficient_capability');
  });
});
