import type { Capability, KeyKind, KeyType, Tier } from '../domain/capabilities.ts';
import type { MemberRole } from '../domain/members/roles.ts';
import type { Plan, SubscriptionStatus } from '../domain/plans.ts';
import type { Queryable } from './db.ts';

export interface KeyWithBusiness {
  id: string;
  business_id: string;
  business_slug: string;
  type: KeyType;
  kind: KeyKind;
  /** as stored; a personal key acts with those its holder's role allows (domain/members/key-authority.ts) */
  capabilities: Capability[];
  /** a personal key's holder's role in the key's business, in the same snapshot; null for an integration key */
  holder_role: MemberRole | null;
  tier: Tier;
  plan: Plan | null;
  status: SubscriptionStatus;
  feature_overrides: Record<string, unknown>;
  expires_at: Date | null;
  /** the business's version (business_versions) in the same snapshot as the rest */
  version: number;
  /** the business's occupancy version (migration 012), in the same snapshot */
  occupancy: number;
}

/**
 * Read on every request the key cache (src/cache/) cannot answer, so a revocation, an expiry or a
 * change of a personal key's holder's role is effective on the very next request on every
 * instance. The same statement records the use when the recorded one is a minute old or more: the
 * UPDATE matches no row on every other request, so the lookup stays one indexed read that takes no
 * lock and writes nothing; concurrent requests past the minute write once (the second re-checks
 * the condition after the first commits).
 */
export async function findUsableKey(q: Queryable, hash: string): Promise<KeyWithBusiness | undefined> {
  const r = await q.query<KeyWithBusiness>(
    `/* unversioned */ WITH found AS (
       SELECT k.id, k.business_id, b.slug AS business_slug, k.type, k.kind, k.capabilities, m.role AS holder_role, k.tier,
              s.plan, s.status, s.feature_overrides, k.last_used_at, k.expires_at,
              COALESCE(v.version, 0) AS version, COALESCE(o.version, 0) AS occupancy
         FROM api_keys k
         JOIN businesses b ON b.id = k.business_id
         JOIN subscriptions s ON s.business_id = k.business_id
         -- A role change bumps the business version (memberships_version), so a key cached with
         -- this role is not trusted after it.
         LEFT JOIN memberships m ON m.business_id = k.business_id AND m.user_id = k.user_id
         LEFT JOIN business_versions v ON v.business_id = k.business_id
         LEFT JOIN business_versions o ON o.business_id = 'occ:' || k.business_id
        WHERE k.secret_hash = $1
          AND k.revoked_at IS NULL
          AND (k.expires_at IS NULL OR k.expires_at > now())
     ), used AS (
       -- SKIP LOCKED: when a busy key's minute is up, one of its concurrent requests writes the
       -- stamp and the others go on instead of queueing behind that row lock.
       UPDATE api_keys SET last_used_at = now()
        WHERE id = (SELECT k.id FROM api_keys k
                     WHERE k.id = (SELECT id FROM found)
                       AND (k.last_used_at IS NULL OR k.last_used_at <= now() - interval '1 minute')
                       FOR UPDATE SKIP LOCKED)
        RETURNING 1
     )
     SELECT id, business_id, business_slug, type, kind, capabilities, holder_role, tier, plan, status, feature_overrides, expires_at, version, occupancy FROM found`,
    [hash],
  );
  return r.rows[0];
}

export interface NewKey {
  id: string;
  businessId: string;
  name: string;
  type: KeyType;
  kind: KeyKind;
  capabilities: Capability[];
  tier: Tier;
  prefix: string;
  hash: string;
  userId: string | null;
  expiresAt: string | null;
}

export interface KeyRow {
  id: string;
  name: string;
  type: KeyType;
  kind: KeyKind;
  capabilities: Capability[];
  tier: Tier;
  prefix: string;
  user_id: string | null;
  expires_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
  last_used_at: Date | null;
}

const KEY_COLUMNS = 'id, name, type, kind, capabilities, tier, prefix, user_id, expires_at, revoked_at, created_at, last_used_at';

/**
 * The role of the member a personal key is to be issued to, or undefined when `userId` is not a
 * member of the business (a key is never issued to a user of another business, nor makes one a
 * member). Call it inside the transaction that inserts the key: the membership row stays
 * share-locked until commit, so a concurrent removal or role change waits for the key and then
 * revokes or narrows it too, or goes first and this read sees its outcome.
 */
export async function lockHolderRole(q: Queryable, businessId: string, userId: string): Promise<MemberRole | undefined> {
  const m = await q.query<{ role: MemberRole }>('SELECT role FROM memberships WHERE business_id = $1 AND user_id = $2 FOR SHARE', [
    businessId,
    userId,
  ]);
  return m.rows[0]?.role;
}

/**
 * A personal key (`userId` set) only after lockHolderRole, in the same transaction, found its holder
 * a member whose role allows the key's capabilities.
 */
export async function insertKey(q: Queryable, k: NewKey): Promise<KeyRow> {
  const r = await q.query<KeyRow>(
    `INSERT INTO api_keys (id, business_id, name, type, kind, capabilities, tier, prefix, secret_hash, user_id, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     RETURNING ${KEY_COLUMNS}`,
    [k.id, k.businessId, k.name, k.type, k.kind, k.capabilities, k.tier, k.prefix, k.hash, k.userId, k.expiresAt],
  );
  return r.rows[0]!;
}

export async function revokeKey(q: Queryable, keyId: string): Promise<KeyRow | undefined> {
  const r = await q.query<KeyRow>(`UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now()) WHERE id = $1 RETURNING ${KEY_COLUMNS}`, [
    keyId,
  ]);
  return r.rows[0];
}

/** The user loses access: membership gone and every personal key of theirs revoked, together. */
export async function removeMember(q: Queryable, businessId: string, userId: string): Promise<number> {
  await q.query('DELETE FROM memberships WHERE business_id = $1 AND user_id = $2', [businessId, userId]);
  const r = await q.query(
    `UPDATE api_keys SET revoked_at = now()
      WHERE business_id = $1 AND user_id = $2 AND type = 'personal' AND revoked_at IS NULL`,
    [businessId, userId],
  );
  return r.rowCount;
}

/** Every key of the business, revoked and expired ones too; the caller orders them. Never the hash. */
export async function listKeys(q: Queryable, businessId: string): Promise<KeyRow[]> {
  const r = await q.query<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE business_id = $1`, [businessId]);
  return r.rows;
}
