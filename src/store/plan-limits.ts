import type { Queryable } from './db.ts';

export interface PlanLimits {
  maxLocations: number | null;
  maxStaffMembers: number | null;
  maxActiveServices: number | null;
}

/**
 * Reads the limits and locks the subscription row until the transaction ends, so concurrent
 * creates for one business count and insert one after the other and cannot both pass at limit − 1.
 */
export async function lockPlanLimits(q: Queryable, businessId: string): Promise<PlanLimits> {
  const r = await q.query<PlanLimits>(
    `SELECT max_locations AS "maxLocations", max_staff_members AS "maxStaffMembers",
            max_active_services AS "maxActiveServices"
       FROM subscriptions WHERE business_id = $1 FOR UPDATE`,
    [businessId],
  );
  const row = r.rows[0];
  // Every business is created with its subscription; without the row there would be nothing to lock.
  if (!row) throw new Error(`business ${businessId} has no subscription row`);
  return row;
}
