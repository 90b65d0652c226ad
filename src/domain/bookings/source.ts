import type { KeyKind } from '../capabilities.ts';
import type { EventActor } from './event-row.ts';

/** The values operator reads show as `source` (guest-side.md "The booking page"). */
export const SOURCE_KINDS = ['api', 'bookingPage', 'manual'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

/**
 * Who made a booking: an integrator with its API key, a guest on the salon's booking page, or the
 * business itself (a signed-in member, or the platform operator's token). Known to the create path
 * in place of the key it used to be handed; stored beside the booking and shown only to the
 * business, never in a public read or a webhook.
 */
export type BookingSource =
  | { kind: 'api'; keyId: string; keyKind: KeyKind }
  | { kind: 'bookingPage' }
  | { kind: 'manual'; by: ManualAuthor };

/** Who wrote a manual booking: a signed-in member (their user id), or the platform operator. */
export type ManualAuthor = { member: string } | { operator: true };

/** The booking row's columns for its source. */
export interface SourceRow {
  kind: SourceKind;
  /** the key of a guest_partner booking (spec: tagged with `apiSource`); null otherwise */
  apiKeyId: string | null;
  /** the member who wrote a manual booking; null otherwise (also for the platform operator) */
  memberId: string | null;
}

/**
 * Only a guest_partner key is recorded on its bookings: the spec tags partner bookings with their
 * key so the business can tell them apart; an owner key is the business's own, so only `api` says.
 */
export function sourceRow(source: BookingSource): SourceRow {
  switch (source.kind) {
    case 'api':
      return { kind: 'api', apiKeyId: source.keyKind === 'guest_partner' ? source.keyId : null, memberId: null };
    case 'bookingPage':
      return { kind: 'bookingPage', apiKeyId: null, memberId: null };
    case 'manual':
      return { kind: 'manual', apiKeyId: null, memberId: 'member' in source.by ? source.by.member : null };
  }
}

/** Who a booking's first events name as their actor: the guest on the page, the key, the member or the operator. */
export function actorOfSource(source: BookingSource): EventActor {
  switch (source.kind) {
    case 'api':
      return 'api';
    case 'bookingPage':
      return 'guest';
    case 'manual':
      return actorOfAuthor(source.by);
  }
}

export function actorOfAuthor(by: ManualAuthor): EventActor {
  return 'member' in by ? 'member' : 'operator';
}
