import { AppError } from '../../domain/errors.ts';
import type { Queryable } from '../../store/db.ts';
import { countLocations } from '../../store/locations.ts';
import { lockPlanLimits, type PlanLimits } from '../../store/plan-limits.ts';
import { countActiveServices } from '../../store/services.ts';
import { countActiveStaff } from '../../store/staff.ts';

export type PlanLimit = keyof PlanLimits;

const COUNTERS: Record<PlanLimit, (q: Queryable, businessId: string) => Promise<number>> = {
  maxLocations: countLocations,
  maxStaffMembers: countActiveStaff,
  maxActiveServices: countActiveServices,
};

const NOUNS: Record<PlanLimit, string> = {
  maxLocations: 'locations',
  maxStaffMembers: 'active staff members',
  maxActiveServices: 'active services',
};

/**
 * Call inside the transaction that adds one more of the counted thing, before the insert: the
 * lock taken here serialises concurrent adds for the business. A limit lowered below the current
 * count blocks new additions only; nothing existing is switched off.
 */
export async function enforcePlanLimit(tx: Queryable, businessId: string, limit: PlanLimit): Promise<void> {
  const max = (await lockPlanLimits(tx, businessId))[limit];
  if (max === null) return;
  if ((await COUNTERS[limit](tx, businessId)) >= max) {
    throw new AppError('subscription.quota_exceeded', `The plan allows at most ${max} ${NOUNS[limit]}.`, { limit, max });
  }
}
