import type { Queryable } from './db.ts';

/** The route parameters that name a business's resource; each route says which one it has. */
export type BusinessLocator =
  | 'slug'
  | 'bookingId'
  | 'serviceId'
  | 'staffId'
  | 'timeOffId'
  | 'keyId'
  | 'invitationId'
  | 'notificationId'
  | 'resourceId'
  | 'visitId'
  | 'clientId';

/** A slug is not looked up: a member's own memberships name their businesses' slugs (authenticate.ts). */
export type IdLocator = Exclude<BusinessLocator, 'slug'>;

const LOOKUP: Record<IdLocator, string> = {
  bookingId: 'SELECT business_id FROM bookings WHERE id = $1',
  serviceId: 'SELECT business_id FROM services WHERE id = $1',
  staffId: 'SELECT business_id FROM staff WHERE id = $1',
  timeOffId: 'SELECT s.business_id FROM time_off t JOIN staff s ON s.id = t.staff_id WHERE t.id = $1',
  keyId: 'SELECT business_id FROM api_keys WHERE id = $1',
  invitationId: 'SELECT business_id FROM invitations WHERE id = $1',
  notificationId: 'SELECT business_id FROM messages WHERE id = $1',
  resourceId: 'SELECT business_id FROM resources WHERE id = $1',
  visitId: 'SELECT business_id FROM visits WHERE id = $1',
  clientId: 'SELECT business_id FROM clients WHERE id = $1',
};

/** The business a route's resource belongs to; undefined when there is no such resource. */
export async function businessOf(q: Queryable, locator: IdLocator, value: string): Promise<string | undefined> {
  const r = await q.query<{ business_id: string }>(LOOKUP[locator], [value]);
  return r.rows[0]?.business_id;
}
