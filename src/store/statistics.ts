import type { Queryable } from './db.ts';

/**
 * The planner's statistics of every table. The embedded database (PGlite) runs no autovacuum, so
 * without this its planner never learns how large tables have grown and, for instance, reads every
 * client in name order instead of using the search's trigram index; on PostgreSQL autovacuum does
 * this too, and one more sampled ANALYZE an hour costs little.
 */
export async function gatherStatistics(q: Queryable): Promise<void> {
  await q.query('ANALYZE');
}
