import { currentMessages } from './i18n/index.ts';
import { useSession } from './auth.ts';

export type Role = 'owner' | 'manager' | 'frontDesk';

/** The signed-in member's role in the business of the page (undefined while the session loads). */
export function useRole(slug: string): Role | undefined {
  const { data: member } = useSession();
  return member?.memberships.find((m) => m.salonSlug === slug)?.role;
}

/** Role names in the language the page is shown in (one getter per role). */
export const ROLE_LABELS = Object.defineProperties(
  {},
  Object.fromEntries(
    (['owner', 'manager', 'frontDesk'] as const).map((r) => [r, { enumerable: true, get: () => currentMessages().shell.roles[r] }]),
  ),
) as Readonly<Record<Role, string>>;
