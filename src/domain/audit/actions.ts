/**
 * The audit log's action of each write route of the operator API (clients-and-reports.md "Audit
 * log"): `<resource>.<verb>`, keyed by method and OpenAPI path without `/admin/v1`. A POST that only
 * reads (a check, an explanation) is `null`: it changes nothing, so nothing is recorded. Kept in one
 * table so that a new write route without an action fails test/audit-log.test.ts, which walks the
 * route table.
 */
export const AUDIT_ACTIONS: Readonly<Record<string, string | null>> = {
  'POST /businesses': 'business.create',
  'PATCH /businesses/{slug}': 'business.update',
  'PATCH /businesses/{slug}/subscription': 'subscription.update',
  'POST /businesses/{slug}/api-keys': 'apiKey.create',
  'DELETE /api-keys/{keyId}': 'apiKey.revoke',
  'POST /businesses/{slug}/invitations': 'invitation.create',
  'DELETE /invitations/{invitationId}': 'invitation.withdraw',
  'PATCH /businesses/{slug}/members/{userId}': 'member.update',
  'DELETE /businesses/{slug}/members/{userId}': 'member.remove',
  'POST /businesses/{slug}/locations': 'location.create',
  'PATCH /businesses/{slug}/locations/{locationSlug}': 'location.update',
  'POST /businesses/{slug}/locations/{locationSlug}/calendar-feed': 'calendarFeed.create',
  'POST /businesses/{slug}/services': 'service.create',
  'PATCH /services/{serviceId}': 'service.update',
  'POST /services/{serviceId}/sessions': 'groupSession.create',
  'POST /businesses/{slug}/staff': 'staff.create',
  'PATCH /staff/{staffId}': 'staff.update',
  'POST /staff/{staffId}/time-off': 'timeOff.create',
  'DELETE /time-off/{timeOffId}': 'timeOff.delete',
  'POST /staff/{staffId}/calendar-feed': 'calendarFeed.create',
  'POST /businesses/{slug}/resources': 'resource.create',
  'PATCH /resources/{resourceId}': 'resource.update',
  'POST /businesses/{slug}/bookings': 'booking.create',
  'POST /businesses/{slug}/bookings/check': null,
  'POST /bookings/{bookingId}/accept': 'booking.accept',
  'POST /bookings/{bookingId}/decline': 'booking.decline',
  'POST /bookings/{bookingId}/propose': 'booking.propose',
  'POST /bookings/{bookingId}/accept-proposal': 'booking.acceptProposal',
  'POST /bookings/{bookingId}/reschedule': 'booking.reschedule',
  'POST /bookings/{bookingId}/complete': 'booking.complete',
  'POST /bookings/{bookingId}/no-show': 'booking.noShow',
  'POST /bookings/{bookingId}/cancel': 'booking.cancel',
  'POST /bookings/{bookingId}/deposit': 'booking.deposit',
  'POST /bookings/{bookingId}/manage-link': 'booking.manageLink',
  'POST /visits/{visitId}/cancel': 'visit.cancel',
  'POST /businesses/{slug}/availability/explain': null,
  'PUT /businesses/{slug}/webhook': 'webhook.configure',
  'POST /businesses/{slug}/webhook/rotate-secret': 'webhook.rotateSecret',
  'DELETE /businesses/{slug}/webhook': 'webhook.delete',
  'POST /businesses/{slug}/webhook/deliveries/{deliveryId}/redeliver': 'webhookDelivery.redeliver',
  'PATCH /businesses/{slug}/guest-settings': 'guestSettings.update',
  'POST /notifications/{notificationId}/resend': 'notification.resend',
  'PATCH /clients/{clientId}': 'client.update',
  'POST /clients/{clientId}/erase': 'client.erase',
};

/** The guest's own actions on the manage page (guest-side.md), recorded by those pages. */
export const GUEST_ACTIONS = { cancel: 'booking.cancel', reschedule: 'booking.reschedule' } as const;

/**
 * The one account route that changes a business: accepting an invitation adds a member to it. The
 * other account routes (sign-in and out, the member's language, password reset) are the member's
 * own and belong to no business's log.
 */
export const ACCOUNT_ACTIONS = { acceptInvitation: 'member.join' } as const;

export type AuditActorType = 'operator' | 'member' | 'guest';

export interface NewAuditEntry {
  businessId: string;
  actor: { type: AuditActorType; id: string | null; name: string | null; role: string | null };
  action: string;
  target: { type: string; id: string | null };
  requestId: string | null;
  /** the names of the fields sent, never their values */
  fields: string[];
}

/** `service.update` → `service`: the target's type is the action's resource. */
export function targetTypeOf(action: string): string {
  return action.slice(0, action.indexOf('.'));
}

/** The top-level field names of a write's body (what was changed), sorted; never a value. */
export function fieldNamesOf(body: unknown): string[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return [];
  return Object.keys(body).sort();
}

/**
 * The id of what a write acted on: the route's own id parameter (the last one, `…/members/{userId}`
 * names the member), else the id the answer gives the created record (`data.<x>.id`, or
 * `data.<x>.<x>Id` as bookings name theirs), else the business.
 */
export function targetIdOf(params: Record<string, string | undefined>, data: unknown, businessId: string | null): string | null {
  const ids = Object.entries(params).filter(([k]) => k.endsWith('Id') || k === 'locationSlug');
  if (ids.length > 0) return ids[ids.length - 1]![1] ?? null;
  if (data !== null && typeof data === 'object') {
    for (const value of Object.values(data as Record<string, unknown>)) {
      if (value === null || typeof value !== 'object') continue;
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        if ((k === 'id' || /^[a-z]+Id$/.test(k)) && typeof v === 'string') return v;
      }
    }
  }
  return businessId;
}
