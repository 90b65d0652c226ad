import type { Queryable } from './db.ts';
import { isUniqueViolation } from './db-errors.ts';

export interface BusinessRow {
  id: string;
  slug: string;
  name: string;
  currency: string;
  created_at: Date;
  client_retention_months: number | null;
}

/** `slug_taken`: another business has the slug. */
export async function insertBusiness(
  q: Queryable,
  b: { id: string; slug: string; name: string; currency: string },
): Promise<BusinessRow | 'slug_taken'> {
  try {
    const r = await q.query<BusinessRow>(
      `INSERT INTO businesses (id, slug, name, currency) VALUES ($1, $2, $3, $4)
       RETURNING id, slug, name, currency, created_at, client_retention_months`,
      [b.id, b.slug, b.name, b.currency],
    );
    return r.rows[0]!;
  } catch (err) {
    if (isUniqueViolation(err)) return 'slug_taken';
    throw err;
  }
}

export async function findBusinessBySlug(q: Queryable, slug: string): Promise<BusinessRow | undefined> {
  const r = await q.query<BusinessRow>(
    'SELECT id, slug, name, currency, created_at, client_retention_months FROM businesses WHERE slug = $1',
    [slug],
  );
  return r.rows[0];
}

export async function findBusinessById(q: Queryable, id: string): Promise<BusinessRow | undefined> {
  const r = await q.query<BusinessRow>(
    'SELECT id, slug, name, currency, created_at, client_retention_months FROM businesses WHERE id = $1',
    [id],
  );
  return r.rows[0];
}

/** Every business, by slug then id; `COLLATE "C"` keeps the order the same whatever the database's collation. */
export async function listBusinesses(q: Queryable): Promise<BusinessRow[]> {
  const r = await q.query<BusinessRow>(
    'SELECT id, slug, name, currency, created_at, client_retention_months FROM businesses ORDER BY slug COLLATE "C", id COLLATE "C"',
  );
  return r.rows;
}

/**
 * A business by slug with its two versions (business_versions) read in the same snapshot: what the
 * guest pages, which have no API key to learn them with, keep their cached answers under.
 */
export async function findBusinessWithVersions(
  q: Queryable,
  slug: string,
): Promise<(BusinessRow & { version: number; occupancy: number }) | undefined> {
  const r = await q.query<BusinessRow & { version: string | number; occupancy: string | number }>(
    `SELECT b.id, b.slug, b.name, b.currency, b.created_at, b.client_retention_months, COALESCE(v.version, 0) AS version, COALESCE(o.version, 0) AS occupancy
       FROM businesses b
       LEFT JOIN business_versions v ON v.business_id = b.id
       LEFT JOIN business_versions o ON o.business_id = 'occ:' || b.id
      WHERE b.slug = $1`,
    [slug],
  );
  const row = r.rows[0];
  return row ? { ...row, version: Number(row.version), occupancy: Number(row.occupancy) } : undefined;
}

/** clients-and-reports.md "Retention": null keeps clients; 12 to 120 months (a CHECK says so too). */
export async function setClientRetention(q: Queryable, businessId: string, months: number | null): Promise<void> {
  await q.query('UPDATE businesses SET client_retention_months = $2 WHERE id = $1', [businessId, months]);
}
