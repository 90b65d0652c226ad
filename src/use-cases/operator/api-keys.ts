import { generateApiKeySecret } from '../../domain/api-key-secret.ts';
import { GUEST_PARTNER_CAPABILITIES, type Capability, type KeyKind, type KeyType, type Tier } from '../../domain/capabilities.ts';
import { AppError, invalidField } from '../../domain/errors.ts';
import { newId } from '../../domain/ids.ts';
import { beyondRole } from '../../domain/members/key-authority.ts';
import { byNameThenId } from '../../domain/catalog-view.ts';
import type { Db } from '../../store/db.ts';
import { insertKey, listKeys, lockHolderRole, revokeKey, type KeyRow } from '../../store/api-keys.ts';
import { requireBusiness } from './businesses.ts';

export interface ApiKeyView {
  id: string;
  name: string;
  type: KeyType;
  kind: KeyKind;
  capabilities: Capability[];
  tier: Tier;
  prefix: string;
  userId?: string;
  expiresAt: string | null;
  revokedAt: string | null;
  createdAt: string;
  /** accurate to a minute: the auth lookup records a use at most once a minute per key */
  lastUsedAt: string | null;
}

export interface CreateKeyInput {
  name: string;
  type: KeyType;
  kind: KeyKind;
  capabilities: Capability[];
  tier?: Tier;
  expiresAt?: string;
  userId?: string;
}

export function apiKeyView(k: KeyRow): ApiKeyView {
  const v: ApiKeyView = {
    id: k.id,
    name: k.name,
    type: k.type,
    kind: k.kind,
    capabilities: k.capabilities,
    tier: k.tier,
    prefix: k.prefix,
    expiresAt: k.expires_at ? k.expires_at.toISOString() : null,
    revokedAt: k.revoked_at ? k.revoked_at.toISOString() : null,
    createdAt: k.created_at.toISOString(),
    lastUsedAt: k.last_used_at ? k.last_used_at.toISOString() : null,
  };
  if (k.user_id !== null) v.userId = k.user_id;
  return v;
}

export async function createApiKey(
  db: Db,
  businessSlug: string,
  input: CreateKeyInput,
  now: Date,
  caller: 'platform' | 'member',
): Promise<ApiKeyView & { secret: string }> {
  // The tier multiplies the public rate limits by five: the platform's decision (decisions.md, "set
  // by the operator"), not one a business makes for its own keys.
  if (input.tier === 'elevated' && caller !== 'platform') {
    throw new AppError('auth.insufficient_capability', 'Only the platform operator may give a key the elevated tier.', {
      required: ['platformOperator'],
    });
  }
  const capabilities = [...new Set(input.capabilities)];
  if (input.kind === 'guest_partner') {
    const extra = capabilities.filter((c) => !GUEST_PARTNER_CAPABILITIES.includes(c));
    if (extra.length > 0) {
      throw invalidField('body.capabilities', `a guest_partner key may not hold ${extra.join(', ')}`);
    }
  }
  if (input.type === 'personal' && input.userId === undefined) {
    throw invalidField('body.userId', 'is required for a personal key');
  }
  if (input.type === 'integration' && input.userId !== undefined) {
    throw invalidField('body.userId', 'is only for personal keys');
  }
  if (input.expiresAt !== undefined && Date.parse(input.expiresAt) <= now.getTime()) {
    throw invalidField('body.expiresAt', 'must be in the future');
  }
  const { secret, prefix, hash } = generateApiKeySecret();
  const row = await db.transaction(async (tx) => {
    const b = await requireBusiness(tx, businessSlug);
    if (input.userId !== undefined) {
      // Decided on the locked membership: a demotion committing meanwhile waits for this key (and
      // then narrows it, members-and-sessions.md) or went first and is seen here.
      const role = await lockHolderRole(tx, b.id, input.userId);
      if (role === undefined) throw invalidField('body.userId', 'is not a member of this business');
      const extra = beyondRole(capabilities, role);
      if (extra.length > 0) {
        throw invalidField('body.capabilities', `a personal key of a member with the role ${role} may not hold ${extra.join(', ')}`);
      }
    }
    return insertKey(tx, {
      id: newId('key'),
      businessId: b.id,
      name: input.name,
      type: input.type,
      kind: input.kind,
      capabilities,
      tier: input.tier ?? 'standard',
      prefix,
      hash,
      userId: input.userId ?? null,
      expiresAt: input.expiresAt ?? null,
    });
  });
  return { ...apiKeyView(row), secret };
}

export async function revokeApiKey(db: Db, keyId: string): Promise<ApiKeyView> {
  const row = await revokeKey(db, keyId);
  if (!row) throw new AppError('request.not_found', `No API key with id "${keyId}".`);
  return apiKeyView(row);
}

/** Every key of the business, revoked and expired ones too, by name then id; never a secret or its hash. */
export async function listApiKeys(db: Db, businessSlug: string): Promise<ApiKeyView[]> {
  return db.transaction(async (tx) => {
    const b = await requireBusiness(tx, businessSlug);
    return (await listKeys(tx, b.id)).sort(byNameThenId).map(apiKeyView);
  });
}
