import type { Capability, KeyKind, KeyType, Tier } from '../domain/capabilities.ts';
import type { Plan, SubscriptionStatus } from '../domain/plans.ts';
import type { Queryable } from './db.ts';

export interface KeyWithBusiness {
  id: string;
  business_id: string;
  business_slug: string;
  kind: KeyKind;
  capabilities: Capability[];
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
 * Read on every request the key cache (src/cache/) cannot answer, so a revocation or expiry is effective on the very next
 * request on every instance. The same statement records the use when the recorded one is a minute
 * old or more: the UPDATE matches no row on every other request, so the lookup stays one indexed
 * read that takes no lock and writes nothing; concurrent requests past the minute write once (the
 * second re-checks the condition after the first commits).
 */
export async function findUsableKey(q: Queryable, hash: string): Promise<KeyWithBusiness | undefined> {
  const r = await q.query<KeyWithBusiness>(
    `/* unversioned */ WITH found AS (
       SELECT k.id, k.business_id, b.slug AS business_slug, k.kind, k.capabilities, k.tier,
              s.plan, s.status, s.feature_overrides, k.last_used_at, k.expires_at,
              COALESCE(v.version, 0) AS version, COALESCE(o.version, 0) AS occupancy
         FROM api_keys k
         JOIN businesses b ON b.id = k.business_id
         JOIN subscriptions s ON s.business_id = k.business_id
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
     SELECT id, business_id, business_slug, kind, capabilities, tier, plan, status, feature_overrides, expires_at, version, occupancy FROM found`,
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
 * `not_member`: a personal key acts for a member, so it is issued only to an existing member of the
 * key's business (never to a user of another business, never by making one). Call it inside a
 * transaction: the membership row stays share-locked until commit, so a concurrent removal of the
 * member either waits and then revokes this key too, or wins and this insert answers `not_member`.
 */
export async function insertKey(q: Queryable, k: NewKey): Promise<KeyRow | 'not_member'> {
  if (k.userId !== null) {
    const m = await q.query('SELECT 1 FROM memberships WHERE business_id = $1 AND user_id = $2 FOR SHARE', [k.businessId, k.userId]);
    if (m.rows.length === 0) return 'not_member';
  }
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
