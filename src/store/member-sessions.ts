import type { MemberLanguage } from '../domain/members/member-view.ts';
import type { MemberRole } from '../domain/members/roles.ts';
import type { Queryable } from './db.ts';

/** A live session with what authorisation needs: whose it is and their role in each business. */
export interface LiveSession {
  sessionId: string;
  userId: string;
  email: string;
  name: string;
  language: MemberLanguage;
  memberships: Array<{ businessId: string; businessSlug: string; businessName: string; role: MemberRole }>;
}

/**
 * Expiry is reckoned on the database's clock, as every later check of it is, so an app whose clock
 * differs (a test's fixed "now", a skewed host) cannot make a session born expired or eternal.
 *
 * `passwordHash` is the hash the caller checked the password against: the session is made only while
 * the account still has it, under a share lock on the account's row. A password reset (which
 * updates that row, then ends every session) committed during the ~0.1 s of the caller's hash check
 * then leaves no session made with the old password: either this waits for the reset and finds the
 * hash changed (undefined), or the reset waits for this and ends the new session too.
 */
export async function insertSession(
  q: Queryable,
  s: { id: string; userId: string; tokenHash: string; maxSeconds: number; passwordHash: string },
): Promise<Date | undefined> {
  const r = await q.query<{ expires_at: Date }>(
    `WITH account AS (
       SELECT id FROM users WHERE id = $2 AND password_hash = $5 FOR SHARE
     )
     INSERT INTO member_sessions (id, user_id, token_hash, expires_at)
     SELECT $1, account.id, $3, now() + make_interval(secs => $4) FROM account
     RETURNING expires_at`,
    [s.id, s.userId, s.tokenHash, s.maxSeconds, s.passwordHash],
  );
  return r.rows[0]?.expires_at;
}

/**
 * Read on every cookie-authenticated request, never cached: sign-out, member removal and a role
 * change are seen by the very next request on every instance. `idleSeconds` bounds the time since
 * the session was last seen; the same statement moves `last_seen_at` when it is a minute old or more
 * (SKIP LOCKED, as the API-key stamp), so idle expiry is accurate to a minute at one write per
 * session per minute.
 */
export async function findLiveSession(q: Queryable, tokenHash: string, idleSeconds: number): Promise<LiveSession | undefined> {
  const r = await q.query<{
    session_id: string;
    user_id: string;
    email: string;
    name: string;
    language: MemberLanguage;
    memberships: Array<{ businessId: string; businessSlug: string; businessName: string; role: MemberRole }> | null;
  }>(
    `WITH found AS (
       SELECT s.id, s.user_id, s.last_seen_at
         FROM member_sessions s
        WHERE s.token_hash = $1
          AND s.ended_at IS NULL
          AND s.expires_at > now()
          AND s.last_seen_at > now() - make_interval(secs => $2)
     ), seen AS (
       UPDATE member_sessions SET last_seen_at = now()
        WHERE id = (SELECT s.id FROM member_sessions s
                     WHERE s.id = (SELECT id FROM found)
                       AND s.last_seen_at < now() - interval '1 minute'
                     FOR UPDATE SKIP LOCKED)
     )
     SELECT f.id AS session_id, u.id AS user_id, u.email, COALESCE(u.name, u.email) AS name, u.language,
            (SELECT json_agg(json_build_object('businessId', b.id, 'businessSlug', b.slug,
                                               'businessName', b.name, 'role', m.role) ORDER BY b.name, b.slug)
               FROM memberships m JOIN businesses b ON b.id = m.business_id
              WHERE m.user_id = u.id) AS memberships
       FROM found f JOIN users u ON u.id = f.user_id`,
    [tokenHash, idleSeconds],
  );
  const row = r.rows[0];
  if (!row) return undefined;
  return {
    sessionId: row.session_id,
    userId: row.user_id,
    email: row.email,
    name: row.name,
    language: row.language,
    memberships: row.memberships ?? [],
  };
}

export async function endSession(q: Queryable, sessionId: string): Promise<void> {
  await q.query('UPDATE member_sessions SET ended_at = now() WHERE id = $1 AND ended_at IS NULL', [sessionId]);
}

/** Every open session of a user: a user who has no membership left has nothing to sign in to. */
export async function endSessionsOfUser(q: Queryable, userId: string): Promise<number> {
  const r = await q.query('UPDATE member_sessions SET ended_at = now() WHERE user_id = $1 AND ended_at IS NULL', [userId]);
  return r.rowCount;
}
