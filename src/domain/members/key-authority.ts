import { CAPABILITIES, type Capability, type KeyType } from '../capabilities.ts';
import type { MemberRole } from './roles.ts';

/**
 * The public capabilities that act on what the role table gives the owner alone: the webhook (its
 * URL and signing secret) and the business's plan.
 */
export const OWNER_ONLY_CAPABILITIES: readonly Capability[] = ['webhook.manage', 'subscription.read'];

/**
 * What a personal key may act with for each role of its holder (members-and-sessions.md, "Keys a
 * member issues"): a key never does through `/v1` what its holder may not do in the dashboard.
 */
export const PERSONAL_KEY_CAPABILITIES: Readonly<Record<MemberRole, readonly Capability[]>> = {
  owner: CAPABILITIES,
  manager: CAPABILITIES.filter((c) => !OWNER_ONLY_CAPABILITIES.includes(c)),
  frontDesk: CAPABILITIES.filter((c) => !OWNER_ONLY_CAPABILITIES.includes(c)),
};

/** The capabilities of `capabilities` that `role` does not allow a personal key, in their order. */
export function beyondRole(capabilities: readonly Capability[], role: MemberRole): Capability[] {
  const allowed = PERSONAL_KEY_CAPABILITIES[role];
  return capabilities.filter((c) => !allowed.includes(c));
}

/**
 * What a key may act with now. An integration key: what it holds. A personal key: what it holds
 * that its holder's current role allows; with no membership (`holderRole` null) nothing, although
 * removing a member revokes their keys in the same transaction, so such a key is not usable anyway.
 */
export function effectiveCapabilities(key: {
  type: KeyType;
  capabilities: readonly Capability[];
  holderRole: MemberRole | null;
}): Capability[] {
  if (key.type !== 'personal') return [...key.capabilities];
  if (key.holderRole === null) return [];
  const allowed = PERSONAL_KEY_CAPABILITIES[key.holderRole];
  return key.capabilities.filter((c) => allowed.includes(c));
}
