import { randomBytes } from 'node:crypto';
import type { Config } from '../../config.ts';
import type { Db } from '../../store/db.ts';
import { getOrCreateSetting } from '../../store/server-settings.ts';

/**
 * ADMIN_TOKEN wins when set. Without it the embedded database keeps a generated token (printed at
 * every start, so a local operator can always find it); PostgreSQL deployments keep the operator
 * API off rather than invent a credential nobody configured.
 */
export async function ensureAdminToken(db: Db, config: Config): Promise<string | undefined> {
  if (config.adminToken) return config.adminToken;
  if (db.kind !== 'pglite') return undefined;
  return getOrCreateSetting(db, 'admin_token', () => `adm_${randomBytes(24).toString('base64url')}`);
}
