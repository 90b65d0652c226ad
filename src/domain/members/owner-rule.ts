import type { MemberRole } from './roles.ts';

/**
 * business-side.md: a business keeps at least one owner. True when giving `userId` the role
 * `newRole` (`null`: removing them) would take the last owner away. A business that has no owner
 * yet (set up by the platform operator, its first owner still invited) loses none by any change.
 */
export function takesLastOwner(
  members: ReadonlyArray<{ userId: string; role: MemberRole }>,
  userId: string,
  newRole: MemberRole | null,
): boolean {
  const target = members.find((m) => m.userId === userId);
  if (target?.role !== 'owner' || newRole === 'owner') return false;
  return !members.some((m) => m.userId !== userId && m.role === 'owner');
}
