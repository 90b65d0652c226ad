import type { Queryable } from '../../store/db.ts';
import { requireBusiness } from '../operator/businesses.ts';
import { requireLocation } from '../operator/locations.ts';
import { type ExplainInput, type ExplanationView, explainAvailability } from './explain.ts';
import { requireOneServiceOrVisit } from '../../domain/availability/visit.ts';
import { explainVisit } from './explain-visit.ts';

export type ExplainRequest = Omit<ExplainInput, 'serviceId'> & { serviceId?: string | undefined; serviceIds?: string[] | undefined };

/** POST /v1/availability/explain and the operator's: one service, or a visit with `serviceIds`. */
export function explainServiceOrVisit(q: Queryable, input: ExplainRequest): Promise<ExplanationView> {
  requireOneServiceOrVisit(input);
  const { serviceId, serviceIds, ...rest } = input;
  if (serviceIds) return explainVisit(q, { ...rest, serviceIds }, (one) => explainAvailability(q, one));
  return explainAvailability(q, { ...rest, serviceId: serviceId! });
}

/** The operator's explain: the business and location by slug (unknown: 404), then the same answer with the ids in the way. */
export async function explainAtBusiness(
  db: Queryable,
  input: Omit<ExplainRequest, 'location' | 'withIds'> & { businessSlug: string; locationSlug: string },
): Promise<ExplanationView> {
  const business = await requireBusiness(db, input.businessSlug);
  const location = await requireLocation(db, business.id, input.locationSlug);
  return explainServiceOrVisit(db, { ...input, location, withIds: true });
}
