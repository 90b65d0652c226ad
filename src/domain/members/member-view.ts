import type { MemberRole } from './roles.ts';

/** The dashboard's languages; the member chooses (PATCH /session). */
export const MEMBER_LANGUAGES = ['en', 'hu'] as const;
export type MemberLanguage = (typeof MEMBER_LANGUAGES)[number];

/** `data.member` of the session routes (business-side.md): who is signed in, and where. */
export interface MemberView {
  id: string;
  email: string;
  name: string;
  language: MemberLanguage;
  memberships: Array<{ salonSlug: string; businessName: string; role: MemberRole }>;
}

export function memberView(
  user: { id: string; email: string; name: string; language: MemberLanguage },
  memberships: ReadonlyArray<{ businessSlug: string; businessName: string; role: MemberRole }>,
): MemberView {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    language: user.language,
    memberships: memberships.map((m) => ({ salonSlug: m.businessSlug, businessName: m.businessName, role: m.role })),
  };
}
