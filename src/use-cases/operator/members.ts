import { AppError } from '../../domain/errors.ts';
import { takesLastOwner } from '../../domain/members/owner-rule.ts';
import type { MemberRole } from '../../domain/members/roles.ts';
import type { Db, Queryable } from '../../store/db.ts';
import { removeMember } from '../../store/api-keys.ts';
import { endSessionsOfUser } from '../../store/member-sessions.ts';
import { countMembershipsOf, findMember, listMembers, lockMemberships, setMemberRole, type MemberRecord } from '../../store/memberships.ts';
import { transactionWithRetry } from '../../store/tx-retry.ts';
import { requireBusiness } from './businesses.ts';

/** A member as the business's members list shows them (business-side.md). */
export interface MemberListView {
  id: string;
  /** null for a user from before accounts (the holder of a personal key), who cannot sign in */
  email: string | null;
  name: string;
  role: MemberRole;
  /** when they became a member of this business */
  createdAt: string;
}

function memberListView(m: MemberRecord): MemberListView {
  return { id: m.userId, email: m.email, name: m.name, role: m.role, createdAt: m.createdAt.toISOString() };
}

/** Members in the order they joined. */
export async function listBusinessMembers(db: Db, businessSlug: string): Promise<MemberListView[]> {
  return db.transaction(async (tx) => {
    const b = await requireBusiness(tx, businessSlug);
    return (await listMembers(tx, b.id)).map(memberListView);
  });
}

/**
 * The business's memberships, locked, and the one being changed. Any change of memberships of one
 * business waits here for the one before it, so the last-owner rule is decided on rows that cannot
 * move until this transaction ends (two owners demoting each other at once: one wins, one gets 409).
 */
async function lockForChange(tx: Queryable, businessSlug: string, userId: string, newRole: MemberRole | null) {
  const b = await requireBusiness(tx, businessSlug);
  const members = await lockMemberships(tx, b.id);
  if (!members.some((m) => m.userId === userId)) {
    throw new AppError('request.not_found', `No member with id "${userId}" in this business.`);
  }
  if (takesLastOwner(members, userId, newRole)) throw new AppError('member.last_owner');
  return b;
}

/** A new role, in force from the member's very next request (the session reads roles each time). */
export async function changeMemberRole(db: Db, businessSlug: string, userId: string, role: MemberRole): Promise<MemberListView> {
  return transactionWithRetry(db, async (tx) => {
    const b = await lockForChange(tx, businessSlug, userId, role);
    await setMemberRole(tx, b.id, userId, role);
    return memberListView((await findMember(tx, b.id, userId))!);
  });
}

/**
 * The member loses access now: the membership goes, their personal keys of the business are
 * revoked, and when it was their last membership every session of theirs ends (with another
 * business left, the session stays for it; this business is out of its scope from the next request).
 */
export async function removeBusinessMember(
  db: Db,
  businessSlug: string,
  userId: string,
): Promise<{ userId: string; revokedKeys: number; endedSessions: number }> {
  return transactionWithRetry(db, async (tx) => {
    const b = await lockForChange(tx, businessSlug, userId, null);
    const revokedKeys = await removeMember(tx, b.id, userId);
    const endedSessions = (await countMembershipsOf(tx, userId)) === 0 ? await endSessionsOfUser(tx, userId) : 0;
    return { userId, revokedKeys, endedSessions };
  });
}
