import { randomBytes } from 'node:crypto';
import type { Queryable } from './db.ts';

/** Reads a setting, creating it with `make()` if absent; concurrent starters agree on one value. */
export async function getOrCreateSetting(q: Queryable, key: string, make: () => string): Promise<string> {
  await q.query('INSERT INTO server_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [key, make()]);
  const r = await q.query<{ value: string }>('SELECT value FROM server_settings WHERE key = $1', [key]);
  return r.rows[0]!.value;
}

/** Lives in the database so every instance signs and verifies with the same key. */
export async function getServerSecret(q: Queryable): Promise<Buffer> {
  return Buffer.from(await getOrCreateSetting(q, 'server_secret', () => randomBytes(32).toString('hex')), 'hex');
}
