/** A member's role in one business (business-side.md "Principals"). */
export const MEMBER_ROLES = ['owner', 'manager', 'frontDesk'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/**
 * Who may call an operator route, as route data. `platform`: only the platform operator (routes that
 * are not about one business's day-to-day: creating businesses, subscriptions). Otherwise the roles
 * a member needs in the business the route touches; the platform operator may always call it.
 */
export type RouteRoles = 'platform' | readonly MemberRole[];

/** The role table of business-side.md, one constant per row group, so routes name intent. */
export const ROLES = {
  /** members and invitations, API key writes, webhook configuration */
  owner: ['owner'],
  /** locations, catalogue, staff, hours, time off writes; API keys and delivery log reads */
  managers: ['owner', 'manager'],
  /** bookings, and reads of catalogue, staff, hours and time off */
  everyone: ['owner', 'manager', 'frontDesk'],
} as const satisfies Record<string, readonly MemberRole[]>;

/** The name `details.required` gives the platform operator when a route is theirs alone. */
export const PLATFORM_OPERATOR = 'platformOperator';

export function roleAllows(allowed: RouteRoles, role: MemberRole): boolean {
  return allowed !== 'platform' && allowed.includes(role);
}

/** `details.required` of a 403 auth.insufficient_capability for a member. */
export function requiredRoles(allowed: RouteRoles): string[] {
  return allowed === 'platform' ? [PLATFORM_OPERATOR] : [...allowed];
}
