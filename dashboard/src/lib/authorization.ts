import { useSession } from './auth.ts';

export type Role = 'owner' | 'manager' | 'frontDesk';

/** The signed-in member's role in the business of the page (undefined while the session loads). */
export function useRole(slug: string): Role | undefined {
  const { data: member } = useSession();
  return member?.memberships.find((m) => m.salonSlug === slug)?.role;
}

export const ROLE_LABELS: Record<Role, string> = { owner: 'Owner', manager: 'Manager', frontDesk: 'Front desk' };
