import type { MemberRole } from './roles.ts';

/** `data.member` of the session routes (business-side.md): who is signed in, and where. */
export interface MemberView {
  id: string;
  email: string;
  name: string;
  memberships: Array<{ salonSlug: string; businessName: string; role: MemberRole }>;
}

export function memberView(
  user: { id: string; email: string; name: string },
  memberships: ReadonlyArray<{ businessSlug: string; businessName: string; role: MemberRole }>,
): MemberView {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    memberships: memberships.map((m) => ({ salonSlug: m.businessSlug, businessName: m.businessName, role: m.role })),
  };
}
