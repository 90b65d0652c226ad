/**
 * Helpers for the booking tests: a fixed "now", valid create bodies, SQL peeks at the rows the API
 * never returns (guest phone/email, api source), and the operator actions.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { BuildOptions } from '../../src/app.ts';
import { deliveryIdFor } from '../../src/domain/bookings/delivery-id.ts';
import { newId } from '../../src/domain/ids.ts';
import { planMessages } from '../../src/store/messages.ts';
import type { DbTarget } from './databases.ts';
import { api, type SalonFixture, type ServiceFixture } from './fixtures.ts';
import { admin, startHarness, type Harness, type JsonResponse } from './harness.ts';

/**
 * What the app sees as "now" in the booking tests: Sunday 2031-06-01 14:00 in Budapest (UTC+2).
 * day(1) is the Monday after; June to August is far from a DST change and inside the 90-day horizon.
 */
export const BASE_NOW = '2031-06-01T12:00:00.000Z';

/** The local date `n` days after BASE_NOW's date (2031-06-01). */
export function day(n: number): string {
  return new Date(Date.UTC(2031, 5, 1 + n)).toISOString().slice(0, 10);
}

/** A harness whose clock is BASE_NOW. */
export async function bookingHarness(
  target: DbTarget,
  build: Omit<Partial<BuildOptions>, 'config' | 'db' | 'clock'> = {},
): Promise<Harness> {
  const h = await startHarness(target, {}, build);
  h.clock.now = new Date(BASE_NOW);
  return h;
}

/** Guest data that must never come back in any response or event. */
export const SECRET_PHONE = '+36 30 765 4321';
export const SECRET_PHONE_DIGITS = '7654321';
export const SECRET_EMAIL = 'guest.secret@example.com';

export const CONSENT = {
  privacyNoticeVersion: 'pn-2031-01',
  termsVersion: 'tos-2031-01',
  locale: 'hu-HU',
  acceptedAt: '2031-06-01T11:55:00.000Z',
  policyConsentGiven: true,
};

export interface BodyOptions {
  service?: ServiceFixture;
  staffId?: string | undefined;
  date?: string;
  startTime?: string;
  guest?: Record<string, unknown>;
  [extra: string]: unknown;
}

/**
 * A valid POST /bookings body for the salon: the automatic service on day(2) at 10:00 with the first
 * staff member unless told otherwise. `staffId: undefined` leaves staffId out; other keys are
 * added to (or replace) the body as given.
 */
export function createBody(salon: SalonFixture, opts: BodyOptions = {}): Record<string, any> {
  const { service = salon.service, date = day(2), startTime = '10:00', guest, ...extra } = opts;
  const body: Record<string, any> = {
    salonSlug: salon.business.slug,
    locationSlug: salon.location.slug,
    serviceId: service.id,
    expectedPricingVersion: service.pricingVersion,
    staffId: salon.staff[0]!.id,
    slot: { date, startTime },
    guest: guest ?? { name: 'Kiss Éva', phone: SECRET_PHONE, email: SECRET_EMAIL },
    consent: CONSENT,
  };
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete body[k];
    else body[k] = v;
  }
  return body;
}

export function createBooking(h: Harness, salon: SalonFixture, opts: BodyOptions = {}, headers: Record<string, string> = {}) {
  return api(h.app, salon.key.secret, 'POST', '/bookings', createBody(salon, opts), headers);
}

/** A create that must give 201; returns data.booking. */
export async function createOk(h: Harness, salon: SalonFixture, opts: BodyOptions = {}): Promise<any> {
  const r = await createBooking(h, salon, opts);
  assert.equal(r.status, 201, r.raw);
  return r.body.data.booking;
}

export function getBooking(h: Harness, salon: SalonFixture, bookingId: string) {
  return api(h.app, salon.key.secret, 'GET', `/bookings/${bookingId}`);
}

export async function bookingEvents(h: Harness, salon: SalonFixture, bookingId: string): Promise<any[]> {
  const r = await api(h.app, salon.key.secret, 'GET', `/bookings/${bookingId}/events`);
  assert.equal(r.status, 200, r.raw);
  return r.body.data.events;
}

export function cancel(h: Harness, salon: SalonFixture, bookingId: string, headers: Record<string, string> = {}) {
  return api(h.app, salon.key.secret, 'POST', `/bookings/${bookingId}/cancel`, undefined, headers);
}

export type OperatorAction = 'accept' | 'decline' | 'propose' | 'accept-proposal' | 'reschedule' | 'complete' | 'no-show' | 'cancel';

export function operatorAction(
  h: Harness,
  bookingId: string,
  action: OperatorAction,
  body?: { date: string; startTime: string; staffId?: string },
): Promise<JsonResponse> {
  return admin(h.app, 'POST', `/bookings/${bookingId}/${action}`, body);
}

export async function operatorOk(
  h: Harness,
  bookingId: string,
  action: OperatorAction,
  body?: { date: string; startTime: string; staffId?: string },
): Promise<any> {
  const r = await operatorAction(h, bookingId, action, body);
  assert.equal(r.status, 200, `${action}: ${r.raw}`);
  return r.body.data.booking;
}

export async function sql<T = any>(h: Harness, text: string, params: unknown[] = []): Promise<T[]> {
  return (await h.db.query<T>(text, params)).rows;
}

export async function bookingCount(h: Harness, businessId: string): Promise<number> {
  const [row] = await sql<{ n: number }>(h, 'SELECT count(*)::int AS n FROM bookings WHERE business_id = $1', [businessId]);
  return row!.n;
}

export function newKey(): Record<string, string> {
  return { 'idempotency-key': randomUUID() };
}

export function expectError(r: JsonResponse, status: number, code: string): void {
  assert.equal(r.status, status, r.raw);
  assert.equal(r.body?.ok, false, r.raw);
  assert.equal(r.body.error.code, code, r.raw);
}

const HEX32 = /^[0-9a-f]{32}$/;

/**
 * The event-log rules every booking must satisfy: sequences 1..n in order, each payload's
 * transition.sequence equal to its booking.stateVersion, the payload describing its own state
 * (status = transition.to), chained from/to, 32-hex deliveryIds unique and deterministic, a
 * transition id null only on creation and new on every later change; the last one is the booking now.
 */
export function checkEventLog(events: any[], current: any): void {
  assert.ok(events.length >= 1);
  const deliveryIds = new Set<string>();
  const transitionIds = new Set<string>();
  events.forEach((e, i) => {
    const where = `event ${i + 1} (${e.event})`;
    assert.deepEqual(Object.keys(e).sort(), ['booking', 'deliveryId', 'event', 'salonSlug', 'timestamp', 'transition'], where);
    assert.equal(e.transition.sequence, i + 1, where);
    assert.equal(e.booking.stateVersion, e.transition.sequence, where);
    assert.equal(e.booking.status, e.transition.to, where);
    assert.equal(e.booking.bookingId, current.bookingId, where);
    assert.equal(e.transition.from, i === 0 ? null : events[i - 1].transition.to, where);
    assert.match(e.deliveryId, HEX32, where);
    assert.equal(e.deliveryId, deliveryIdFor(e.event, current.bookingId, e.transition.sequence), where);
    assert.ok(!deliveryIds.has(e.deliveryId), `${where}: deliveryId repeated`);
    deliveryIds.add(e.deliveryId);
    if (i === 0) {
      assert.equal(e.transition.id, null, where);
    } else {
      assert.equal(typeof e.transition.id, 'string', where);
      assert.ok(!transitionIds.has(e.transition.id), `${where}: transition id repeated`);
      transitionIds.add(e.transition.id);
    }
    assert.equal(e.timestamp, e.transition.occurredAt, where);
    assert.equal(e.booking.updatedAt, e.transition.occurredAt, where);
    assert.ok(!Number.isNaN(Date.parse(e.timestamp)), where);
  });
  const last = events[events.length - 1];
  assert.equal(last.transition.sequence, current.stateVersion);
  assert.deepEqual(last.booking, current);
}

/**
 * A guest confirmation email planned for a booking, as the booking's own would be where no mail
 * server is configured (a message for the routes that act on one); returns its id.
 */
export async function planConfirmation(h: Harness, businessId: string, bookingId: string, recipient: string): Promise<string> {
  const id = newId('msg');
  await h.db.transaction((tx) =>
    planMessages(tx, [
      {
        id,
        businessId,
        bookingId,
        kind: 'booking.confirmed',
        channel: 'email',
        audience: 'guest',
        recipient,
        lang: 'en',
        uniqueKey: `test-confirmation:${id}`,
        scheduledAt: new Date(),
      },
    ]),
  );
  return id;
}
