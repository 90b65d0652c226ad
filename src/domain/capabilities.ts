export const CAPABILITIES = [
  'availability.read',
  'booking.create',
  'booking.read',
  'booking.cancel',
  'services.read',
  'staff.read',
  'webhook.manage',
  'subscription.read',
] as const;

export type Capability = (typeof CAPABILITIES)[number];

/** What a guest_partner key may hold (and, through the route table, call). */
export const GUEST_PARTNER_CAPABILITIES: readonly Capability[] = ['services.read', 'staff.read', 'availability.read', 'booking.create'];

export type KeyKind = 'owner' | 'guest_partner';
export type KeyType = 'personal' | 'integration';
export type Tier = 'standard' | 'elevated';
