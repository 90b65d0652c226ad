import { hashToken, isWellFormedToken } from '../../domain/members/secret-token.ts';
import { SESSION_IDLE_SECONDS } from '../../domain/members/session-policy.ts';
import type { Db } from '../../store/db.ts';
import { findLiveSession, type LiveSession } from '../../store/member-sessions.ts';
import { businessOf, type BusinessLocator } from '../../store/resource-business.ts';

/** The live session a cookie value names, or undefined (malformed, unknown, ended, idle or too old). */
export async function sessionOfCookie(db: Db, cookieValue: string | undefined): Promise<LiveSession | undefined> {
  if (cookieValue === undefined || !isWellFormedToken(cookieValue)) return undefined;
  return findLiveSession(db, hashToken(cookieValue), SESSION_IDLE_SECONDS);
}

/**
 * The business a route's parameter points into. A slug is resolved from the member's own
 * memberships (no query): a slug that is not theirs is out of scope whether or not it exists.
 */
export async function businessOfRoute(
  db: Db,
  session: LiveSession,
  locator: BusinessLocator,
  value: string | undefined,
): Promise<string | undefined> {
  if (value === undefined) return undefined;
  if (locator === 'slug') return session.memberships.find((m) => m.businessSlug === value)?.businessId;
  return businessOf(db, locator, value);
}
